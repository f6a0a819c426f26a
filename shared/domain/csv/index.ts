// CSV import for recipient lists: decode → parse and map → validate against the product.
import {
  createRowValidator,
  validateRows,
  type ProductForValidation,
  type RowValidator,
  type ValidateOptions,
  type ValidationResult,
} from '../validation.ts';
import { decodeCsv } from './decode.ts';
import { decimalSeparatorOf, parseCsvText, type ParsedCsv, type ParseOptions } from './parse.ts';

// The limits importCsv enforces, and what it throws past one.
export { CSV_LIMITS, CsvLimitError } from './limits.ts';

export interface ImportOptions extends ParseOptions, Omit<ValidateOptions, 'decimalSeparator'> {}

export interface CsvImport {
  /** How the file was read; its records are the validated rows, each with the cells it came from. */
  readonly parsed: Omit<ParsedCsv, 'records'>;
  readonly validation: ValidationResult;
}

/** Decodes, parses, maps and validates in one go, reading amounts with the file's own decimal convention. */
export function importCsv(bytes: Uint8Array, product: ProductForValidation, options: ImportOptions = {}): CsvImport {
  const validateOptions = (decimalSeparator: ValidateOptions['decimalSeparator']): ValidateOptions => ({
    decimalSeparator,
    ...(options.defaultAmount ? { defaultAmount: options.defaultAmount } : {}),
    ...(options.knownEmails ? { knownEmails: options.knownEmails } : {}),
  });
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
  return { parsed: layout, validation };
}
