// "Every line is either a valid row or an error with its line number" (issue 5): in a file
// without quotes each physical line is one record, so every non-blank line after the header must
// come back as a record on that very line, valid or carrying errors that name the line — whatever
// the bytes in its cells.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importCsv } from '../../../../../shared/domain/csv/index.ts';
import { money } from '../../../../../shared/domain/money.ts';
import type { ProductForValidation } from '../../../../../shared/domain/validation.ts';

const fixed: ProductForValidation = { id: 1, currency: 'USD', price: { kind: 'fixed', amount: money(2500, 'USD') } };

const cell = fc.oneof(
  fc.array(fc.constantFrom('a', 'Z', '@', '.', ' ', '1', '5', '2', '0', '$', '=', '-', '+', 'é', '한', '😀', '\u0000', '\u00A0'), { maxLength: 10 }).map((p) => p.join('')),
  fc.constantFrom('ann@example.com', 'bob@example.org', '25', '25.00', '$25', '24.99', '-25', 'x@y', ''),
);
const line = fc.oneof(
  { weight: 8, arbitrary: fc.array(cell, { minLength: 1, maxLength: 5 }).map((cells) => cells.join(',')) },
  { weight: 1, arbitrary: fc.constant('') },
);

describe('CSV import: every line is a valid row or an error with its line number', () => {
  it('returns each non-blank data line as a record on that line, valid (no errors) or with errors that name the line', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.constantFrom('\n', '\r\n'), (lines, newline) => {
        const text = ['Name,Email,Amount', ...lines].join(newline);
        const { parsed, validation } = importCsv(new TextEncoder().encode(text), fixed);
        expect(parsed.headerLine).toBe(1);
        const nonBlankLines = lines.flatMap((l, i) => (l.trim() === '' ? [] : [i + 2]));
        const recordLines = validation.rows.map((r) => r.line);
        // Lines with only commas may be dropped as blank by the parser; none with content may be.
        for (const [i, l] of lines.entries()) {
          if (l.replace(/[,\s]/g, '') !== '') expect(recordLines, `line ${i + 2}: ${JSON.stringify(l)}`).toContain(i + 2);
        }
        for (const n of recordLines) expect(nonBlankLines).toContain(n);
        expect(validation.rows.map((r) => r.line)).toEqual(recordLines);
        for (const row of validation.rows) {
          const valid = row.errors.length === 0;
          if (valid) {
            expect(row.amount).toEqual(money(2500, 'USD'));
            expect(row.email).not.toBe('');
          }
          for (const issue of [...row.errors, ...row.warnings]) expect(issue.message.startsWith(`Line ${row.line}: `)).toBe(true);
        }
        const valid = validation.rows.filter((r) => r.errors.length === 0).length;
        expect(validation.totals).toMatchObject({ rows: validation.rows.length, valid, invalid: validation.rows.length - valid });
      }),
      { numRuns: 400 },
    );
  });
});

describe('line numbers in a CRLF file with a lone CR inside a quoted cell', () => {
  it('count that CR as a line break, as in any other file, so the records after it keep their own lines', () => {
    const text = 'Name,Email,Message\r\nAnn,ann@example.com,"one\rtwo"\r\nBob,bob@example.com,x\r\n';
    const { validation } = importCsv(new TextEncoder().encode(text), fixed);
    expect(validation.rows.map((r) => ({ line: r.line, message: r.raw[2] }))).toEqual([
      { line: 2, message: 'one\ntwo' },
      { line: 4, message: 'x' },
    ]);
    // The same lines as the file written with LF only.
    const lf = importCsv(new TextEncoder().encode(text.replace(/\r\n?/g, '\n')), fixed).validation;
    expect(lf.rows.map((r) => r.line)).toEqual([2, 4]);
  });
});
