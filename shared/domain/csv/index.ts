// CSV import for recipient lists: decode → parse and map → validate against the product.
import {
  createRowValidator,
  validateRows,
  type ProductForValidation,
  type RowValidator,
  type ValidateOptions,
  type ValidationResult,
} from '../validation.ts';
import { decodeCsv, type CsvEncoding } from './decode.ts';
import type { CsvDelimiter } from './delimiter.ts';
import { decimalSeparatorOf, parseCsvText, type ParsedCsv, type ParseOptions } from './parse.ts';
import { createTableReader, type TableLayout } from './table.ts';
import type { FileFormat } from '../file-formats.ts';

// The limits importCsv enforces, and what it throws past one.
export { CSV_LIMITS, CsvLimitError } from './limits.ts';

export interface ImportOptions extends ParseOptions, Omit<ValidateOptions, 'decimalSeparator'> {}

export type { FileFormat } from '../file-formats.ts';

/** A workbook's sheet: its name and how many non-blank rows it has (the header included). */
export interface SheetInfo {
  readonly name: string;
  readonly rows: number;
}

/** How a file was read: its layout, and for a workbook its sheets and the one read. */
export interface ImportLayout extends Omit<ParsedCsv, 'records' | 'encoding' | 'delimiter'> {
  readonly format: FileFormat;
  /** A CSV's text encoding; for a workbook, its format ('xlsx', 'ods'). */
  readonly encoding: CsvEncoding | 'xlsx' | 'ods';
  /** A CSV's delimiter; '' for a workbook. */
  readonly delimiter: CsvDelimiter | '';
  /** Null for a CSV. */
  readonly workbook: { readonly sheets: readonly SheetInfo[]; readonly sheet: string } | null;
}

export interface CsvImport {
  /** How the file was read; its records are the validated rows, each with the cells it came from. */
  readonly parsed: ImportLayout;
  readonly validation: ValidationResult;
}

/**
 * The rows of a workbook's sheet, which `feed` pushes in order with their row numbers, through the
 * same header search, mapping and validation as a CSV's records. A workbook's numbers are already
 * canonical text, so amounts are read with '.' as the decimal separator.
 */
export function importRows(
  feed: (row: (cells: readonly string[], line: number) => void) => void,
  product: ProductForValidation,
  options: ImportOptions = {},
): { layout: TableLayout; validation: ValidationResult } {
  const validator = createRowValidator(product, validateOptionsOf(options, '.'));
  const reader = createTableReader<null>({
    mapping: options.mapping,
    onRecord: (record) => {
      validator.add(record);
    },
  });
  feed((cells, line) => reader.row(cells, line, null));
  const { records: _kept, ...layout } = reader.finish();
  return { layout, validation: validator.finish() };
}

function validateOptionsOf(options: ImportOptions, decimalSeparator: ValidateOptions['decimalSeparator']): ValidateOptions {
  return {
    decimalSeparator,
    ...(options.defaultAmount ? { defaultAmount: options.defaultAmount } : {}),
    ...(options.knownEmails ? { knownEmails: options.knownEmails } : {}),
    ...(options.defaultMessage ? { defaultMessage: options.defaultMessage } : {}),
    ...(options.chooseProduct ? { chooseProduct: options.chooseProduct } : {}),
    ...(options.checkpoint ? { checkpoint: options.checkpoint } : {}),
  };
}

/** Decodes, parses, maps and validates in one go, reading amounts with the file's own decimal convention. */
export function importCsv(bytes: Uint8Array, product: ProductForValidation, options: ImportOptions = {}): CsvImport {
  const validateOptions = (decimalSeparator: ValidateOptions['decimalSeparator']): ValidateOptions => validateOptionsOf(options, decimalSeparator);
  // Each record is validated as soon as it is read when the delimiter fixes the decimal separator;
  // a tab-separated file's amounts are read only once all of them have said which one it uses.
  let validator: RowValidator | null = null;
  const parsed = parseCsvText(decodeCsv(bytes), options, (delimiter) => {
    const decimalSeparator = decimalSeparatorOf(delimiter);
    if (decimalSeparator === null) return null;
    const fused = createRowValidator(product, validateOptions(decimalSeparator));
    validator = fused;
    return (record) => {
      fused.add(record);
    };
  });
  const { records, ...layout } = parsed;
  const validation = validator !== null
    ? (validator as RowValidator).finish()
    : validateRows(records, product, validateOptions(parsed.decimalSeparator));
  return { parsed: { ...layout, format: 'csv', workbook: null }, validation };
}
