import { describe, expect, it } from 'vitest';
import { applyMappingOverride, detectMapping, normalizeHeader } from '../../../../../shared/domain/csv/headers.ts';

describe('normalizeHeader', () => {
  it('ignores case, spaces and punctuation', () => {
    expect(normalizeHeader(' E-Mail-Adresse ')).toBe('emailadresse');
    expect(normalizeHeader('Name (full)')).toBe('namefull');
    expect(normalizeHeader('EMAIL_ADDRESS')).toBe('emailaddress');
    expect(normalizeHeader('이메일 주소')).toBe('이메일주소');
  });
});

describe('detectMapping', () => {
  it.each([
    ['Email'], ['E-mail'], ['Email address'], ['E-Mail-Adresse'], ['이메일'], ['Attendee email'], ['EMAIL'],
  ])('maps %s to email', (header) => {
    expect(detectMapping(['Something', header])).toEqual({ email: 1 });
  });

  it.each([['Name'], ['Full name'], ['Recipient name'], ['Attendee name'], ['Name (full)'], ['이름'], ['성명']])(
    'maps %s to name',
    (header) => {
      expect(detectMapping([header])).toEqual({ name: 0 });
    },
  );

  it.each([
    ['First Name', 'Last Name'],
    ['Given name', 'Surname'],
    ['Given name', 'Family name'],
    ['Vorname', 'Nachname'],
  ])('maps %s and %s to first and last name', (first, last) => {
    expect(detectMapping(['Email', first, last])).toEqual({ email: 0, firstName: 1, lastName: 2 });
  });

  it.each([['Amount'], ['Value'], ['Betrag'], ['Gift amount'], ['금액']])('maps %s to amount', (header) => {
    expect(detectMapping([header])).toEqual({ amount: 0 });
  });

  it.each([['Message'], ['Note'], ['Nachricht'], ['메시지']])('maps %s to message', (header) => {
    expect(detectMapping([header])).toEqual({ message: 0 });
  });

  it('ignores unknown columns', () => {
    expect(detectMapping(['Order #', 'Ticket Type', 'Email', 'Total Paid'])).toEqual({ email: 2 });
  });

  it('prefers an exact synonym over a column that merely contains the word', () => {
    expect(detectMapping(['Buyer Email', 'Email'])).toEqual({ email: 1 });
  });

  it('prefers the better-ranked synonym when two columns match', () => {
    expect(detectMapping(['Mail', 'Email Address'])).toEqual({ email: 1 });
  });

  it('falls back to a header containing "name" when nothing better exists (Google Forms "Your name")', () => {
    expect(detectMapping(['Timestamp', 'Email Address', 'Your name'])).toEqual({ email: 1, name: 2 });
  });

  it('does not take "Event name" or "Company name" for the person', () => {
    expect(detectMapping(['Event name', 'Company name', 'Email'])).toEqual({ email: 2 });
  });

  it('does not use the contains-"name" fallback when first and last name columns exist', () => {
    expect(detectMapping(['First Name', 'Last Name', 'Nickname'])).toEqual({ firstName: 0, lastName: 1 });
  });

  it('falls back to a header containing "e-mail" (a Google Forms question)', () => {
    expect(detectMapping(['What is your e-mail?'])).toEqual({ email: 0 });
  });
});

describe('applyMappingOverride', () => {
  it('replaces and unmaps fields the caller names, keeping the rest', () => {
    const { mapping, invalid } = applyMappingOverride({ email: 1, name: 0, amount: 2 }, { email: 3, amount: null }, 4);
    expect(mapping).toEqual({ email: 3, name: 0 });
    expect(invalid).toEqual([]);
  });

  it('reports a column index outside the header instead of reading past it', () => {
    const { mapping, invalid } = applyMappingOverride({ email: 1 }, { email: 9 }, 4);
    expect(mapping).toEqual({});
    expect(invalid).toEqual([{ field: 'email', index: 9 }]);
  });
});
