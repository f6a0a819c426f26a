// The import's fast paths (added for the benchmark) must not change a single result: a CRLF file
// parsed with CRLF as its separator reads exactly like the same file with LF endings, the checks of
// names and messages flag exactly what the \p{Cc} expressions flagged, and validating each record
// as it is read gives what validating the parsed file gives. (The e-mail rule's checks are in
// test/unit/shared/domain/email.test.ts.)
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importCsv } from '../../../shared/domain/csv/index.ts';
import { parseCsvText } from '../../../shared/domain/csv/parse.ts';
import { parseCsv } from '../../support/parse-csv.ts';
import { validateRows, type ProductForValidation, type RowInput } from '../../../shared/domain/validation.ts';

const LF_FILES: Record<string, string> = {
  plain: 'Name,Email,Amount\nAda,ada@example.com,25\nBob,bob@example.com,30\n',
  'quoted line breaks': 'Name,Email,Message\n"Ada\nLovelace",ada@example.com,"two\nlines\n"\nBob,bob@example.com,hi\n',
  'an unclosed quote': 'Name,Email\n"Ada,ada@example.com\nBob,bob@example.com\n',
  'a sep= line': 'sep=;\nName;Email;Amount\nAda;ada@example.com;25,50\n',
  'blank lines and no final break': '\n\nName,Email\n\nAda,ada@example.com\n\nBob,bob@example.com',
  'wrong field counts': 'Name,Email,Amount\nAda,ada@example.com\nBob,bob@example.com,1,2,3\n',
};

const decoded = (text: string) => ({ text, encoding: 'utf-8' as const });

describe('CRLF files read like their LF twins', () => {
  it.each(Object.entries(LF_FILES))('%s', (_name, lf) => {
    const crlf = lf.replace(/\n/g, '\r\n');
    expect(parseCsvText(decoded(crlf))).toEqual(parseCsvText(decoded(lf)));
  });

  it('a file mixing CRLF, CR and LF still counts every break as one line', () => {
    const mixed = 'Name,Email\r\nAda,ada@example.com\rBob,bob@example.com\nCy,"c\r\ny"\r\nDee,dee@example.com\n';
    const parsed = parseCsvText(decoded(mixed));
    expect(parsed.records.map((r) => r.line)).toEqual([2, 3, 4, 6]);
    expect(parsed.records[2]?.raw[1]).toBe('c\ny');
  });
});

describe('control characters in names and messages', () => {
  const product: ProductForValidation = { id: 1, currency: 'USD', price: { kind: 'fixed', amount: { minor: 2500, currency: 'USD' } } };
  const NAME_RULE = /[\p{Cc}\u2028\u2029]/u;
  const MESSAGE_RULE = /[^\P{Cc}\t\n\r]/u;

  it('every UTF-16 code unit is flagged exactly as the Unicode expressions say', () => {
    const rows: RowInput[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      const ch = String.fromCharCode(c);
      rows.push({ line: c + 2, name: `A${ch}B`, email: `r${c}@example.com`, amount: '', message: `x${ch}y` });
    }
    const result = validateRows(rows, product);
    result.rows.forEach((row, c) => {
      const ch = String.fromCharCode(c);
      const name = `A${ch}B`.trim();
      const message = `x${ch}y`.trim();
      const expectName = name !== '' && NAME_RULE.test(name);
      expect(row.errors.some((e) => e.field === 'name' && e.message.includes('control character')), `U+${c.toString(16)} in a name`).toBe(expectName);
      // A lone brace is a message error of its own (a field that is not closed: message-template.ts).
      expect(row.errors.some((e) => e.field === 'message'), `U+${c.toString(16)} in a message`).toBe(MESSAGE_RULE.test(message) || /[{}]/.test(message));
    });
  });

  it('rows with the same amount cell get equal amounts, and a bad cell the same reason on each line', () => {
    const range: ProductForValidation = { id: 1, currency: 'USD', price: { kind: 'range', min: { minor: 500, currency: 'USD' }, max: { minor: 50_000, currency: 'USD' } } };
    const row = (line: number, amount: string): RowInput => ({ line, name: 'A', email: `a${line}@example.com`, amount, message: '' });
    const { rows } = validateRows([row(2, '$25'), row(3, '$25'), row(4, 'abc'), row(5, 'abc')], range);
    expect(rows[0]?.amount).toEqual({ minor: 2500, currency: 'USD' });
    expect(rows[1]?.amount).toEqual({ minor: 2500, currency: 'USD' });
    expect(rows[2]?.errors[0]?.message).toBe('Line 4: "abc" is not an amount');
    expect(rows[3]?.errors[0]?.message).toBe('Line 5: "abc" is not an amount');
  });
});

describe('the import validates each record as it reads it, with the same result as validating after', () => {
  const product: ProductForValidation = { id: 1, currency: 'USD', price: { kind: 'range', min: { minor: 100, currency: 'USD' }, max: { minor: 50_000, currency: 'USD' } } };
  const twoStep = (bytes: Uint8Array, options: { knownEmails?: ReadonlySet<string> } = {}) => {
    const { records, ...parsed } = parseCsv(bytes);
    const validation = validateRows(records, product, { decimalSeparator: parsed.decimalSeparator, defaultAmount: { minor: 500, currency: 'USD' }, ...options });
    return { parsed: { ...parsed, format: 'csv', workbook: null }, validation };
  };
  const files = [
    ...Object.values(LF_FILES),
    'Name;Email;Amount\nAda;Ada@Example.com;25,50\nBob;ada@example.COM;1.234,50\n',
    'Name\tEmail\tAmount\nAda\tada@example.com\t25,50\nBob\tbob@example.com\t30,00\n',
    'Name,Email,Amount\n"Zoë",zoë@exämple.com,$25\nK,\u212A@x.com,\nk,k@x.com,abc\n',
  ];
  it.each(files.map((f, i) => [i, f] as const))('file %i', (_i, text) => {
    const bytes = new TextEncoder().encode(text);
    const options = { defaultAmount: { minor: 500, currency: 'USD' }, knownEmails: new Set(['bob@example.com']) };
    expect(importCsv(bytes, product, options)).toEqual(twoStep(bytes, { knownEmails: options.knownEmails }));
  });

  it('for arbitrary CSV-like bytes', () => {
    const bytesArb = fc
      .array(fc.constantFrom('a', 'A', '@', '.', ',', ';', '\t', '"', '\n', '\r\n', ' ', '1', '2,5', 'é', '\u212A', 'x.com'), { maxLength: 120 })
      .map((parts) => new TextEncoder().encode(`Name,Email,Amount,Message\n${parts.join('')}`));
    fc.assert(fc.property(bytesArb, (bytes) => {
      expect(importCsv(bytes, product, { defaultAmount: { minor: 500, currency: 'USD' } })).toEqual(twoStep(bytes));
    }), { numRuns: 2_000 });
  });
});
