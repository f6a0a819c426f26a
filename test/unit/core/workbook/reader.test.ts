import { describe, expect, it } from 'vitest';
import { chooseSheet, openWorkbook, SheetChoiceNeeded, sniffFormat, WorkbookError } from '../../../../electron/core/workbook/index.ts';
import { ods, xlsx, zipParts, type XCell } from '../../../support/workbook-files.ts';

/** Every non-blank row of the sheet chosen as the import would choose it, with its row number. */
function rowsOf(bytes: Uint8Array, sheet?: string): [number, readonly string[]][] {
  const workbook = openWorkbook(bytes);
  const out: [number, readonly string[]][] = [];
  workbook.read(chooseSheet(workbook, sheet), (cells, row) => out.push([row, [...cells]]));
  return out;
}

const one = (rows: readonly (readonly XCell[])[]) => xlsx([{ name: 'Sheet1', rows }]);

describe('sniffFormat', () => {
  it('tells xlsx, ods, legacy xls and CSV apart by the bytes', () => {
    expect(sniffFormat(one([['a']]))).toBe('xlsx');
    expect(sniffFormat(ods([{ name: 'S', rows: [['a']] }]))).toBe('ods');
    expect(sniffFormat(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]))).toBe('xls');
    expect(sniffFormat(new TextEncoder().encode('Name,Email\nAnn,a@example.com\n'))).toBe('csv');
  });

  it('refuses a zip that is not a spreadsheet, and a damaged zip, instead of reading them as CSV', () => {
    expect(() => sniffFormat(zipParts({ 'word/document.xml': '<w/>' }))).toThrow(/^The file is a Word document, not a list of recipients\. Choose the spreadsheet itself/);
    expect(() => sniffFormat(zipParts({ 'ppt/presentation.xml': '<p/>' }))).toThrow(/zip archive but not a spreadsheet/);
    const cut = one([['Name'], ['Ann']]).slice(0, 200);
    expect(() => sniffFormat(cut)).toThrow(WorkbookError);
    expect(() => sniffFormat(cut)).toThrow(/end record is missing/);
  });

  it('refuses a PDF, an RTF document, an image or a program picked by mistake, saying what it is, instead of reading it as CSV text', () => {
    const bytes = (text: string, ...lead: number[]) => new Uint8Array([...lead, ...new TextEncoder().encode(text)]);
    const cases: [Uint8Array, string][] = [
      [bytes('%PDF-1.5\n%\xe2\xe3\n1 0 obj'), 'a PDF document'],
      [bytes('{\\rtf1\\ansi Name, Email'), 'an RTF document'],
      [bytes('PNG\r\n', 0x89), 'a PNG image'],
      [bytes('JFIF', 0xff, 0xd8, 0xff, 0xe0), 'a JPEG image'],
      [bytes('GIF89a'), 'a GIF image'],
      [bytes('ELF', 0x7f), 'a program'],
    ];
    for (const [file, what] of cases) {
      expect(() => sniffFormat(file), what).toThrow(WorkbookError);
      expect(() => sniffFormat(file), what).toThrow(`The file is ${what}, not a list of recipients. Choose the spreadsheet itself: a CSV file or an .xlsx or .ods workbook`);
    }
    // A list whose first cell merely starts like one of them is still read as CSV.
    expect(sniffFormat(new TextEncoder().encode('PDF name,Email\nAnn,a@example.com\n'))).toBe('csv');
    expect(sniffFormat(new TextEncoder().encode('GIF recipients,Email\nAnn,a@example.com\n'))).toBe('csv');
  });
});

describe('xlsx cells as text', () => {
  it('reads typed numbers, currency and accounting formats, float noise, formulas, dates, booleans', () => {
    const rows = rowsOf(
      one([
        ['Name', 'Email', 'Amount', 'Date'],
        ['Ann', 'ann@example.com', { n: 25 }, { n: 45413, style: 2 }],
        ['Bob', 'bob@example.com', { n: 25.5, style: 1 }, { n: 45413.5, style: 3 }],
        ['Cy', 'cy@example.com', { n: '25.499999999999996', style: 4 }, { d: '2024-05-01T00:00:00Z' }],
        ['Di', 'di@example.com', { f: 'C2*2', v: '50' }, { f: 'TODAY()', v: '45413', style: 2 }],
        ['Ed', 'ed@example.com', { f: 'TEXT(C2,"0")', v: '25', t: 'str' }, { b: true }],
        ['Fay', 'fay@example.com', { n: '0.30000000000000004' }, { b: false }],
        ['Gus', 'gus@example.com', { n: '1E-7' }, { f: '1/0', v: '#DIV/0!', t: 'e' }],
      ]),
    );
    expect(rows.map(([, cells]) => cells.slice(2))).toEqual([
      ['Amount', 'Date'],
      ['25', '2024-05-01'],
      ['25.5', '2024-05-01T12:00:00'],
      ['25.5', '2024-05-01'],
      ['50', '2024-05-01'],
      ['25', 'TRUE'],
      ['0.3', 'FALSE'],
      ['0.0000001', '#DIV/0!'],
    ]);
  });

  it('reads dates of a 1904 workbook', () => {
    expect(rowsOf(xlsx([{ name: 'S', rows: [[{ n: 43951, style: 2 }]] }], { date1904: true }))[0]![1]).toEqual(['2024-05-01']);
  });

  it('reads shared, inline and rich-text strings alike, and keeps the column of a cell after skipped ones', () => {
    const rows = rowsOf(one([['Name', null, 'Email'], [{ inline: 'Ann' }, null, { inline: ['ann', '@example.com'] }]]));
    expect(rows).toEqual([
      [1, ['Name', '', 'Email']],
      [2, ['Ann', '', 'ann@example.com']],
    ]);
  });

  it('copes with cells and rows without references', () => {
    const rows = rowsOf(xlsx([{ name: 'S', noRowNumbers: true, rows: [[{ s: 'Name', r: false }, { s: 'Email', r: false }], [{ inline: 'Ann', r: false }, { n: 7, r: false }]] }]));
    expect(rows).toEqual([
      [1, ['Name', 'Email']],
      [2, ['Ann', '7']],
    ]);
  });

  it("numbers records by the sheet's own row numbers, passing over absent and blank rows", () => {
    const rows = rowsOf(xlsx([{ name: 'S', rows: new Map<number, XCell[]>([[1, ['Title']], [4, ['Name']], [5, [{ inline: '  ' }]], [9, ['Ann']]]) }]));
    expect(rows.map(([row]) => row)).toEqual([1, 4, 9]);
  });
});

describe('several sheets', () => {
  const book = xlsx([
    { name: 'Budget', rows: [['Item'], ['Cards']] },
    { name: 'Speakers', rows: [['Name', 'Email'], ['Ann', 'a@example.com'], ['Bob', 'b@example.com']] },
    { name: 'Empty', rows: [] },
  ]);

  it('asks which sheet, with every sheet and its rows, when several hold rows and none is named', () => {
    const error = (() => {
      try {
        rowsOf(book);
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(SheetChoiceNeeded);
    expect((error as SheetChoiceNeeded).sheets).toEqual([
      { name: 'Budget', rows: 2 },
      { name: 'Speakers', rows: 3 },
      { name: 'Empty', rows: 0 },
    ]);
    expect((error as Error).message).toMatch(/"Budget" \(2 rows\), "Speakers" \(3 rows\), "Empty" \(0 rows\)/);
  });

  it('reads the named sheet, and names the sheets when the named one does not exist', () => {
    expect(rowsOf(book, 'Speakers')).toHaveLength(3);
    expect(() => rowsOf(book, 'Volunteers')).toThrow(/no sheet named "Volunteers". Its sheets: "Budget" \(2 rows\), "Speakers" \(3 rows\), "Empty" \(0 rows\)/);
  });

  it('takes the only sheet with rows without asking', () => {
    const rows = rowsOf(xlsx([{ name: 'Sheet1', rows: [] }, { name: 'List', rows: [['Email'], ['a@example.com']] }]));
    expect(rows).toHaveLength(2);
  });
});

describe('ods', () => {
  it('a comment in a sheet before the one read does not hide that sheet\'s text', () => {
    const book = ods([
      { name: 'Notes', rows: [[{ text: 'see below', note: 'a comment' }]] },
      { name: 'Recipients', rows: [['Name', 'Email'], ['Ann', 'ann@example.com']] },
    ]);
    expect(rowsOf(book, 'Recipients')).toEqual([
      [1, ['Name', 'Email']],
      [2, ['Ann', 'ann@example.com']],
    ]);
    expect(openWorkbook(book).sheets()).toEqual([
      { name: 'Notes', rows: 1 },
      { name: 'Recipients', rows: 2 },
    ]);
  });

  it('reads typed cells, repeated columns and padding rows, leaves comments out, and names the sheets', () => {
    const book = ods([
      { name: 'Notes', rows: [['nothing here']] },
      {
        name: 'Recipients',
        rows: [
          ['Gift list'],
          2,
          ['Name', 'Email', 'Amount', 'Date', 'Ok'],
          [{ text: 'Ann', note: 'VIP' }, 'ann@example.com', { float: '25', type: 'currency', shown: '$25.00' }, { date: '2024-05-01' }, { bool: true }],
          [{ text: 'Bob  Lee' }, 'bob@example.com', { float: '25.499999999999996' }, { date: '2024-05-01T09:30:00' }, { bool: false }],
          { repeat: 2, cells: [{ text: 'x', repeat: 2 }] },
        ],
      },
    ]);
    const workbook = openWorkbook(book);
    expect(workbook.format).toBe('ods');
    expect(workbook.sheets()).toEqual([
      { name: 'Notes', rows: 1 },
      { name: 'Recipients', rows: 6 },
    ]);
    expect(rowsOf(book, 'Recipients')).toEqual([
      [1, ['Gift list']],
      [4, ['Name', 'Email', 'Amount', 'Date', 'Ok']],
      [5, ['Ann', 'ann@example.com', '25', '2024-05-01', 'TRUE']],
      [6, ['Bob  Lee', 'bob@example.com', '25.5', '2024-05-01T09:30:00', 'FALSE']],
      [7, ['x', 'x']],
      [8, ['x', 'x']],
    ]);
  });
});

describe('files that are not workbooks Giftbatch reads', () => {
  it('refuses a legacy .xls with what to do', () => {
    expect(() => openWorkbook(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 1, 2, 3]))).toThrow(/legacy Excel workbook \(.xls\).*save it as .xlsx/);
  });

  it('refuses a part whose deflate data is damaged', () => {
    const good = one([['Name', 'Email'], ['Ann', 'a@example.com']]);
    const bad = good.slice();
    // The first part's data starts after its 30-byte header and name: scramble it.
    const nameLength = bad[26]! | (bad[27]! << 8);
    for (let i = 30 + nameLength; i < 30 + nameLength + 8; i++) bad[i] = 0xff;
    expect(() => rowsOf(bad)).toThrow(WorkbookError);
  });

  it('refuses XML that is not well-formed', () => {
    const book = xlsx([{ name: 'S', rows: [], rawXml: '<worksheet><sheetData><row><c><v>1</v></row></sheetData></worksheet>' }]);
    expect(() => rowsOf(book)).toThrow(/not well-formed XML/);
  });
});
