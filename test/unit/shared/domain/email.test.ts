import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanEmail, emailKey } from '../../../../shared/domain/email.ts';
import { validateRows, type ProductForValidation } from '../../../../shared/domain/validation.ts';

const isValid = (text: string): boolean => emailKey(text) !== null;

describe('the e-mail rule', () => {
  it.each([
    'ann@example.com',
    'first.last+tag@sub.example.co.uk',
    "o'neil@example.org",
    'user@bücher.example',
    'x@a-b.example.com',
    'x@a--b.example.com',
    'Ann@Example.COM',
  ])('accepts the ordinary address %s', (address) => {
    expect(isValid(address)).toBe(true);
  });

  it.each([
    ['bob@example', 'no dot in the domain'],
    ['bob.example.com', 'no @'],
    ['bob@@example.com', 'two @'],
    ['bob@exa mple.com', 'a space'],
    ['bob smith@example.com', 'a space in the local part'],
    ['Bob <bob@example.com>', 'a display name around it'],
    ['a@example.com, b@example.com', 'two addresses in one cell'],
    ['@example.com', 'no local part'],
    ['bob@', 'no domain'],
    ['bob@.example.com', 'a domain starting with a dot'],
    ['bob@example..com', 'an empty domain label'],
    ['bob@-example.com', 'a label starting with a hyphen'],
    ['bob@example-.com', 'a label ending with a hyphen'],
    ['.bob@example.com', 'a local part starting with a dot'],
    ['bob.@example.com', 'a local part ending with a dot'],
    ['bo..b@example.com', 'two dots in the local part'],
    ['bob@example.c', 'a one-letter top-level domain'],
    ['bob@example.c0m', 'a digit in the top-level domain'],
    ['', 'nothing'],
    [`${'a'.repeat(65)}@example.com`, 'a local part over 64 characters'],
    [`a@${'b'.repeat(250)}.com`, 'more than 254 characters'],
  ])('rejects %s (%s)', (address) => {
    expect(isValid(address)).toBe(false);
  });
});

describe('cleanEmail and emailKey', () => {
  it('removes surrounding spaces and invisible characters copied from web pages', () => {
    expect(cleanEmail('\u200B ann@example.com\u00A0\uFEFF')).toBe('ann@example.com');
  });

  it('keeps the case in cleanEmail and lower-cases for comparison in emailKey', () => {
    expect(cleanEmail(' Ann@Example.COM ')).toBe('Ann@Example.COM');
    expect(emailKey(cleanEmail(' Ann@Example.COM '))).toBe('ann@example.com');
    expect(emailKey('É@x.com')).toBe('é@x.com');
  });
});

// The rule as it was first written, in pieces (split at the "@", the dots checked by hand, each part
// by its own expression): the one-expression grammar must give the same verdict on every text.
const LOCAL_PART = /^[^\s\p{Cc}@<>()[\]\\,;:"]+$/u;
const DOMAIN = /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+[\p{L}]{2,}$/u;
const EDGE_INVISIBLES = /^[\s\u200B-\u200D\u2060\uFEFF]+|[\s\u200B-\u200D\u2060\uFEFF]+$/g;
function referenceIsValid(text: string): boolean {
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
  .array(fc.constantFrom('a', 'B', 'k', 'K', '\u212A', 'é', 'É', 'ß', '1', '.', '.', '-', '-', '@', '@', '_', '+', ' ', '\u00A0', '\u200B', '"', ',', '<', '\x7f', 'x.com', 'Example.ORG', '\t'), { maxLength: 16 })
  .map((parts) => parts.join(''));

describe('the rule agrees with its first, piecewise definition', () => {
  it('for any text built from the characters at its edges', () => {
    fc.assert(fc.property(emailish, (text) => {
      expect(isValid(text)).toBe(referenceIsValid(text));
    }), { numRuns: 20_000 });
    for (const text of ['a@b.co', 'A.B-c+d@mail.Example.com', 'a..b@x.com', '.a@x.com', 'a.@x.com', 'a@-x.com', 'a@x-.com', 'a@x.c', 'a@x.c0m', "o'brien@x.io", 'a@x..com', 'a@.x.com', 'a@b--c.de']) {
      expect(isValid(text), text).toBe(referenceIsValid(text));
    }
  });

  it('for any ASCII text shaped like an address', () => {
    const piece = (chars: string[]) => fc.array(fc.constantFrom(...chars), { maxLength: 6 }).map((p) => p.join(''));
    const local = piece(['a', 'Z', '0', 'b', '.', '-', '_', '+', ' ', '"', ',', '\t', '~', '`', '\x7f']);
    const label = piece(['a', 'b', 'Z', 'co', '0', '-', '_']);
    const tld = fc.constantFrom('com', 'org', 'de', 'c', 'x1', '', '-io');
    const address = fc
      .tuple(local, fc.constantFrom('@', '@', '@', '', '@@'), fc.array(label, { maxLength: 3 }), tld)
      .map(([l, at, labels, top]) => `${l}${at}${[...labels, top].join('.')}`);
    fc.assert(fc.property(address, (text) => {
      expect(isValid(text)).toBe(referenceIsValid(text));
    }), { numRuns: 3000 });
  });

  it('emailKey is the lower-cased address exactly when the address is valid', () => {
    const reference = (text: string) => (referenceIsValid(text) ? text.toLowerCase() : null);
    fc.assert(fc.property(emailish, (text) => {
      expect(emailKey(text)).toBe(reference(text));
    }), { numRuns: 20_000 });
    for (const text of ['ann@example.com', 'Ann@Example.COM', '\u212A@x.com', 'É@x.com', `${'a'.repeat(64)}@x.com`, `${'a'.repeat(65)}@x.com`, `a@${'b'.repeat(250)}.com`, 'a@b.c0m']) {
      expect(emailKey(text), text).toBe(reference(text));
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

  it('a file flags each repeated address with the first line it was on, compared as lower-cased', () => {
    const product: ProductForValidation = { id: 1, currency: 'USD', price: { kind: 'fixed', amount: { minor: 2500, currency: 'USD' } } };
    const emails = ['\u212A@x.com', 'K@X.COM', 'k@x.com', 'É@x.com', 'é@X.com', 'ann@x.com', 'ANN@x.com', 'bob@x.com'];
    const { rows, totals } = validateRows(emails.map((email, i) => ({ line: i + 2, name: 'A', email, amount: '', message: '' })), product);
    const firstOf = rows.map((row) => /also appears on line (\d+)/.exec(row.warnings[0]?.message ?? '')?.[1] ?? null);
    expect(firstOf).toEqual([null, '2', '2', null, '5', null, '7', null]);
    expect(totals.duplicateEmails).toBe(4);
  });
});

describe('attack strings (issue 12)', () => {
  it('cleaning a cell of an invisible character, 200,000 spaces and a letter takes linear time', async () => {
    const { parseAmount } = await import('../../../../shared/domain/csv/amount.ts');
    for (const cell of [`\u200b${' '.repeat(200_000)}a`, `a${' '.repeat(200_000)}\u200b`, ' '.repeat(200_000)]) {
      const started = Date.now();
      cleanEmail(cell);
      expect(Date.now() - started).toBeLessThan(500);
    }
    const started = Date.now();
    expect(parseAmount(`1${'x'.repeat(200_000)}1`, 'USD', '.').ok).toBe(false);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('checking the longest address the rule looks at, built to make an expression backtrack, takes linear time', () => {
    const cells = [
      `${'a.'.repeat(31)}a@${'b-'.repeat(55)}b.c_`,
      `a@${'b'.repeat(250)}`,
      `a@${'b.'.repeat(125)}1`,
      `a@${'b-'.repeat(125)}-`,
      `${'\u00e9'.repeat(60)}@${'\u00e9-'.repeat(90)}.x`,
    ];
    const started = Date.now();
    for (let i = 0; i < 2000; i++) for (const cell of cells) emailKey(cell);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
