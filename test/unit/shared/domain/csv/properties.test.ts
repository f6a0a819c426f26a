import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { parseAmount } from '../../../../../shared/domain/csv/amount.ts';
import { decodeCsv } from '../../../../../shared/domain/csv/decode.ts';
import { importCsv } from '../../../../../shared/domain/csv/index.ts';
import { parseCsv } from '../../../../support/parse-csv.ts';
import { money } from '../../../../../shared/domain/money.ts';
import type { ProductForValidation } from '../../../../../shared/domain/validation.ts';

const range: ProductForValidation = { id: 1, currency: 'USD', price: { kind: 'range', min: money(100, 'USD'), max: money(10000, 'USD') } };
const physicalLines = (text: string): number => text.split(/\r\n|\r|\n/).length;

// Bytes that look like CSV often enough to reach the interesting paths.
const csvishBytes = fc.oneof(
  fc.uint8Array({ maxLength: 400 }),
  fc
    .array(fc.constantFrom('a', '@', '.', ',', ';', '\t', '"', '\n', '\r', '\r\n', ' ', '1', 'é', '€', '한', '\uFEFF'), { maxLength: 200 })
    .map((parts) => new TextEncoder().encode(`Name,Email,Amount,Message\n${parts.join('')}`)),
);

describe('CSV import never throws and never loses a record', () => {
  it('gives every record a line within the file, and every problem a line too, for arbitrary bytes', () => {
    fc.assert(
      fc.property(csvishBytes, (bytes) => {
        const { parsed, validation } = importCsv(bytes, range);
        const lineCount = physicalLines(decodeCsv(bytes).text);
        const rows = validation.rows;
        for (const row of rows) {
          expect(row.line).toBeGreaterThanOrEqual(1);
          expect(row.line).toBeLessThanOrEqual(lineCount);
        }
        for (const problem of parsed.problems) expect(problem.line).toBeGreaterThanOrEqual(1);
        // Lines strictly increase: no record is counted twice or out of order.
        for (let i = 1; i < rows.length; i++) expect(rows[i]!.line).toBeGreaterThan(rows[i - 1]!.line);
        for (const row of validation.rows) {
          for (const issue of [...row.errors, ...row.warnings]) expect(issue.message.startsWith(`Line ${row.line}: `)).toBe(true);
        }
        const problemLines = new Set(parsed.problems.map((p) => p.line));
        for (const row of rows) if (row.errors.some((e) => e.field === 'row')) expect(problemLines.has(row.line)).toBe(true);
        expect(validation.totals.valid + validation.totals.invalid).toBe(rows.length);
      }),
      { numRuns: 500 },
    );
  });

  it('reads back any table written by a CSV writer, cell for cell, with each record on the line where it starts', () => {
    const cell = fc
      .array(fc.constantFrom('a', 'B', ' ', ',', ';', '"', '\n', '\r\n', 'é', '€', '@', '.'), { maxLength: 8 })
      .map((parts) => parts.join(''));
    const table = fc.array(fc.tuple(cell, cell, cell, cell), { minLength: 1, maxLength: 15 });
    fc.assert(
      fc.property(table, fc.constantFrom('\n', '\r\n'), fc.constantFrom(',', ';', '\t') as fc.Arbitrary<',' | ';' | '\t'>, (rows, newline, delimiter) => {
        // A first cell that is never blank, so no generated row is a skippable blank line.
        const data = rows.map(([a, b, c, d]) => [`r${a}`, b, c, d]);
        const header = ['Name', 'Email', 'Amount', 'Message'];
        const text = Papa.unparse([header, ...data], { newline, delimiter });
        const parsed = parseCsv(new TextEncoder().encode(text), { delimiter });
        expect(parsed.problems).toEqual([]);
        expect(parsed.records.map((r) => r.raw)).toEqual(data.map((r) => r.map((c) => c.replace(/\r\n/g, '\n'))));
        let line = 2;
        const expected = data.map((r) => {
          const start = line;
          line += 1 + r.reduce((n, c) => n + (c.match(/\n/g)?.length ?? 0), 0);
          return start;
        });
        expect(parsed.records.map((r) => r.line)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('parses any amount text without throwing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.constantFrom('USD', 'KRW', 'KWD'), fc.constantFrom('.', ',') as fc.Arbitrary<'.' | ','>, (text, currency, sep) => {
        const result = parseAmount(text, currency, sep);
        if (result.ok) expect(Number.isSafeInteger(result.money.minor) && result.money.minor > 0).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('reads any positive decimal written with the currency exponent back to the same minor units', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000_00 }), fc.boolean(), (minor, grouped) => {
        const whole = Math.floor(minor / 100).toString();
        const frac = (minor % 100).toString().padStart(2, '0');
        const wholeText = grouped ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : whole;
        const result = parseAmount(`${wholeText}.${frac}`, 'USD', '.');
        expect(result).toEqual({ ok: true, money: money(minor, 'USD') });
        const german = parseAmount(`${grouped ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, '.') : whole},${frac}`, 'EUR', ',');
        expect(german).toEqual({ ok: true, money: money(minor, 'EUR') });
      }),
      { numRuns: 500 },
    );
  });
});
