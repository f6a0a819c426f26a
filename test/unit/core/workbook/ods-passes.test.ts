// An .ods keeps every sheet in one part (content.xml): listing its sheets with their row counts and
// reading the chosen one parse that part twice at most, whatever the number of sheets, so the
// inflate budget (WORKBOOK_LIMITS.inflatedBytes) is not spent on re-reads. The real zip reader is
// observed, not replaced: every part it inflates, and the file's inflated total, are recorded.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chooseSheet, openWorkbook, SheetChoiceNeeded } from '../../../../electron/core/workbook/index.ts';
import type * as zipModule from '../../../../electron/core/workbook/zip.ts';
import { openZip, type Zip } from '../../../../electron/core/workbook/zip.ts';
import { ods, type OSheet } from '../../../support/workbook-files.ts';

const seen = vi.hoisted(() => ({ parts: [] as string[], zip: null as { inflated: number } | null }));

vi.mock('../../../../electron/core/workbook/zip.ts', async (importOriginal) => {
  const real = await importOriginal<typeof zipModule>();
  return {
    ...real,
    readPart: (zip: Zip, name: string, sink: (text: string) => void, maxBytes?: number) => {
      seen.parts.push(name);
      seen.zip = zip;
      return real.readPart(zip, name, sink, maxBytes);
    },
  };
});

afterEach(() => {
  seen.parts = [];
  seen.zip = null;
});

const contentParses = (): number => seen.parts.filter((p) => p === 'content.xml').length;

const sheets: OSheet[] = [
  // A title, two padding rows, a header and a row repeated three times: 5 non-blank rows.
  { name: 'Budget', rows: [['Budget 2024'], 2, ['Item', 'Cost'], { repeat: 3, cells: ['Cards', { float: '1000', type: 'currency' }] }] },
  {
    name: 'Speakers',
    rows: [['Name', 'Email', 'Amount'], [{ text: 'Ann', note: 'VIP' }, 'ann@example.com', { float: '50' }], [null, { text: ' ' }], ['Bob  Lee', 'bob@example.com', { float: '25' }]],
  },
  { name: 'Empty', rows: [3, [null, { text: '' }]] },
];
const book = ods(sheets);
const contentBytes = openZip(book).entries.get('content.xml')!.size;
const counts = [
  { name: 'Budget', rows: 5 },
  { name: 'Speakers', rows: 3 },
  { name: 'Empty', rows: 0 },
];

describe('an .ods workbook of three sheets', () => {
  it('lists its sheets with their row counts from the one parse that opens it', () => {
    const workbook = openWorkbook(book);
    expect(contentParses()).toBe(1);
    expect(workbook.sheets()).toEqual(counts);
    expect(contentParses()).toBe(1);
    // Asked for which sheet (several hold rows): still the one parse.
    expect(() => chooseSheet(workbook, undefined)).toThrow(SheetChoiceNeeded);
    expect(contentParses()).toBe(1);
  });

  it('reads the chosen sheet as the second parse, and lists the sheets after it with none more; the inflate budget pays for two', () => {
    const workbook = openWorkbook(book);
    const rows: [number, string[]][] = [];
    expect(workbook.read(chooseSheet(workbook, 'Speakers'), (cells, row) => rows.push([row, [...cells]]))).toBe(3);
    expect(rows).toEqual([
      [1, ['Name', 'Email', 'Amount']],
      [2, ['Ann', 'ann@example.com', '50']],
      [4, ['Bob  Lee', 'bob@example.com', '25']],
    ]);
    expect(workbook.sheets()).toEqual(counts);
    expect(contentParses()).toBe(2);
    // All this file's reader inflated: content.xml twice, nothing more.
    expect(seen.zip!.inflated).toBe(2 * contentBytes);
  });

  it('counts the sheets the same when listed before the read', () => {
    const workbook = openWorkbook(book);
    expect(workbook.sheets()).toEqual(counts);
    expect(workbook.read('Budget', () => {})).toBe(5);
    expect(workbook.sheets()).toEqual(counts);
    expect(contentParses()).toBe(2);
  });
});

describe('an .ods sheet refused by a limit while its sheets are counted', () => {
  // The middle sheet holds an overlong cell, its text interrupted by a <text:s> after the limit.
  const refused = ods([
    { name: 'Notes', rows: [['a'], ['b']] },
    { name: 'Bad', rows: [['Email'], [{ text: `${'x'.repeat(10_001)}  tail` }], ['more']] },
    { name: 'Recipients', rows: [['Name', 'Email'], [{ text: 'Ann  Lee' }, 'ann@example.com']] },
  ]);

  it('still opens, and the other sheets are read as before', () => {
    const workbook = openWorkbook(refused);
    const rows: [number, string[]][] = [];
    expect(workbook.read('Recipients', (cells, row) => rows.push([row, [...cells]]))).toBe(2);
    expect(rows).toEqual([
      [1, ['Name', 'Email']],
      [2, ['Ann  Lee', 'ann@example.com']],
    ]);
    expect(workbook.read('Notes', () => {})).toBe(2);
  });

  it('is refused with its own message when listed or read, without a new parse', () => {
    const workbook = openWorkbook(refused);
    const message = /cell A2 of sheet "Bad" holds more than 10,000 characters/;
    expect(() => workbook.sheets()).toThrow(message);
    expect(() => workbook.read('Bad', () => {})).toThrow(message);
    expect(() => chooseSheet(workbook, undefined)).toThrow(message);
    expect(contentParses()).toBe(1);
  });
});
