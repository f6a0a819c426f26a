// The import's fast paths (added for the benchmark) must not change a single result: a CRLF file
// parsed with CRLF as its separator reads exactly like the same file with LF endings, the checks of
// names and messages flag exactly what the \p{Cc} expressions flagged, the e-mail checks and the
// duplicate table agree with the definitions they replaced, and validating each record as it is
// read gives what validating the parsed file gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importCsv } from '../../../shared/domain/csv/index.ts';
import { parseCsv, parseCsvText } from '../../../shared/domain/csv/parse.ts';
import { cleanEmail, emailKey, isValidEmail } from '../../../shared/domain/email.ts';
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
      expect(row.errors.some((e) => e.field === 'message'), `U+${c.toString(16)} in a message`).toBe(MESSAGE_RULE.test(message));
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

// The reference definitions the fast paths replaced, kept here to compare against.
const LOCAL_PART = /^[^\s\p{Cc}@<>()[\]\\,;:"]+$/u;
const DOMAIN = /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+[\p{L}]{2,}$/u;
const EDGE_INVISIBLES = /^[\s\u200B-\u200D\u2060\uFEFF]+|[\s\u200B-\u200D\u2060\uFEFF]+$/g;
function referenceIsValidEmail(text: string): boolean {
  if (text.length === 0 || text.length > 254) return false;
  const at = text.indexOf('@');
  if (at <= 0 || at > 64 || at !== text.lastIndexOf('@')) return false;
  const local = text.slice(0, at);
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) return false;
  return LOCAL_PART.test(local) && DOMAIN.test(text.slice(at + 1));
}

// Addresses built from the characters where the rules have edges: case, dots, hyphens, digits,
// forbidden punctuation, spaces, invisibles, non-ASCII letters (the Kelvin sign lower-cases to "k").
const emailish = fc
  .array(fc.constantFrom('a', 'B', 'k', 'K', '\u212A', 'é', 'É', 'ß', '1', '.', '.', '-', '@', '@', '_', '+', ' ', '\u00A0', '\u200B', '"', ',', '<', 'x.com', 'Example.ORG', '\t'), { maxLength: 16 })
  .map((parts) => parts.join(''));

describe('e-mail fast paths', () => {
  it('isValidEmail gives the verdict of the Unicode expressions for every address', () => {
    fc.assert(fc.property(emailish, (text) => {
      expect(isValidEmail(text)).toBe(referenceIsValidEmail(text));
    }), { numRuns: 20_000 });
    for (const text of ['a@b.co', 'A.B-c+d@mail.Example.com', 'a..b@x.com', '.a@x.com', 'a.@x.com', 'a@-x.com', 'a@x-.com', 'a@x.c', 'a@x.c0m', "o'brien@x.io", 'a@x..com', 'a@.x.com']) {
      expect(isValidEmail(text), text).toBe(referenceIsValidEmail(text));
    }
  });

  it('cleanEmail strips exactly what the edge expression strips', () => {
    fc.assert(
      fc.property(emailish, (text) => {
        expect(cleanEmail(text)).toBe(text.replace(EDGE_INVISIBLES, ''));
      }),
      { numRuns: 20_000 },
    );
    for (let c = 0; c <= 0xffff; c++) {
      const text = `${String.fromCharCode(c)}a@b.co${String.fromCharCode(c)}`;
      expect(cleanEmail(text), `U+${c.toString(16)}`).toBe(text.replace(EDGE_INVISIBLES, ''));
    }
  });

  it('emailKey is the lower-cased address exactly when the address is valid', () => {
    const reference = (text: string) => (referenceIsValidEmail(text) ? text.toLowerCase() : null);
    fc.assert(fc.property(emailish, (text) => {
      expect(emailKey(text)).toBe(reference(text));
    }), { numRuns: 20_000 });
    for (const text of ['ann@example.com', 'Ann@Example.COM', '\u212A@x.com', 'É@x.com', `${'a'.repeat(64)}@x.com`, `${'a'.repeat(65)}@x.com`, `a@${'b'.repeat(250)}.com`, 'a@b.c0m']) {
      expect(emailKey(text), text).toBe(reference(text));
    }
  });

  it('a file flags each repeated address with the first line it was on, compared as lower-cased', () => {
    const product: ProductForValidation = { id: 1, currency: 'USD', price: { kind: 'fixed', amount: { minor: 2500, currency: 'USD' } } };
    const emails = ['\u212A@x.com', 'K@X.COM', 'k@x.com', 'É@x.com', 'é@X.com', 'ann@x.com', 'ANN@x.com', 'bob@x.com'];
    const { rows, totals } = validateRows(emails.map((email, i) => ({ line: i + 2, name: 'A', email, amount: '', message: '' })), product);
    const firstOf = rows.map((row) => /also appears on line (\d+)/.exec(row.warnings[0]?.message ?? '')?.[1] ?? null);
    expect(firstOf).toEqual([null, '2', '2', null, '5', null, '7', null]);
    expect(totals.duplicateEmails).toBe(4);
  });
});

describe('the import validates each record as it reads it, with the same result as validating after', () => {
  const product: ProductForValidation = { id: 1, currency: 'USD', price: { kind: 'range', min: { minor: 100, currency: 'USD' }, max: { minor: 50_000, currency: 'USD' } } };
  const twoStep = (bytes: Uint8Array, options: { knownEmails?: ReadonlySet<string> } = {}) => {
    const { records, ...parsed } = parseCsv(bytes);
    return { parsed, validation: validateRows(records, product, { decimalSeparator: parsed.decimalSeparator, defaultAmount: { minor: 500, currency: 'USD' }, ...options }) };
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
