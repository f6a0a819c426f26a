// The import bench's rows (csv-data.ts) as Excel writes them: texts in the shared strings, numeric
// amounts as numbers in a currency format.
import Papa from 'papaparse';
import { xlsx, type XCell } from '../support/workbook-files.ts';
import { recipientsCsv } from './csv-data.ts';

const PLAIN_NUMBER = /^\d+(\.\d+)?$/;

/** `rows` of the import bench's recipients, with the header, as one sheet named "Recipients". */
export function recipientsXlsx(rows: number, seed?: number): Uint8Array {
  const parsed = Papa.parse<string[]>(new TextDecoder().decode(recipientsCsv(rows, seed)), { skipEmptyLines: true }).data;
  const sheet: XCell[][] = parsed.map((cells, i) => cells.map((cell, c) => (i > 0 && c === 2 && PLAIN_NUMBER.test(cell) ? { n: cell, style: 1 } : cell === '' ? null : cell)));
  return xlsx([{ name: 'Recipients', rows: sheet }]);
}
