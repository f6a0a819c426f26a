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
