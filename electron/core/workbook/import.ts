// A recipient list's bytes, whatever the file is, through the one import: CSV text by importCsv; a
// workbook's chosen sheet through the same header search, mapping and validation (importRows). A
// workbook is never read as CSV text.
import { importCsv, importRows, type CsvImport, type ImportOptions } from '../../../shared/domain/csv/index.ts';
import type { ProductForValidation } from '../../../shared/domain/validation.ts';
import { chooseSheet, LEGACY_XLS_MESSAGE, openWorkbook, sniffFormat, WorkbookError } from './index.ts';

export interface FileImportOptions extends ImportOptions {
  /** The workbook's sheet to read; needed when several sheets hold rows. Ignored for a CSV. */
  readonly sheet?: string | undefined;
}

export function importFile(bytes: Uint8Array, product: ProductForValidation, options: FileImportOptions = {}): CsvImport {
  const format = sniffFormat(bytes);
  if (format === 'csv') return importCsv(bytes, product, options);
  if (format === 'xls') throw new WorkbookError(LEGACY_XLS_MESSAGE);
  return importWorkbook(bytes, product, options);
}

export function importWorkbook(bytes: Uint8Array, product: ProductForValidation, options: FileImportOptions = {}): CsvImport {
  const workbook = openWorkbook(bytes);
  const sheet = chooseSheet(workbook, options.sheet);
  const { layout, validation } = importRows((row) => workbook.read(sheet, row), product, options);
  return {
    parsed: {
      ...layout,
      format: workbook.format,
      encoding: workbook.format,
      delimiter: '',
      decimalSeparator: '.',
      workbook: { sheets: workbook.sheets(), sheet },
    },
    validation,
  };
}
