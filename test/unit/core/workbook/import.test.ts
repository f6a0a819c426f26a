// A workbook through the engine's import: the same header search, mapping and validation as a CSV,
// line numbers the sheet's own, never read as CSV text.
import { describe, expect, it } from 'vitest';
import { importFile } from '../../../../electron/core/workbook/import.ts';
import { SheetChoiceNeeded } from '../../../../electron/core/workbook/index.ts';
import type { ProductForValidation } from '../../../../shared/domain/validation.ts';
import { ods, xlsx, type XCell } from '../../../support/workbook-files.ts';

const product: ProductForValidation = { id: 1, currency: 'USD', price: { kind: 'range', min: { minor: 500, currency: 'USD' }, max: { minor: 50_000, currency: 'USD' } } } as ProductForValidation;

function speakers(n: number): XCell[][] {
  const rows: XCell[][] = [['Name', 'Email', 'Amount']];
  for (let i = 1; i <= n; i++) rows.push([`Speaker ${i}`, `speaker${i}@example.com`, { n: i % 2 ? 50 : 25.5, style: 1 }]);
  return rows;
}

describe('importFile with a workbook', () => {
  it('reads the 48-row speakers workbook as 48 rows, not as CSV text', () => {
    const result = importFile(xlsx([{ name: 'Speakers', rows: speakers(48) }]), product);
    expect(result.parsed).toMatchObject({ format: 'xlsx', encoding: 'xlsx', delimiter: '', headerLine: 1, workbook: { sheets: [{ name: 'Speakers', rows: 49 }], sheet: 'Speakers' } });
    expect(result.validation.totals).toMatchObject({ rows: 48, valid: 48, invalid: 0 });
    expect(result.validation.totals.totals).toEqual([{ currency: 'USD', minor: 24 * 5000 + 24 * 2550 }]);
  });

  it('finds the header below a title row and blank rows; line numbers are the sheet rows; formulas count by their value', () => {
    const rows = new Map<number, XCell[]>([
      [1, ['Conference 2024 speakers']],
      [2, [{ inline: 'Prepared by the office' }]],
      [5, ['Full name', 'E-mail address', 'Gift value']],
      [6, ['Ann', 'ann@example.com', { f: '20+5', v: '25' }]],
      [8, ['Bob', 'not-an-address', { n: 30 }]],
      [9, ['Cy', 'cy@example.com', { n: 1 }]],
    ]);
    const result = importFile(xlsx([{ name: 'S', rows }]), product);
    expect(result.parsed.headerLine).toBe(5);
    expect(result.parsed.headers).toEqual(['Full name', 'E-mail address', 'Gift value']);
    expect(result.validation.rows.map((r) => [r.line, r.amount?.minor ?? null, r.errors.map((e) => e.field)])).toEqual([
      [6, 2500, []],
      [8, 3000, ['email']],
      [9, null, ['amount']],
    ]);
    expect(result.validation.rows[1]!.errors[0]!.message).toMatch(/not-an-address/);
  });

  it('takes the first non-blank row as the header when no row names an e-mail column, and says so', () => {
    const result = importFile(xlsx([{ name: 'S', rows: [['Who', 'Where'], ['Ann', 'ann@example.com']] }]), product);
    expect(result.parsed.headerLine).toBe(1);
    expect(result.parsed.problems[0]?.message).toMatch(/header \(line 1\) has no column recognised as the e-mail address/);
    // The person's mapping fixes it, as for a CSV.
    const mapped = importFile(xlsx([{ name: 'S', rows: [['Who', 'Where'], ['Ann', 'ann@example.com']] }]), product, { mapping: { email: 1, name: 0 }, defaultAmount: { minor: 2500, currency: 'USD' } });
    expect(mapped.validation.totals).toMatchObject({ rows: 1, valid: 1 });
  });

  it('asks for the sheet when the first of several is not the recipients, and reads the named one', () => {
    const book = xlsx([
      { name: 'Budget', rows: [['Item', 'Cost'], ['Cards', { n: 1000 }]] },
      { name: 'Speakers', rows: speakers(3) },
    ]);
    expect(() => importFile(book, product)).toThrow(SheetChoiceNeeded);
    const result = importFile(book, product, { sheet: 'Speakers' });
    expect(result.parsed.workbook).toEqual({ sheets: [{ name: 'Budget', rows: 2 }, { name: 'Speakers', rows: 4 }], sheet: 'Speakers' });
    expect(result.validation.totals.valid).toBe(3);
    expect(() => importFile(book, product, { sheet: 'Guests' })).toThrow(/no sheet named "Guests"/);
  });

  it('reads the one sheet whose name differs from the one given only in case (or surrounding spaces), and refuses to guess between two', () => {
    const book = xlsx([
      { name: 'Budget', rows: [['Item', 'Cost'], ['Cards', { n: 1000 }]] },
      { name: 'Speakers', rows: speakers(3) },
    ]);
    expect(importFile(book, product, { sheet: 'speakers' }).parsed.workbook?.sheet).toBe('Speakers');
    expect(importFile(book, product, { sheet: ' SPEAKERS ' }).validation.totals.valid).toBe(3);
    const twins = xlsx([
      { name: 'Speakers', rows: speakers(3) },
      { name: 'SPEAKERS', rows: speakers(2) },
    ]);
    // An exact name is still read as given; a third spelling matches both: refused, naming them.
    expect(importFile(twins, product, { sheet: 'SPEAKERS' }).validation.totals.valid).toBe(2);
    expect(() => importFile(twins, product, { sheet: 'speakers' })).toThrow(/several differ from it only in case: "Speakers", "SPEAKERS"/);
  });

  it('reads an .ods the same way', () => {
    const book = ods([{ name: 'List', rows: [['Guests'], 1, ['Name', 'Email', 'Amount'], ['Ann', 'ann@example.com', { float: '25', type: 'currency', shown: '$25.00' }]] }]);
    const result = importFile(book, product);
    expect(result.parsed).toMatchObject({ format: 'ods', headerLine: 3 });
    expect(result.validation.rows.map((r) => [r.line, r.amount?.minor])).toEqual([[4, 2500]]);
  });

  it('finds a header below a title row in a CSV too, and keeps a plain CSV as it was', () => {
    const csv = importFile(new TextEncoder().encode('Speakers 2024\n\nName,Email\nAnn,ann@example.com\n'), product, { defaultAmount: { minor: 2500, currency: 'USD' } });
    expect(csv.parsed).toMatchObject({ format: 'csv', encoding: 'utf-8', delimiter: ',', headerLine: 3, workbook: null });
    expect(csv.validation.rows.map((r) => r.line)).toEqual([4]);
  });

  it('refuses a legacy .xls', () => {
    expect(() => importFile(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), product)).toThrow(/save it as .xlsx/);
  });
});

describe('a workbook error across the import worker and the contract', () => {
  it('keeps SheetChoiceNeeded and its sheets across threads, and answers invalid-input', async () => {
    const { errorData, purposefulError } = await import('../../../../electron/core/app/import-jobs.ts');
    const { classifyError } = await import('../../../../electron/core/app/errors.ts');
    const { WorkbookError } = await import('../../../../electron/core/workbook/index.ts');
    const sheets = [{ name: 'Budget', rows: 2 }, { name: 'Speakers', rows: 49 }];
    const crossed = purposefulError(JSON.parse(JSON.stringify(errorData(new SheetChoiceNeeded(sheets, 'ods')))));
    expect(crossed).toBeInstanceOf(SheetChoiceNeeded);
    expect((crossed as SheetChoiceNeeded).sheets).toEqual(sheets);
    expect((crossed as SheetChoiceNeeded).format).toBe('ods');
    expect(classifyError(crossed, 'campaigns:create')).toMatchObject({ code: 'invalid-input', message: expect.stringMatching(/"Speakers" \(49 rows\)/) });
    expect(purposefulError(errorData(new WorkbookError('damaged')))).toBeInstanceOf(WorkbookError);
  });
});
