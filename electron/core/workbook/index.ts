// Workbooks in: which kind of file a recipient list is, from its bytes, and a workbook's sheets read
// as rows of text cells with the sheet's own row numbers. Runs in the engine (the app's import
// worker, the CLI): Node only. Bounded like the CSV import (limits.ts).
import type { SheetInfo } from '../../../shared/domain/csv/index.ts';
import { checkFileSize, CsvLimitError } from '../../../shared/domain/csv/limits.ts';
import { damaged, SheetChoiceNeeded, sheetList, WorkbookError } from './limits.ts';
import { ODS_MIMETYPE, openOds } from './ods.ts';
import type { RowSink, SheetReader } from './types.ts';
import { openXlsx } from './xlsx.ts';
import { isZip, openZip, partText, type Zip } from './zip.ts';

export { SheetChoiceNeeded, WorkbookError, WORKBOOK_LIMITS } from './limits.ts';
export type { RowSink } from './types.ts';

/** 'xls' is the legacy binary format, refused with what to do; anything not a workbook is CSV text. */
export type SniffedFormat = 'csv' | 'xlsx' | 'ods' | 'xls';

const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** Files picked by mistake, told by their first bytes: refused saying what they are, never read as CSV text (a PDF read as windows-1252 is hundreds of rows of errors). */
const NOT_A_LIST: ReadonlyArray<{ magic: readonly number[]; what: string }> = [
  { magic: [0x25, 0x50, 0x44, 0x46, 0x2d], what: 'a PDF document' }, // %PDF-
  { magic: [0x7b, 0x5c, 0x72, 0x74, 0x66], what: 'an RTF document' }, // {\rtf
  { magic: [0x89, 0x50, 0x4e, 0x47], what: 'a PNG image' },
  { magic: [0xff, 0xd8, 0xff], what: 'a JPEG image' },
  { magic: [0x47, 0x49, 0x46, 0x38], what: 'a GIF image' }, // GIF8
  { magic: [0x7f, 0x45, 0x4c, 0x46], what: 'a program' }, // ELF
];

function notAList(what: string): WorkbookError {
  return new WorkbookError(`The file is ${what}, not a list of recipients. Choose the spreadsheet itself: a CSV file or an .xlsx or .ods workbook (in Excel or Google Sheets, save or download the list as one).`);
}

/** The format from the bytes, never from the file's name: a zip with xl/workbook.xml is xlsx, one whose mimetype is OpenDocument's spreadsheet is ods. */
export function sniffFormat(bytes: Uint8Array): SniffedFormat {
  if (OLE2.every((b, i) => bytes[i] === b)) return 'xls';
  const other = NOT_A_LIST.find(({ magic }) => magic.every((b, i) => bytes[i] === b));
  if (other) throw notAList(other.what);
  if (!isZip(bytes)) return 'csv';
  let zip: Zip;
  try {
    zip = openZip(bytes);
  } catch (error) {
    // A damaged zip is still not text: say so instead of reading its bytes as CSV.
    if (error instanceof WorkbookError || error instanceof CsvLimitError) throw error;
    throw damaged('it is not a readable zip archive');
  }
  if (zip.entries.has('xl/workbook.xml')) return 'xlsx';
  if (zip.entries.has('mimetype') && partText(zip, 'mimetype', 1024).trim() === ODS_MIMETYPE) return 'ods';
  if (zip.entries.has('word/document.xml')) throw notAList('a Word document');
  throw new WorkbookError('The file is a zip archive but not a spreadsheet Giftbatch reads: give an .xlsx or .ods workbook, or a CSV file.');
}

export const LEGACY_XLS_MESSAGE =
  'The file is a legacy Excel workbook (.xls), which Giftbatch does not read. Open it in Excel or LibreOffice and save it as .xlsx (Excel Workbook), then import that file.';

export interface OpenedWorkbook {
  readonly format: 'xlsx' | 'ods';
  readonly sheetNames: readonly string[];
  /** Every sheet with its number of non-blank rows (.xlsx: reads each sheet not read yet; .ods: counted as it opened). */
  sheets(): SheetInfo[];
  /** Reads one sheet's non-blank rows to `onRow`; returns how many. */
  read(sheet: string, onRow: RowSink): number;
}

export function openWorkbook(bytes: Uint8Array): OpenedWorkbook {
  checkFileSize(bytes);
  const format = sniffFormat(bytes);
  if (format === 'xls') throw new WorkbookError(LEGACY_XLS_MESSAGE);
  if (format === 'csv') throw new WorkbookError('The file is not a workbook (.xlsx or .ods).');
  const zip = openZip(bytes);
  const reader: SheetReader = format === 'xlsx' ? openXlsx(zip) : openOds(zip);
  const counted = new Map<string, number>();
  const count = (name: string): number => {
    let rows = counted.get(name);
    if (rows === undefined) {
      rows = reader.count !== undefined ? reader.count(name) : reader.read(name, null);
      counted.set(name, rows);
    }
    return rows;
  };
  return {
    format: reader.format,
    sheetNames: reader.sheetNames,
    sheets: () => reader.sheetNames.map((name) => ({ name, rows: count(name) })),
    read(sheet, onRow) {
      const rows = reader.read(sheet, onRow);
      counted.set(sheet, rows);
      return rows;
    },
  };
}

/**
 * The sheet to read: the named one (a clear error listing the names when there is none by that
 * name), else the only sheet, else the only one with rows. Several with rows and none named:
 * SheetChoiceNeeded, with every sheet and its row count.
 */
export function chooseSheet(workbook: OpenedWorkbook, named: string | undefined): string {
  const names = workbook.sheetNames;
  if (named !== undefined) {
    if (names.includes(named)) return named;
    // "--sheet speakers" for a sheet "Speakers": typed names rarely keep the case (or the spaces
    // around it); the one sheet that matches so is meant. Two that do would be a guess: refused.
    const loose = (name: string) => name.trim().toLowerCase();
    const matches = names.filter((name) => loose(name) === loose(named));
    if (matches.length === 1) return matches[0]!;
    if (matches.length > 1) {
      throw new WorkbookError(`The workbook has no sheet named exactly "${named}", and several differ from it only in case: ${matches.map((m) => `"${m}"`).join(', ')}. Give the name exactly as the workbook writes it.`);
    }
    throw new WorkbookError(`The workbook has no sheet named "${named}". Its sheets: ${sheetList(workbook.sheets())}.`);
  }
  if (names.length === 1) return names[0]!;
  const sheets = workbook.sheets();
  const withRows = sheets.filter((s) => s.rows > 0);
  if (withRows.length === 0) return names[0]!;
  if (withRows.length === 1) return withRows[0]!.name;
  throw new SheetChoiceNeeded(sheets, workbook.format);
}
