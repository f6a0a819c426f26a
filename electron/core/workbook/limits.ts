// How much of a workbook the import reads, and what a workbook that cannot be read throws. Every
// limit is checked as the bytes inflate and the XML streams, so a crafted file (a zip bomb, a
// billion empty rows, a nest of elements) stops in bounded time and memory; each names itself in
// the CSV path's error (CsvLimitError: the file refused whole, 'invalid-input' in the app, exit 2
// in the CLI). The file, row and cell limits are the CSV import's own.
import { CSV_LIMITS, CsvLimitError } from '../../../shared/domain/csv/limits.ts';
import type { SheetInfo } from '../../../shared/domain/csv/index.ts';

export const WORKBOOK_LIMITS = {
  fileBytes: CSV_LIMITS.fileBytes,
  /** Non-blank rows in the sheet read. */
  rows: CSV_LIMITS.rows,
  /** Row elements in any sheet, blank or not: Excel's own maximum. */
  rowElements: 1_048_576,
  cellChars: CSV_LIMITS.cellChars,
  /** One part (a sheet, the shared strings) once inflated. */
  partBytes: 256 * 1024 * 1024,
  /** Every part read, once inflated. */
  inflatedBytes: 512 * 1024 * 1024,
  /** Excel's own maximum (XFD). */
  columns: 16_384,
  /** Cell elements in one sheet, empty or not. */
  cells: 5_000_000,
  sharedStrings: 2_000_000,
  xmlDepth: 32,
  /** Elements in one part: a sheet at the cell limit has about 3 per cell; bounds the parse of tiny tags (<x/> at ~47 MB/s). */
  xmlElements: 16_000_000,
  /** Characters between two tags: far more than a cell's (an attribute, escaped text), far less than a bomb. */
  textRun: 1_000_000,
  zipEntries: 10_000,
} as const;

export { CsvLimitError };

const MB = 1024 * 1024;
const count = (n: number): string => n.toLocaleString('en-US');

export const limitMessages = {
  part: (part: string, limit: number) =>
    `The workbook's part ${part} inflates to more than ${limit >= MB ? `${limit / MB} MB` : `${limit} bytes`}, the most that part may hold (a spreadsheet of recipients is a few MB): refused as a possible zip bomb.`,
  inflated: () =>
    `The workbook inflates to more than ${WORKBOOK_LIMITS.inflatedBytes / MB} MB in all, the most Giftbatch reads: refused as a possible zip bomb.`,
  entries: () => `The workbook holds more than ${count(WORKBOOK_LIMITS.zipEntries)} parts, the most Giftbatch reads.`,
  elements: (part: string) => `The workbook's part ${part} has more than ${count(WORKBOOK_LIMITS.xmlElements)} XML elements, the most Giftbatch reads in one part.`,
  depth: (part: string) => `The workbook's part ${part} nests its XML deeper than ${WORKBOOK_LIMITS.xmlDepth} levels, which no spreadsheet does: refused.`,
  doctype: (part: string) =>
    `The workbook's part ${part} declares a DOCTYPE, which no spreadsheet needs (it can define entities that expand without bound): refused.`,
  run: (part: string) =>
    `The workbook's part ${part} has a text of more than ${count(WORKBOOK_LIMITS.textRun)} characters without a break, which no cell holds (a cell may hold at most ${count(WORKBOOK_LIMITS.cellChars)}): refused.`,
  rowElements: (sheet: string) => `Sheet "${sheet}" has more than ${count(WORKBOOK_LIMITS.rowElements)} rows, the most a sheet can have.`,
  columns: (sheet: string, row: number) =>
    `Row ${row} of sheet "${sheet}" has a cell beyond column ${count(WORKBOOK_LIMITS.columns)} (XFD), the last column a sheet can have.`,
  cells: (sheet: string) => `Sheet "${sheet}" has more than ${count(WORKBOOK_LIMITS.cells)} cells, the most Giftbatch reads in one sheet. Split it into several campaigns.`,
  sharedStrings: () => `The workbook has more than ${count(WORKBOOK_LIMITS.sharedStrings)} distinct texts, the most Giftbatch reads.`,
  cellChars: (sheet: string, row: number, column: number) =>
    `The cell ${columnName(column)}${row} of sheet "${sheet}" holds more than ${count(WORKBOOK_LIMITS.cellChars)} characters; a cell may hold at most ${count(WORKBOOK_LIMITS.cellChars)}. Shorten it, or delete it if it is not part of the list.`,
};

/** 1 → A, 27 → AA. */
export function columnName(column: number): string {
  let name = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** The file is a workbook Giftbatch cannot read (damaged, encrypted, legacy .xls), or names a sheet it does not have. */
export class WorkbookError extends Error {
  override readonly name: string = 'WorkbookError';
}

/**
 * A workbook with several sheets that hold rows, and no sheet named: the caller asks which one
 * (the app shows `sheets` with their row counts; the CLI lists them for --sheet).
 */
export class SheetChoiceNeeded extends WorkbookError {
  override readonly name = 'SheetChoiceNeeded';
  constructor(
    readonly sheets: readonly SheetInfo[],
    readonly format: 'xlsx' | 'ods',
  ) {
    super(`The workbook has ${sheets.length} sheets with rows: ${sheetList(sheets)}. Choose the one that holds the recipients.`);
  }
}

/** `"Speakers" (48 rows), "Budget" (12 rows)`. */
export function sheetList(sheets: readonly SheetInfo[]): string {
  return sheets.map((s) => `"${s.name}" (${count(s.rows)} row${s.rows === 1 ? '' : 's'})`).join(', ');
}

export function damaged(what: string): WorkbookError {
  return new WorkbookError(`The workbook cannot be read: ${what}. Open it in Excel or LibreOffice and save it again as .xlsx, or save it as CSV.`);
}
