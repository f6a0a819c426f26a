// The CLI gives one count one name: "rows" is the recipient rows validate and send count (the header
// and any title above it left out); a workbook's sheet list counts every filled row, header included,
// and says "filled rows", as the window's sheet chooser does. One row is "it", several "them".
import { describe, expect, it } from 'vitest';
import { sheetChoiceError } from '../../../electron/cli/commands/catalog.ts';
import { needsFixingHint } from '../../../electron/cli/status.ts';
import { UsageError } from '../../../electron/cli/exit-codes.ts';
import { sheetFilledRows, sheetRowsRead } from '../../../shared/domain/sheet-words.ts';

describe('sheetChoiceError', () => {
  it('lists each sheet with its filled rows, the window’s words, so its count is not read as the recipient rows', () => {
    const error = sheetChoiceError([
      { name: 'Notes', rows: 1 },
      { name: 'Speakers', rows: 1250 },
    ]);
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe('The workbook has several sheets with rows. Sheets: Notes (1 filled row, header included), Speakers (1,250 filled rows, header included). Choose one with --sheet NAME.');
  });
});

describe('needsFixingHint of one row', () => {
  const counts = { invalid: 1, ready: 0, sending: 0, ordered: 5, delivered: 0, failed: 0, cancelled: 0, skipped: 0 };
  it('says "it", not "them"', () => {
    expect(needsFixingHint({ send_state: 'done', counts }, 'c_1')).toBe(
      '1 row needs fixing and was not sent (`giftbatch report c_1 --out FILE.csv` says why for each). ' +
        'To send it, correct it in your file and send it again: its recipients who already have a gift from this environment are skipped.',
    );
  });
});

describe('a sheet read, in the window (S15-W\'s walk: "Volunteers (7 filled rows)" over "sheet Volunteers, 6 rows")', () => {
  it('says the chooser\'s count again, then how many of those rows are recipients', () => {
    expect(sheetFilledRows(7)).toBe('7 filled rows, header included');
    expect(sheetRowsRead(7, 6)).toBe('(7 filled rows, header included): 6 recipient rows');
    expect(sheetRowsRead(2, 1)).toBe('(2 filled rows, header included): 1 recipient row');
    expect(sheetRowsRead(14, 12)).toBe('(14 filled rows, header included): 12 recipient rows, 1 row above the header');
  });
});
