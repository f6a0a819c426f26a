// The recipient list template: its columns are the ones the import maps, its notes sit above the
// header without being taken for it, and the template filled with two rows imports cleanly through
// importFile, as .xlsx and as .csv.
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { openWorkbook } from '../../../../electron/core/workbook/index.ts';
import { importFile } from '../../../../electron/core/workbook/import.ts';
import { TEMPLATE_COLUMNS, templateFile } from '../../../../electron/core/workbook/template.ts';
import { writeXlsx } from '../../../../electron/core/workbook/write.ts';
import { detectMapping } from '../../../../shared/domain/csv/headers.ts';
import type { ProductForValidation } from '../../../../shared/domain/validation.ts';

const product: ProductForValidation = { id: 1, currency: 'USD', price: { kind: 'range', min: { minor: 500, currency: 'USD' }, max: { minor: 50_000, currency: 'USD' } } } as ProductForValidation;

/** The template .xlsx with two recipients typed under its header, as Excel would store them (a number for the amount). */
function filledXlsx(): Uint8Array {
  const parts = unzipSync(templateFile('xlsx').bytes);
  const sheet = strFromU8(parts['xl/worksheets/sheet1.xml']!);
  const rows =
    '<row r="3"><c r="A3" t="inlineStr"><is><t>Ann Lee</t></is></c><c r="B3" t="inlineStr"><is><t>ann@example.com</t></is></c><c r="C3"><v>25</v></c></row>' +
    '<row r="4"><c r="A4" t="inlineStr"><is><t>Bob Day</t></is></c><c r="B4" t="inlineStr"><is><t>bob@example.com</t></is></c><c r="C4"><v>25.5</v></c><c r="D4" t="inlineStr"><is><t>Thanks, {first_name}!</t></is></c></row>';
  expect(sheet).toContain('</sheetData>');
  parts['xl/worksheets/sheet1.xml'] = strToU8(sheet.replace('</sheetData>', `${rows}</sheetData>`));
  return zipSync(parts);
}

function filledCsv(): Uint8Array {
  const text = new TextDecoder().decode(templateFile('csv').bytes);
  return new TextEncoder().encode(`${text}Ann Lee,ann@example.com,25,,\r\nBob Day,bob@example.com,25.50,"Thanks, {first_name}!",\r\n`);
}

describe('the template', () => {
  it('has the columns the import maps, each to its own field', () => {
    const headers = TEMPLATE_COLUMNS.map((c) => c.header);
    const mapping = detectMapping(headers);
    for (const [i, column] of TEMPLATE_COLUMNS.entries()) expect(mapping[column.field]).toBe(i);
    expect(TEMPLATE_COLUMNS.map((c) => c.field)).toEqual(['name', 'email', 'amount', 'message', 'product']);
  });

  it('notes each column: required or not, the amount format, that headers may be in another language', () => {
    const note = (field: string) => TEMPLATE_COLUMNS.find((c) => c.field === field)!.note;
    expect(note('name')).toMatch(/^Required\./);
    expect(note('email')).toMatch(/^Required\./);
    expect(note('amount')).toMatch(/^Optional\..*25\.50/);
    expect(note('message')).toMatch(/^Optional\./);
    expect(note('product')).toMatch(/^Optional\..*product id/);
    expect(note('name')).toMatch(/another language/);
    // A note that said "mail" could be taken for the header (the matcher's fallback).
    for (const column of TEMPLATE_COLUMNS) expect(column.note.toLowerCase()).not.toContain('mail');
  });

  it('is an empty list as .xlsx: the notes row, then the bold header, no recipients', () => {
    const { fileName, bytes } = templateFile('xlsx');
    expect(fileName).toBe('giftbatch-recipients-template.xlsx');
    const workbook = openWorkbook(bytes);
    expect(workbook.sheetNames).toEqual(['Recipients']);
    const rows: [number, string[]][] = [];
    workbook.read('Recipients', (cells, row) => rows.push([row, [...cells]]));
    expect(rows).toEqual([
      [1, TEMPLATE_COLUMNS.map((c) => c.note)],
      [2, ['Name', 'Email', 'Amount', 'Message', 'Product']],
    ]);
    const sheet = strFromU8(unzipSync(bytes)['xl/worksheets/sheet1.xml']!);
    expect(sheet).toMatch(/<c r="A2" s="1" t="inlineStr">/); // style 1 is the bold font
    expect(strFromU8(unzipSync(bytes)['xl/styles.xml']!)).toMatch(/<cellXfs count="3"><xf[^>]*\/><xf numFmtId="0" fontId="1"/);
    // The same template is the same bytes.
    expect(templateFile('xlsx').bytes).toEqual(bytes);
  });

  it('is an empty list as .csv: UTF-8 with a BOM, the notes line, then the header', () => {
    const { fileName, bytes } = templateFile('csv');
    expect(fileName).toBe('giftbatch-recipients-template.csv');
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    expect(text.startsWith('\uFEFF"Required.')).toBe(true);
    expect(text.split('\r\n')[1]).toBe('"Name","Email","Amount","Message","Product"');
    expect(text.split('\r\n')).toHaveLength(3);
  });

  it('empty, imports as no rows with the header found below the notes', () => {
    for (const format of ['xlsx', 'csv'] as const) {
      const result = importFile(templateFile(format).bytes, product);
      expect(result.parsed.headerLine).toBe(2);
      expect(result.validation.totals).toMatchObject({ rows: 0, valid: 0 });
    }
  });

  it('filled with two rows, imports cleanly as .xlsx (rows 2, valid 2)', () => {
    const result = importFile(filledXlsx(), product);
    expect(result.parsed).toMatchObject({ format: 'xlsx', headerLine: 2, headers: ['Name', 'Email', 'Amount', 'Message', 'Product'], problems: [] });
    expect(result.validation.totals).toMatchObject({ rows: 2, valid: 2, invalid: 0 });
    expect(result.validation.rows.map((r) => [r.line, r.email, r.amount?.minor])).toEqual([
      [3, 'ann@example.com', 2500],
      [4, 'bob@example.com', 2550],
    ]);
  });

  it('filled with two rows, imports cleanly as .csv (rows 2, valid 2)', () => {
    const result = importFile(filledCsv(), product);
    expect(result.parsed).toMatchObject({ headerLine: 2, headers: ['Name', 'Email', 'Amount', 'Message', 'Product'], problems: [] });
    expect(result.validation.totals).toMatchObject({ rows: 2, valid: 2, invalid: 0 });
    expect(result.validation.rows.map((r) => [r.line, r.email, r.amount?.minor])).toEqual([
      [3, 'ann@example.com', 2500],
      [4, 'bob@example.com', 2550],
    ]);
  });
});

describe('writeXlsx', () => {
  it('escapes XML in cells and keeps leading spaces and line breaks', () => {
    const bytes = writeXlsx({ name: 'S', rows: [{ cells: ['a < b & "c"', '  two\nlines', ''] }, { cells: ['x'], style: 'bold' }] });
    const rows: string[][] = [];
    openWorkbook(bytes).read('S', (cells) => rows.push([...cells]));
    expect(rows).toEqual([['a < b & "c"', '  two\nlines'], ['x']]);
  });

  it('refuses a control character XML cannot hold, naming the cell', () => {
    expect(() => writeXlsx({ name: 'S', rows: [{ cells: ['ok'] }, { cells: ['', 'bad\u0001'] }] })).toThrow(/Cell B2 holds a control character/);
  });

  it('refuses a sheet name Excel does not accept', () => {
    expect(() => writeXlsx({ name: 'a/b', rows: [] })).toThrow(/not a sheet name Excel accepts/);
    expect(() => writeXlsx({ name: 'x'.repeat(32), rows: [] })).toThrow(/not a sheet name Excel accepts/);
    expect(() => writeXlsx({ name: '', rows: [] })).toThrow(/not a sheet name Excel accepts/);
  });
});
