// CSV import for recipient lists: decode → parse and map → validate against the product.
import { validateRows, type ProductForValidation, type ValidateOptions, type ValidationResult } from '../validation.ts';
import { parseCsv, type ParsedCsv, type ParseOptions } from './parse.ts';

export { decodeCsv, guessLegacyEncoding, type CsvEncoding, type DecodedCsv } from './decode.ts';
export { detectDelimiter, DELIMITERS, type CsvDelimiter } from './delimiter.ts';
export {
  applyMappingOverride,
  detectMapping,
  MAPPED_FIELDS,
  normalizeHeader,
  type ColumnMapping,
  type MappedField,
  type MappingOverride,
} from './headers.ts';
export { parseAmount, type AmountResult, type DecimalSeparator } from './amount.ts';
export {
  parseCsv,
  parseCsvText,
  type CsvProblem,
  type CsvRecord,
  type ParsedCsv,
  type ParseOptions,
  type RecordFields,
} from './parse.ts';
export {
  validateRows,
  type ProductForValidation,
  type ProductPrice,
  type RowInput,
  type RowIssue,
  type ValidatedRow,
  type ValidateOptions,
  type ValidationResult,
  type ValidationTotals,
} from '../validation.ts';

export interface ImportOptions extends ParseOptions, Omit<ValidateOptions, 'decimalSeparator'> {}

export interface CsvImport {
  readonly parsed: ParsedCsv;
  readonly validation: ValidationResult;
}

/** Decodes, parses, maps and validates in one go, reading amounts with the file's own decimal convention. */
export function importCsv(bytes: Uint8Array, product: ProductForValidation, options: ImportOptions = {}): CsvImport {
  const parsed = parseCsv(bytes, options);
  const validation = validateRows(parsed.records, product, {
    decimalSeparator: parsed.decimalSeparator,
    ...(options.defaultAmount ? { defaultAmount: options.defaultAmount } : {}),
    ...(options.knownEmails ? { knownEmails: options.knownEmails } : {}),
  });
  return { parsed, validation };
}
