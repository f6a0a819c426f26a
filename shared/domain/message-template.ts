// Personal messages: a message (the campaign's default, or a row's own) may name fields of its row in
// braces, filled in per row before the order is built.
//
// How a field is written:
// - {first_name}: the row's first-name column (one the import recognises by its header: "First
//   name", "Given name", "Vorname"…) when the file has one and the cell is not empty, else the first
//   word of the recipient's name.
// - {name}: the recipient's name as it will be sent; {amount}: the gift's amount as the recipient
//   reads it ("USD 25.00", formatMoney).
// - {Any column}: that column's cell (trimmed), named by its header. A field matches a header as the
//   column matcher compares headers (normalizeHeader): letters and digits only, case ignored, so
//   {Department}, {department} and {DEPARTMENT} are the same, and {first_name}, {First Name} and
//   {firstname} too. The three fields above win over a column of the same name.
// - A literal brace is doubled: {{ writes "{", }} writes "}". A lone "{" or "}" is refused, so a
//   mistyped field is never sent as it was typed.
//
// One pure function fills a template in (fillMessage); validation.ts (rowMessage) adds the length
// and character checks. The import, a row's edit, the review and the order body all go through it,
// so what the review shows is what the order carries.
import { detectMapping, normalizeHeader } from './csv/headers.ts';
import { formatMoney, type Money } from './money.ts';

/** What a row offers a message. */
export interface MessageFields {
  /** The recipient's name, as validated (trimmed). */
  readonly name: string;
  /** The row's amount (its own or the campaign's default); null when it has none. */
  readonly amount: Money | null;
  /** The cells the row was read from, by their column's header (the row's `source`). */
  readonly columns: Readonly<Record<string, string>>;
}

/** `empty`: the column fields (as written, in braces) whose cell was empty on this row, each once. */
export type FilledMessage =
  | { readonly ok: true; readonly text: string; readonly empty: readonly string[] }
  | { readonly ok: false; readonly problem: string };

/** The fields every row has, as a message writes them. */
export const BUILT_IN_FIELDS = ['first_name', 'name', 'amount'] as const;

const BRACE = /[{}]/;
// How many columns an unknown-field message lists before "…".
const LISTED_COLUMNS = 8;

/** True when the template has a brace: a field, or a brace to write. */
export function usesFields(template: string): boolean {
  return BRACE.test(template);
}

/**
 * The template with its fields filled in from the row, or what is wrong with it (an unknown field, a
 * lone brace). A template without braces is returned as it is.
 */
export function fillMessage(template: string, fields: MessageFields): FilledMessage {
  if (!BRACE.test(template)) return { ok: true, text: template, empty: NONE };
  let text = '';
  const unknown: string[] = [];
  // Each empty column once, by its normalised name, as first written.
  let empty: Map<string, string> | null = null;
  let i = 0;
  while (i < template.length) {
    const next = template.slice(i).search(BRACE);
    if (next === -1) {
      text += template.slice(i);
      break;
    }
    const at = i + next;
    text += template.slice(i, at);
    const brace = template[at];
    if (template[at + 1] === brace) {
      text += brace;
      i = at + 2;
      continue;
    }
    if (brace === '}') return { ok: false, problem: 'the message has a "}" that closes no field; write }} for a brace' };
    const end = template.indexOf('}', at + 1);
    const open = template.indexOf('{', at + 1);
    if (end === -1 || (open !== -1 && open < end)) {
      return { ok: false, problem: 'the message has a "{" that starts a field with no "}" after it; write {{ for a brace' };
    }
    const field = template.slice(at + 1, end);
    const value = fieldValue(field, fields);
    const shown = `{${field.trim().slice(0, 40)}}`;
    if (value === undefined) {
      if (!unknown.includes(shown)) unknown.push(shown);
    } else {
      text += value;
      const key = value === '' ? normalizeHeader(field) : '';
      if (key !== '' && !BUILT_IN_KEYS.has(key)) {
        empty ??= new Map();
        if (!empty.has(key)) empty.set(key, shown);
      }
    }
    i = end + 1;
  }
  if (unknown.length > 0) return { ok: false, problem: unknownFieldsProblem(unknown, fields.columns) };
  return { ok: true, text, empty: empty === null ? NONE : [...empty.values()] };
}

const FIRST_NAME = normalizeHeader('first_name');
const NAME = normalizeHeader('name');
const AMOUNT = normalizeHeader('amount');
// Empty only when the row has no name or amount, which validation already calls an error.
const BUILT_IN_KEYS: ReadonlySet<string> = new Set([FIRST_NAME, NAME, AMOUNT]);
const NONE: readonly string[] = Object.freeze([]);

function fieldValue(field: string, fields: MessageFields): string | undefined {
  const key = normalizeHeader(field);
  if (key === '') return undefined;
  if (key === FIRST_NAME) return firstNameOf(fields);
  if (key === NAME) return fields.name;
  if (key === AMOUNT) return fields.amount ? formatMoney(fields.amount) : '';
  const header = headerIndex(fields.columns).byKey.get(key);
  return header === undefined ? undefined : (fields.columns[header] ?? '').trim();
}

/** The first-name column's cell when the file has one and it is not empty, else the name's first word. */
export function firstNameOf(fields: Pick<MessageFields, 'name' | 'columns'>): string {
  const header = headerIndex(fields.columns).firstName;
  const cell = header === undefined ? '' : (fields.columns[header] ?? '').trim();
  if (cell !== '') return cell;
  return fields.name.trim().split(/\s+/u)[0] ?? '';
}

interface HeaderIndex {
  /** Each header by its normalised form; the first of two that normalise alike. */
  readonly byKey: ReadonlyMap<string, string>;
  /** The header of the column the import recognises as the first name. */
  readonly firstName: string | undefined;
}

// Every row of a campaign has the same headers: their index is made once, not once per row.
const indexes = new Map<string, HeaderIndex>();
const INDEXES_KEPT = 32;

function headerIndex(columns: Readonly<Record<string, string>>): HeaderIndex {
  const headers = Object.keys(columns);
  const id = headers.join('\u0000');
  let index = indexes.get(id);
  if (index === undefined) {
    const byKey = new Map<string, string>();
    for (const header of headers) {
      const key = normalizeHeader(header);
      if (key !== '' && !byKey.has(key)) byKey.set(key, header);
    }
    const at = detectMapping(headers).firstName;
    index = { byKey, firstName: at === undefined ? undefined : headers[at] };
    if (indexes.size >= INDEXES_KEPT) indexes.clear();
    indexes.set(id, index);
  }
  return index;
}

function unknownFieldsProblem(unknown: readonly string[], columns: Readonly<Record<string, string>>): string {
  const named = unknown.length === 1 ? `${unknown[0]}, which is` : `${unknown.slice(0, -1).join(', ')} and ${unknown[unknown.length - 1]}, which are`;
  const headers = Object.keys(columns).filter((h) => normalizeHeader(h) !== '');
  const listed = headers.slice(0, LISTED_COLUMNS).map((h) => `{${h}}`);
  if (headers.length > LISTED_COLUMNS) listed.push('…');
  const known = [...BUILT_IN_FIELDS.map((f) => `{${f}}`), ...listed].join(', ');
  return `the message uses ${named} neither a column of the file nor a field; it can use ${known} (write {{ for a brace)`;
}

/**
 * The row's cells by their column's header, as a campaign keeps them (`source`): a cell past the
 * header is "column N"; of two columns with the same header, the later one's cell is kept.
 */
export function cellsByHeader(headers: readonly string[], raw: readonly string[]): Record<string, string> {
  return Object.fromEntries(raw.map((cell, i) => [headers[i] ?? `column ${i + 1}`, cell]));
}
