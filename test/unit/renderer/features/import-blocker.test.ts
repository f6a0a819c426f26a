import { describe, expect, it } from 'vitest';
import type { Preview } from '../../../../renderer/src/stores/wizard-store.ts';
import { importBlocker } from '../../../../renderer/src/features/new-campaign/import-blocker.ts';
import { NO_HEADER_ROW } from '../../../../shared/domain/csv/table.ts';

const base = {
  format: 'xlsx',
  encoding: 'xlsx',
  delimiter: '',
  headers: ['Name', 'Email'],
  mapping: { name: 0, email: 1 },
  detectedMapping: { name: 0, email: 1 },
  problems: [],
  rows: [],
  totals: { rows: 2, valid: 2, invalid: 0, duplicateEmails: 0, knownEmails: 0, amounts: [] },
} as const;
const sheets = [{ name: 'Notes', rows: 3 }, { name: 'Speakers', rows: 3 }];

describe('importBlocker with a workbook', () => {
  it('asks for the sheet while none is chosen (not "no recipient rows")', () => {
    const asking = { ...base, workbook: { sheets, sheet: null }, headers: [], mapping: {}, totals: { ...base.totals, rows: 0, valid: 0 } } as unknown as Preview;
    expect(importBlocker(asking, 'speakers.xlsx')).toBe('“speakers.xlsx” is a workbook with several sheets. Choose the sheet that holds the recipients.');
  });

  it('lets a chosen sheet with a name and an e-mail column through', () => {
    expect(importBlocker({ ...base, workbook: { sheets, sheet: 'Speakers' } } as unknown as Preview, 'speakers.xlsx')).toBeNull();
  });
});

describe('importBlocker with a blank file', () => {
  const noHeader = [{ line: 1, message: NO_HEADER_ROW }];
  it('says a file or sheet with no filled row has nothing in it, not "no recipient rows below its header"', () => {
    const blank = { ...base, workbook: { sheets: [{ name: 'Sheet1', rows: 0 }], sheet: 'Sheet1' }, headers: [], mapping: {}, problems: noHeader, totals: { ...base.totals, rows: 0, valid: 0 } } as unknown as Preview;
    expect(importBlocker(blank, 'empty.xlsx')).toBe(
      '“empty.xlsx” has nothing in it: no header row naming the columns (Name, Email, …) and no recipient rows. Check that it is the right file and sheet, with one row per recipient under the header.',
    );
    const csv = { ...base, format: 'csv', encoding: 'utf-8', delimiter: ',', headers: [], mapping: {}, problems: noHeader, totals: { ...base.totals, rows: 0, valid: 0 } } as unknown as Preview;
    expect(importBlocker(csv, 'blank.csv')).toMatch(/^“blank\.csv” has nothing in it: .* Check that it is the right file, with one row/);
  });

  it('keeps "no recipient rows below its header" for a header with nothing under it', () => {
    const headerOnly = { ...base, totals: { ...base.totals, rows: 0, valid: 0 } } as unknown as Preview;
    expect(importBlocker(headerOnly, 'header-only.csv')).toBe('“header-only.csv” has no recipient rows below its header. Check that it is the right file, with one row per recipient.');
  });
});

// A letter picked instead of the list read as one column to map (S13-E newcomer walk).
describe('importBlocker with a file that is no list', () => {
  it('says the file does not look like a list of recipients, not which column to choose', () => {
    const letter = { ...base, format: 'csv', workbook: null, headers: ['Dear all'], mapping: {}, detectedMapping: {}, notAList: true } as unknown as Preview;
    expect(importBlocker(letter, 'letter.txt')).toMatch(/^"letter\.txt" does not look like a list of recipients \(no columns found\)/);
    expect(importBlocker({ ...letter, notAList: false } as unknown as Preview, 'letter.txt')).toBe('No column is used as the e-mail address. Choose it under Columns above.');
  });
});
