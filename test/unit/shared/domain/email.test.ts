import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanEmail, isValidEmail, normalizeEmail } from '../../../../shared/domain/email.ts';

describe('isValidEmail', () => {
  it.each([
    'ann@example.com',
    'first.last+tag@sub.example.co.uk',
    "o'neil@example.org",
    'user@bücher.example',
    'x@a-b.example.com',
  ])('accepts the ordinary address %s', (address) => {
    expect(isValidEmail(address)).toBe(true);
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
    ['.bob@example.com', 'a local part starting with a dot'],
    ['bo..b@example.com', 'two dots in the local part'],
    ['bob@example.c', 'a one-letter top-level domain'],
    [`${'a'.repeat(65)}@example.com`, 'a local part over 64 characters'],
    [`a@${'b'.repeat(250)}.com`, 'more than 254 characters'],
  ])('rejects %s (%s)', (address) => {
    expect(isValidEmail(address)).toBe(false);
  });
});

describe('cleanEmail and normalizeEmail', () => {
  it('removes surrounding spaces and invisible characters copied from web pages', () => {
    expect(cleanEmail('\u200B ann@example.com\u00A0\uFEFF')).toBe('ann@example.com');
  });

  it('lower-cases for comparison only in normalizeEmail', () => {
    expect(cleanEmail(' Ann@Example.COM ')).toBe('Ann@Example.COM');
    expect(normalizeEmail(' Ann@Example.COM ')).toBe('ann@example.com');
  });
});

describe('isValidEmail on ASCII addresses', () => {
  // The fast character-code path must say exactly what the Unicode-aware expressions say.
  const LOCAL = /^[^\s\p{Cc}@<>()[\]\\,;:"]+$/u;
  const DOMAIN = /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+[\p{L}]{2,}$/u;
  const reference = (text: string): boolean => {
    const at = text.indexOf('@');
    if (text.length === 0 || text.length > 254 || at <= 0 || at !== text.lastIndexOf('@')) return false;
    const local = text.slice(0, at);
    if (local.length > 64 || local.startsWith('.') || local.endsWith('.') || local.includes('..')) return false;
    return LOCAL.test(local) && DOMAIN.test(text.slice(at + 1));
  };

  it('agrees with the reference expressions for any ASCII text', () => {
    const piece = (chars: string[]) => fc.array(fc.constantFrom(...chars), { maxLength: 6 }).map((p) => p.join(''));
    const local = piece(['a', 'Z', '0', 'b', '.', '-', '_', '+', ' ', '"', ',', '\t']);
    const label = piece(['a', 'b', 'Z', 'co', '0', '-', '_']);
    const tld = fc.constantFrom('com', 'org', 'de', 'c', 'x1', '', '-io');
    const address = fc
      .tuple(local, fc.constantFrom('@', '@', '@', '', '@@'), fc.array(label, { maxLength: 3 }), tld)
      .map(([l, at, labels, top]) => `${l}${at}${[...labels, top].join('.')}`);
    fc.assert(
      fc.property(address, (text) => {
        expect(isValidEmail(text)).toBe(reference(text));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('attack strings (issue 12)', () => {
  it('cleaning a cell of an invisible character, 200,000 spaces and a letter takes linear time', async () => {
    const { cleanEmail } = await import('../../../../shared/domain/email.ts');
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
});
