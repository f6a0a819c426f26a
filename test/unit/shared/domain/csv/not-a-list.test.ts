import { describe, expect, it } from 'vitest';
import { isNotAList, notAListMessage } from '../../../../../shared/domain/csv/not-a-list.ts';
import { parseCsvText } from '../../../../../shared/domain/csv/parse.ts';
import { decodeCsv } from '../../../../../shared/domain/csv/decode.ts';

// The file as the import reads it: its layout, and each record's cells.
function read(text: string) {
  const parsed = parseCsvText(decodeCsv(new TextEncoder().encode(text)));
  return isNotAList({ ...parsed, format: 'csv' }, parsed.records.map((r) => r.raw));
}

// A letter picked instead of the list was shown as a list of one column to fix (S13-E newcomer walk).
describe('isNotAList', () => {
  it('finds sentences, one per line, with no separator and no address', () => {
    expect(read('We are delighted to welcome you to the conference this year.\nPlease find the schedule attached.\nBest regards from the events team.\n')).toBe(true);
    expect(read('Notes for Friday\n')).toBe(true);
  });

  it('leaves alone a list of one column of addresses, a header the mapping knows, a file with columns, a blank file, a workbook', () => {
    expect(read('ann@example.com\nbo@example.com\n')).toBe(false);
    expect(read('Guests\nann@example.com\n')).toBe(false);
    expect(read('Email\nann@example.com\n')).toBe(false);
    expect(read('Name\nAnn Lee\nBo Chan\n')).toBe(false);
    expect(read('Who,Mail address\nAnn Lee,ann at example\n')).toBe(false);
    expect(read('\n\n')).toBe(false);
    expect(isNotAList({ format: 'xlsx', headers: ['Notes'], detectedMapping: {} }, [['Call Ann']])).toBe(false);
  });
});

describe('notAListMessage', () => {
  it('says the file is no list, and what to choose instead', () => {
    expect(notAListMessage('letter.txt', 'check')).toBe(
      '"letter.txt" does not look like a list of recipients (no columns found): every line is one piece of text, with no comma, semicolon or tab between columns and no e-mail address. ' +
        'Choose the file that lists the recipients: a header row ("Name", "Email", and "Amount" if the gift has a range) and one row per recipient.',
    );
    expect(notAListMessage('letter.txt', 'create')).toContain('no e-mail address, so nothing was created. Choose');
  });
});
