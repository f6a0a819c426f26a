import { describe, expect, it } from 'vitest';
import type { Preview } from '../../../../renderer/src/stores/wizard-store.ts';
import { importBlocker } from '../../../../renderer/src/features/new-campaign/import-blocker.ts';

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
