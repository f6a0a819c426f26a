// Rows of cells → the header, the mapping and the records, for every kind of file the import reads:
// CSV text (parse.ts) and workbook sheets (electron/core/workbook). Rows are pushed in file order,
// each with its line (a CSV's physical line, a sheet's own row number), so a sheet is never held
// whole. Nothing here throws on bad input except the row limit: a record that cannot be read as it
// stands is kept with its problem and its line.
import { trimmedWidth } from './delimiter.ts';
import { applyMappingOverride, detectMapping, missingColumns, type ColumnMapping, type MappingOverride } from './headers.ts';
import { cellTooLong, CSV_LIMITS, rowLimitError } from './limits.ts';

const MAX_ROWS = CSV_LIMITS.rows;
const MAX_CELL = CSV_LIMITS.cellChars;
import type { RowInput } from '../validation.ts';

/**
 * One record as read: its mapped cells (trimmed; name joined from first and last name columns when
 * the file has those), which is what validation takes, with the cells it was read from.
 */
export interface CsvRecord extends RowInput {
  /** 1-based line where the record starts: a CSV's physical line, a sheet's row number. */
  readonly line: number;
  readonly raw: readonly string[];
  /** Why the record could not be read as it stands (bad quoting, wrong field count), else null. */
  readonly problem: string | null;
}

export interface CsvProblem {
  readonly line: number;
  readonly message: string;
}

/** Where the header is, what its columns are, and every problem found while mapping the rows. */
export interface TableLayout {
  readonly headerLine: number;
  readonly headers: readonly string[];
  /** The mapping guessed from the headers, before the caller's corrections. */
  readonly detectedMapping: ColumnMapping;
  /** The mapping the records were read with. */
  readonly mapping: ColumnMapping;
  /** Every record problem, plus problems with the file as a whole (no header, no e-mail column). */
  readonly problems: readonly CsvProblem[];
}

/**
 * The header is the first non-blank row, among the first HEADER_SEARCH_ROWS of them, whose names map
 * an e-mail column (a cell holding '@' is an address, not a name): a title row and blank rows above
 * it are passed over. When no row qualifies, the first non-blank row is the header, as in a plain
 * CSV, and the person is asked to choose the e-mail column. Rows above the header are not records.
 */
export const HEADER_SEARCH_ROWS = 10;

/**
 * The end of a missing column's problem: the window's advice, where the import step lists the
 * problems under its Columns choices (the window has no separate mapping step; the CLI, which has no
 * column choices, words its own).
 */
export const CHOOSE_UNDER_COLUMNS = 'choose it under Columns above.';

/**
 * The problem of a file (or sheet) with no filled row at all: no header, and so no recipient row
 * either. Said with the file's name by `blankFile`, never as "no recipient rows below its header".
 */
export const NO_HEADER_ROW = 'The file has no header row: the first line should name the columns (Name, Email, …).';

/** Whether a file's problems say it has no filled row at all (see NO_HEADER_ROW). */
export function isBlankFile(problems: readonly { readonly message: string }[]): boolean {
  return problems.some((p) => p.message === NO_HEADER_ROW);
}

/** What a blank file is, after its quoted name: no header row, no recipient row. */
export const BLANK_FILE = 'has nothing in it: no header row naming the columns (Name, Email, …) and no recipient rows';

export interface TableReaderOptions<C> {
  readonly mapping?: MappingOverride | undefined;
  /** What is wrong with a record's shape (a CSV's field count, its quotes), else null. `context` is the row's, as pushed. */
  readonly rowProblem?: (raw: readonly string[], width: number, line: number, context: C) => string | null;
  /** Sees each record as it is read, in file order; the record is then not kept in `records`. */
  readonly onRecord?: ((record: CsvRecord) => void) | null;
}

export interface TableReader<C> {
  /** The next row of the file, with its line; blank rows may be pushed (they are skipped) or left out. */
  row(raw: readonly string[], line: number, context: C): void;
  /** The layout, and the records not given to `onRecord`. */
  finish(): TableLayout & { readonly records: readonly CsvRecord[] };
}

interface Pending<C> {
  readonly raw: readonly string[];
  readonly line: number;
  readonly context: C;
}

export function createTableReader<C>(options: TableReaderOptions<C> = {}): TableReader<C> {
  const problems: CsvProblem[] = [];
  const records: CsvRecord[] = [];
  const visit = options.onRecord ?? null;
  const rowProblem = options.rowProblem ?? null;
  // Non-blank rows seen before the header is known (at most HEADER_SEARCH_ROWS).
  let pending: Pending<C>[] | null = [];
  let headerLine = 1;
  let headers: string[] = [];
  let width = 0;
  let detectedMapping: ColumnMapping = {};
  let mapping: ColumnMapping = {};
  let count = 0;
  let nameAt: number | undefined;
  let firstAt: number | undefined;
  let lastAt: number | undefined;
  let emailAt: number | undefined;
  let amountAt: number | undefined;
  let messageAt: number | undefined;
  let productAt: number | undefined;

  const useHeader = (header: Pending<C>): void => {
    width = trimmedWidth(header.raw);
    headers = header.raw.slice(0, width).map((h) => h.trim());
    headerLine = header.line;
    detectedMapping = detectMapping(headers);
    const applied = applyMappingOverride(detectedMapping, options.mapping, width);
    mapping = applied.mapping;
    for (const { field, index: column } of applied.invalid) {
      problems.push({ line: headerLine, message: `Column ${column + 1}, chosen for ${field}, does not exist: the header (line ${headerLine}) has ${width} columns.` });
    }
    for (const column of missingColumns(mapping)) {
      const what = column === 'email' ? 'the e-mail address' : 'the recipient name';
      problems.push({ line: headerLine, message: `The header (line ${headerLine}) has no column recognised as ${what}: ${CHOOSE_UNDER_COLUMNS}` });
    }
    ({ name: nameAt, firstName: firstAt, lastName: lastAt, email: emailAt, amount: amountAt, message: messageAt, product: productAt } = mapping);
  };

  const record = (raw: readonly string[], line: number, context: C): void => {
    if (++count > MAX_ROWS) throw rowLimitError();
    let problem = rowProblem === null ? null : rowProblem(raw, width, line, context);
    let name = nameAt !== undefined ? cellAt(raw, nameAt) : joinName(cellAt(raw, firstAt), cellAt(raw, lastAt));
    let email = cellAt(raw, emailAt);
    let amount = cellAt(raw, amountAt);
    let message = cellAt(raw, messageAt);
    let product = cellAt(raw, productAt);
    // Past the cell limit, before any cleaning: the row is refused and the cell not looked into.
    // One comparison for the common row whose cells all fit; which one does not, only when one does not.
    const tooLong =
      Math.max(name.length, email.length, amount.length, message.length, product.length) <= MAX_CELL
        ? null
        : (cellTooLong('name', name) ?? cellTooLong('e-mail', email) ?? cellTooLong('amount', amount) ?? cellTooLong('message', message) ?? cellTooLong('product', product));
    if (tooLong !== null) {
      problem = problem ?? tooLong;
      name = name.length > MAX_CELL ? '' : name;
      email = email.length > MAX_CELL ? '' : email;
      amount = amount.length > MAX_CELL ? '' : amount;
      message = message.length > MAX_CELL ? '' : message;
      product = product.length > MAX_CELL ? '' : product;
    }
    if (problem !== null) problems.push({ line, message: `Line ${line}: ${problem}` });
    const read: CsvRecord = { line, name, email, amount, message, raw, problem, headers, product };
    if (visit !== null) visit(read);
    else records.push(read);
  };

  // No row among the first ones named an e-mail column: the first is the header, the rest records.
  const settle = (rows: Pending<C>[]): void => {
    pending = null;
    useHeader(rows[0]!);
    for (let i = 1; i < rows.length; i++) record(rows[i]!.raw, rows[i]!.line, rows[i]!.context);
  };

  return {
    row(raw, line, context) {
      if (isBlank(raw)) return;
      if (pending === null) {
        record(raw, line, context);
        return;
      }
      if (namesEmailColumn(raw)) {
        pending = null;
        useHeader({ raw, line, context });
        return;
      }
      pending.push({ raw, line, context });
      if (pending.length === HEADER_SEARCH_ROWS) settle(pending);
    },
    finish() {
      if (pending !== null) {
        if (pending.length > 0) settle(pending);
        else {
          pending = null;
          problems.push({ line: headerLine, message: NO_HEADER_ROW });
        }
      }
      return { headerLine, headers, detectedMapping, mapping, problems, records };
    },
  };
}

/** True when the row, read as a header, maps an e-mail column whose name is not itself an address. */
function namesEmailColumn(raw: readonly string[]): boolean {
  const width = trimmedWidth(raw);
  const email = detectMapping(raw.slice(0, width).map((h) => h.trim())).email;
  return email !== undefined && !raw[email]!.includes('@');
}

/** The mapped cell, trimmed; empty when the column is not mapped or the record is short of it. */
function cellAt(raw: readonly string[], at: number | undefined): string {
  return at === undefined ? '' : (raw[at] ?? '').trim();
}

// The recipient's name from first-name and last-name columns.
function joinName(first: string, last: string): string {
  return first && last ? `${first} ${last}` : first || last;
}

export function isBlank(row: readonly string[]): boolean {
  // Nearly every record starts with a printable ASCII character, which trim() would keep.
  const c = row.length > 0 ? (row[0]?.charCodeAt(0) ?? 0) : 0;
  if (c > 0x20 && c < 0x7f) return false;
  for (const field of row) if (field !== undefined && field.trim() !== '') return false;
  return true;
}
