// Decoded text → records with their source line numbers. Nothing here throws on bad input: a
// record that cannot be read properly is kept with a problem and its line, so it is never dropped
// silently.
import Papa from 'papaparse';
import type { CsvEncoding, DecodedCsv } from './decode.ts';
import { detectDelimiter, DELIMITERS, trimmedWidth, type CsvDelimiter } from './delimiter.ts';
import type { MappingOverride } from './headers.ts';
import { CSV_LIMITS, rowLimitError } from './limits.ts';
import { createTableReader, isBlank, type CsvRecord, type TableLayout } from './table.ts';
import type { DecimalSeparator } from './amount.ts';

export type { CsvProblem, CsvRecord } from './table.ts';

export interface ParseOptions {
  readonly delimiter?: CsvDelimiter;
  readonly mapping?: MappingOverride;
}

export interface ParsedCsv extends TableLayout {
  readonly encoding: CsvEncoding;
  readonly delimiter: CsvDelimiter;
  /** How amounts in this file write decimals: ',' for semicolon files ("25,50"). */
  readonly decimalSeparator: DecimalSeparator;
  readonly records: readonly CsvRecord[];
}

const SEP_LINE = /^sep=(.)[ \t]*$/i;
const LINE_BREAKS = /\r\n?/g;
const DECIMAL_COMMA = /\d,\d{1,2}\D*$/;
const DECIMAL_POINT = /\d\.\d{1,2}\D*$/;

/**
 * Called once the delimiter is known; the function it returns, if any, sees each record as soon as it
 * is read, in file order, and the record is then not kept in `records`: the import validates each
 * row as it is read and keeps only the validated row, one object per row instead of two.
 */
export type RecordVisitor = (delimiter: CsvDelimiter) => ((record: CsvRecord) => void) | null;

export function parseCsvText(decoded: DecodedCsv, options: ParseOptions = {}, visitor?: RecordVisitor): ParsedCsv {
  // Every line break is one: CRLF, CR and LF alike, whether it ends a record or sits in a quoted
  // cell. Papaparse takes one record separator, so a text is read with LF after its breaks are
  // written as LF, except a text with CRLF throughout (as Excel writes it), which is read as it is
  // with CRLF: copying it costs more than the import's bench target leaves (about 25 ms on the
  // 100,000-row file, papaparse's own read being about 80), and only its cells' breaks need LF.
  const crlf = crlfThroughout(decoded.text);
  const newline = crlf ? '\r\n' : '\n';
  let text = crlf || !decoded.text.includes('\r') ? decoded.text : decoded.text.replace(LINE_BREAKS, '\n');
  let line = 1;
  let delimiter = options.delimiter;
  // Excel's "sep=;" first line names the delimiter.
  const firstBreak = text.indexOf(newline);
  const sep = SEP_LINE.exec(firstBreak < 0 ? text : text.slice(0, firstBreak));
  if (sep) {
    const named = DELIMITERS.find((d) => d === sep[1]);
    delimiter ??= named;
    text = firstBreak >= 0 ? text.slice(firstBreak + newline.length) : '';
    line = 2;
  }
  delimiter ??= detectDelimiter(text);

  const result = Papa.parse<string[]>(text, { delimiter, newline, quoteChar: '"', skipEmptyLines: false });
  const rows = result.data;
  // Every line break of the text ends a record unless some cell holds one (a quoted line break, or
  // an unclosed quote that ran on): only then are cells searched for them.
  const countInnerLines = countLf(text) !== rows.length - 1;
  if (crlf && countInnerLines) {
    for (const row of rows) for (let i = 0; i < row.length; i++) row[i] = row[i]!.replaceAll('\r\n', '\n');
  }
  const rowErrors = new Map<number, string>();
  for (const error of result.errors) {
    // An unclosed quote swallows the lines after it: that is the one to tell.
    if (error.row !== undefined && (!rowErrors.has(error.row) || error.code === 'MissingQuotes')) {
      rowErrors.set(error.row, error.code);
    }
  }
  // The rows after the first non-blank one, blank or not, against the row limit before any is read.
  let first = 0;
  while (first < rows.length && isBlank(rows[first]!)) first++;
  if (rows.length - first - 1 > CSV_LIMITS.rows) throw rowLimitError();

  const visit = visitor?.(delimiter) ?? null;
  // A row's context is its index, for its quote error and its span of lines.
  const reader = createTableReader<number>({
    mapping: options.mapping,
    onRecord: visit,
    rowProblem: (raw, width, rowLine, index) =>
      recordProblem(raw, width, delimiter, rowErrors.get(index), rowLine, countInnerLines ? innerLineBreaks(raw) : 0),
  });
  for (let index = 0; index < rows.length; index++) {
    const raw = rows[index]!;
    const rowLine = line;
    line += countInnerLines ? 1 + innerLineBreaks(raw) : 1;
    reader.row(raw, rowLine, index);
  }
  const { records, ...layout } = reader.finish();

  return {
    encoding: decoded.encoding,
    delimiter,
    decimalSeparator: guessDecimalSeparator(delimiter, records),
    ...layout,
    records,
  };
}

/** True when the text has line breaks and every one is CRLF (no CR or LF alone). */
function crlfThroughout(text: string): boolean {
  let lfs = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) {
    if (text.charCodeAt(at - 1) !== 0x0d) return false;
    lfs++;
  }
  let crs = 0;
  for (let at = text.indexOf('\r'); at >= 0 && crs <= lfs; at = text.indexOf('\r', at + 1)) crs++;
  return lfs > 0 && crs === lfs;
}

function countLf(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

function recordProblem(
  raw: readonly string[],
  width: number,
  delimiter: CsvDelimiter,
  quoteError: string | undefined,
  line: number,
  span: number,
): string | null {
  if (quoteError === 'MissingQuotes') {
    const through = span > 0 ? `, so lines ${line}–${line + span} were read as one record` : '';
    return `a quoted field is never closed${through}. Add the missing closing quote (")`;
  }
  if (quoteError !== undefined) {
    return 'a field has a stray quote ("). Inside a quoted field, write a quote as two quotes ("")';
  }
  if (raw.length === width) return null;
  const named = delimiter === '\t' ? 'tab' : `"${delimiter}"`;
  const filled = trimmedWidth(raw);
  if (filled > width) {
    return `the record has ${filled} fields but the header has ${width}. A value probably contains a ${named} without quotes around it`;
  }
  if (raw.length < width) {
    return `the record has ${raw.length} field${raw.length === 1 ? '' : 's'} but the header has ${width}. A ${named} is probably missing`;
  }
  return null;
}

function innerLineBreaks(row: readonly string[]): number {
  let count = 0;
  for (const field of row) {
    let at = field.indexOf('\n');
    while (at >= 0) {
      count++;
      at = field.indexOf('\n', at + 1);
    }
  }
  return count;
}

/** How amounts write decimals in a file with this delimiter, or null when only the amounts can tell (tab). */
export function decimalSeparatorOf(delimiter: CsvDelimiter): DecimalSeparator | null {
  return delimiter === ';' ? ',' : delimiter === ',' ? '.' : null;
}

function guessDecimalSeparator(delimiter: CsvDelimiter, records: readonly CsvRecord[]): DecimalSeparator {
  const known = decimalSeparatorOf(delimiter);
  if (known !== null) return known;
  // Tab-separated exports come from both kinds of locale: let the amounts tell.
  let commas = 0;
  let points = 0;
  for (const { amount } of records) {
    if (amount === '') continue;
    if (DECIMAL_COMMA.test(amount)) commas++;
    else if (DECIMAL_POINT.test(amount)) points++;
  }
  return commas > points ? ',' : '.';
}
