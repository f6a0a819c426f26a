// The real-world exports in test/fixtures/csv (made by generate-fixtures.ts), read end to end.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importCsv } from '../../../../../shared/domain/csv/index.ts';
import { money } from '../../../../../shared/domain/money.ts';
import type { ProductForValidation } from '../../../../../shared/domain/validation.ts';

const fixture = (name: string): Uint8Array =>
  new Uint8Array(readFileSync(new URL(`../../../../fixtures/csv/${name}`, import.meta.url)));
const fixedUsd: ProductForValidation = { id: 1, currency: 'USD', price: { kind: 'fixed', amount: money(2500, 'USD') } };

describe('real-world CSV exports', () => {
  it('reads an Eventbrite attendee report: BOM, first and last name combined, ticket columns ignored', () => {
    const { parsed, validation } = importCsv(fixture('eventbrite-attendees.csv'), fixedUsd);
    expect(parsed.encoding).toBe('utf-8-bom');
    expect(parsed.delimiter).toBe(',');
    expect(parsed.mapping).toEqual({ firstName: 2, lastName: 3, email: 4 });
    expect(validation.rows.map((r) => [r.line, r.name, r.email])).toEqual([
      [2, 'Ada Lovelace', 'ada@example.com'],
      [3, 'José Núñez', 'jose.nunez@example.org'],
      [4, "Mary Ann O'Neil, Jr.", 'maryann@example.com'],
      [5, 'Grace Hopper', 'GRACE@EXAMPLE.COM'],
    ]);
    expect(validation.totals).toMatchObject({ rows: 4, valid: 4, totals: [money(10000, 'USD')] });
  });

  it('reads Google Forms responses: "Your name" by fallback, a multi-line answer, lines counted across it', () => {
    const { parsed, validation } = importCsv(fixture('google-forms-responses.csv'), fixedUsd);
    expect(parsed.encoding).toBe('utf-8');
    expect(parsed.mapping).toEqual({ email: 1, name: 2, message: 4 });
    expect(validation.rows.map((r) => [r.line, r.name])).toEqual([
      [2, 'Lin Wei'],
      [3, 'Sam "Sammy" Taylor'],
      [6, 'Noor Haddad'],
    ]);
    expect(validation.rows[1]?.message).toBe('Great event.\nSee you next year,\nSam');
    expect(validation.totals.valid).toBe(3);
  });

  it('reads German Excel: Windows-1252 with € and typographic quotes, semicolons, decimal commas, an empty row', () => {
    const euroRange: ProductForValidation = {
      id: 2,
      currency: 'EUR',
      price: { kind: 'range', min: money(500, 'EUR'), max: money(100000, 'EUR') },
    };
    const { parsed, validation } = importCsv(fixture('excel-de-semicolon-1252.csv'), euroRange);
    expect(parsed.encoding).toBe('windows-1252');
    expect(parsed.delimiter).toBe(';');
    expect(parsed.decimalSeparator).toBe(',');
    expect(parsed.headers).toEqual(['Vorname', 'Nachname', 'E-Mail-Adresse', 'Betrag', 'Nachricht']);
    expect(validation.rows.map((r) => [r.line, r.name, r.amount?.minor])).toEqual([
      [2, 'Jürgen Müller', 2550],
      [3, 'Änne Weiß', 100000],
      [4, 'François Lefèvre', 3000],
      [6, 'Björn Øster', 1250],
    ]);
    expect(validation.rows[0]?.message).toBe('Danke für Ihre Hilfe – 25 € für Sie!');
    expect(validation.rows[1]?.message).toBe('„Großartig“ – vielen Dank');
    expect(validation.totals).toMatchObject({ valid: 4, invalid: 0, totals: [money(106800, 'EUR')] });
  });

  it('reads Korean Excel: CP949 (including a syllable EUC-KR lacks), 이름/이메일/금액, won with thousands separators', () => {
    const wonRange: ProductForValidation = {
      id: 3,
      currency: 'KRW',
      price: { kind: 'range', min: money(10000, 'KRW'), max: money(100000, 'KRW') },
    };
    const { parsed, validation } = importCsv(fixture('excel-ko-cp949.csv'), wonRange);
    expect(parsed.encoding).toBe('cp949');
    expect(parsed.mapping).toEqual({ name: 0, email: 1, amount: 2, message: 3 });
    expect(validation.rows.map((r) => [r.line, r.name, r.amount?.minor])).toEqual([
      [2, '김민준', 30000],
      [3, '이서연', 30000],
      [4, '박똠이', 50000],
    ]);
    expect(validation.rows[1]?.message).toBe('행사에 와주셔서 고맙습니다, 즐거운 하루 되세요');
    expect(validation.totals).toMatchObject({ valid: 3, totals: [money(110000, 'KRW')] });
  });

  it('reads Excel "Unicode text": UTF-16LE, tab-separated', () => {
    const { parsed, validation } = importCsv(fixture('excel-unicode-text-utf16le.txt'), fixedUsd);
    expect(parsed.encoding).toBe('utf-16le');
    expect(parsed.delimiter).toBe('\t');
    expect(validation.rows.map((r) => [r.line, r.name, r.email])).toEqual([
      [2, 'Zoë Ångström', 'zoe@example.se'],
      [3, '山田 太郎', 'taro@example.jp'],
    ]);
    expect(validation.totals.valid).toBe(2);
  });
});

describe('resources/sample-recipients.csv', () => {
  const sample = new Uint8Array(readFileSync(new URL('../../../../../resources/sample-recipients.csv', import.meta.url)));

  it('fits a fixed-price product with exactly one invalid e-mail and one duplicate e-mail', () => {
    const { parsed, validation } = importCsv(sample, fixedUsd);
    expect(parsed.headers).toEqual(['Name', 'Email', 'Amount', 'Message']);
    expect(parsed.problems).toEqual([]);
    const invalid = validation.rows.filter((r) => r.errors.length > 0);
    expect(invalid.map((r) => r.errors.map((e) => e.field))).toEqual([['email']]);
    expect(validation.totals).toMatchObject({ rows: 12, valid: 11, invalid: 1, duplicateEmails: 1 });
    expect(validation.rows.every((r) => r.email.endsWith('example.com') || r.email.endsWith('example.org') || r.errors.length > 0)).toBe(true);
  });
});
