// Bytes → parsed CSV for tests: the decode and the parse that importCsv runs, without validation.
import { decodeCsv } from '../../shared/domain/csv/decode.ts';
import { parseCsvText, type ParsedCsv, type ParseOptions } from '../../shared/domain/csv/parse.ts';

export function parseCsv(bytes: Uint8Array, options: ParseOptions = {}): ParsedCsv {
  return parseCsvText(decodeCsv(bytes), options);
}
