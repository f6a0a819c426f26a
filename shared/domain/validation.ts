// One validation for recipient rows, run by the renderer as the person edits and again by the
// engine before anything is stored, so both always agree on what is sendable.
import { cleanEmail, emailKey, MAX_EMAIL_LENGTH } from './email.ts';
import { parseAmount, type DecimalSeparator } from './csv/amount.ts';
import { formatMoney, MoneyError, totalsByCurrency, type Money } from './money.ts';
import { cellsByHeader, fillMessage, usesFields, type MessageFields } from './message-template.ts';

/** A range product's row without an amount, when the campaign has no default amount (the CLI names its --amount flag instead). */
export const NO_AMOUNT = 'no amount and no default amount: enter an amount or set a default amount';

export const MAX_NAME_LENGTH = 200;
export const MAX_MESSAGE_LENGTH = 1000;

export type ProductPrice =
  | { readonly kind: 'fixed'; readonly amount: Money }
  | { readonly kind: 'range'; readonly min: Money; readonly max: Money };

export interface ProductForValidation {
  readonly id: number;
  readonly currency: string;
  readonly price: ProductPrice;
  /** How a file may name it in its gift column, besides its id. */
  readonly name?: string | null;
}

/** Finds the product a row's gift cell names: a product id, or a product's name. */
export type ProductChooser = (cell: string) => ProductForValidation | string;

/**
 * The chooser over a catalog: a cell of digits is a product id; any other text a product's exact
 * name (letter case aside, when only one product has it). The reason when none, or several, match.
 */
export function productChooser(products: readonly ProductForValidation[]): ProductChooser {
  const byId = new Map(products.map((p) => [p.id, p]));
  const byName = new Map<string, ProductForValidation[]>();
  for (const p of products) {
    const name = p.name?.trim();
    if (!name) continue;
    for (const key of [name, `\u0000${name.toLowerCase()}`]) byName.set(key, [...(byName.get(key) ?? []), p]);
  }
  return (cell) => {
    const text = cell.trim();
    if (/^\d{1,15}$/.test(text)) return byId.get(Number(text)) ?? `there is no product ${text} among the products that can be ordered here`;
    const exact = byName.get(text) ?? byName.get(`\u0000${text.toLowerCase()}`) ?? [];
    if (exact.length === 1 && exact[0]) return exact[0];
    if (exact.length > 1) return `several products are named "${text}": give the product id instead (${exact.map((p) => p.id).join(', ')})`;
    return `no product named "${text}" can be ordered here: give a product id or the exact name from the catalog`;
  };
}

/** A row's cells as text, as read from a file or typed in an edit. */
export interface RowInput {
  readonly line: number;
  readonly name: string;
  readonly email: string;
  readonly amount: string;
  readonly message: string;
  /** A reading problem from the parser (bad quoting, wrong field count); it makes the row invalid. */
  readonly problem?: string | null;
  /** The cells of the file's record, for a row read from a file. */
  readonly raw?: readonly string[];
  /** The file's header, for a row read from a file: its message's {column} fields name these (with `raw`). */
  readonly headers?: readonly string[];
  /** The row's cells by header, for a stored row (its source): what its message's {column} fields name. */
  readonly columns?: Readonly<Record<string, string>>;
  /** The gift column's cell, when the file has one: the row's product (ValidateOptions.chooseProduct). Empty: the campaign's. */
  readonly product?: string;
}

export interface ValidateOptions {
  /** Used for rows without an amount when the product has a price range. */
  readonly defaultAmount?: Money;
  /** Lower-cased e-mail addresses of earlier campaigns in the same environment. */
  readonly knownEmails?: ReadonlySet<string>;
  /** How the file writes decimals; ',' for "25,50". Defaults to '.'. */
  readonly decimalSeparator?: DecimalSeparator;
  /** The campaign's default message, which a row without its own sends: checked per row with its fields filled in. */
  readonly defaultMessage?: string | null;
  /** Reads a row's gift cell (RowInput.product); without it, a row that names a gift is an error. */
  readonly chooseProduct?: ProductChooser;
  /**
   * Called before every CHECKPOINT_ROWS-th row: a long check's chance to stop (a stopped
   * campaigns:create, app/create-stop.ts). What it throws ends the check and is thrown on.
   */
  readonly checkpoint?: () => void;
}

/** How many rows are validated between two calls of ValidateOptions.checkpoint (a few milliseconds' work). */
export const CHECKPOINT_ROWS = 2_000;

export type RowField = 'row' | 'name' | 'email' | 'amount' | 'message' | 'product';

export interface RowIssue {
  readonly field: RowField;
  readonly message: string;
}

export interface ValidatedRow {
  readonly line: number;
  readonly name: string;
  /** Cleaned (trimmed), with its original case; compare by `emailKey`. */
  readonly email: string;
  readonly amount: Money | null;
  /**
   * The amount as written, when something was written that did not become the row's amount (it was
   * refused, or the row's gift is unknown so it could not be read); null otherwise. Kept with the row
   * so an editor starts from what the file said, and a check again reads it, not an empty cell.
   */
  readonly amountText: string | null;
  readonly message: string;
  readonly errors: readonly RowIssue[];
  readonly warnings: readonly RowIssue[];
  /** The cells the row was read from (kept with the campaign as its source); none for a typed row. */
  readonly raw: readonly string[];
  /** A valid row whose address an earlier valid line of the file has: that line (the import skips this one by default). */
  readonly repeatOf: number | null;
  /** Its address was a recipient of an earlier campaign of this environment (`knownEmails`). */
  readonly earlierRecipient: boolean;
  /** The product it is validated against, and ordered as: the one its gift cell names, else the campaign's. */
  readonly productId: number;
}

export interface ValidationTotals {
  readonly rows: number;
  readonly valid: number;
  readonly invalid: number;
  /** Rows whose e-mail already appeared on an earlier line of the file. */
  readonly duplicateEmails: number;
  /** Rows whose e-mail was in an earlier campaign of this environment. */
  readonly knownEmails: number;
  /** Sum of the valid rows' amounts, one entry per currency. */
  readonly totals: readonly Money[];
}

export interface ValidationResult {
  readonly rows: readonly ValidatedRow[];
  readonly totals: ValidationTotals;
}

// \p{Cc} is U+0000–U+001F and U+007F–U+009F. Without the u flag these match code units, as
// charCodeAt reads them, and one native scan is cheaper than a charCodeAt loop over the sliced
// substrings papaparse makes (the /[\p{Cc}]/u forms were slower still).
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const NAME_FORBIDDEN = /[\x00-\x1f\x7f-\x9f\u2028\u2029]/;
// eslint-disable-next-line no-control-regex -- as above; tab and line breaks are allowed in a message
const MESSAGE_FORBIDDEN = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/;

/** A control character, U+2028 or U+2029 (a name is one line). */
function hasLineBreakOrControl(text: string): boolean {
  return NAME_FORBIDDEN.test(text);
}

/** Any control character except tab and line breaks, which a multi-line message needs. */
function hasMessageControl(text: string): boolean {
  return MESSAGE_FORBIDDEN.test(text);
}

// Distinct amount cells remembered per call: a file repeats a handful of amounts ("25", "50"), and
// rows with the same amount share one Money value (never mutated) instead of one each.
const AMOUNT_CACHE_LIMIT = 4096;

export function validateRows(
  rows: readonly RowInput[],
  product: ProductForValidation,
  options: ValidateOptions = {},
): ValidationResult {
  const validator = createRowValidator(product, options);
  for (const row of rows) validator.add(row);
  return validator.finish();
}

/**
 * validateRows one row at a time, for a caller that produces rows in file order (the CSV import
 * validates each record as it is read, while it is still in the CPU's caches).
 */
export interface RowValidator {
  add(row: RowInput): ValidatedRow;
  finish(): ValidationResult;
}

export function createRowValidator(product: ProductForValidation, options: ValidateOptions = {}): RowValidator {
  const decimalSeparator = options.decimalSeparator ?? '.';
  // The first line of each address, by its comparison key; and the first valid one.
  const firstLines = new Map<string, number>();
  // Addresses whose first line turned out invalid (few): their first valid line, once one comes.
  // Every other address's first line is its first valid one, so one map serves both for most.
  const invalidFirsts = new Map<string, number | null>();
  const knownEmails = options.knownEmails !== undefined && options.knownEmails.size > 0 ? options.knownEmails : null;
  const out: ValidatedRow[] = [];
  let valid = 0;
  let duplicates = 0;
  let known = 0;
  // The valid rows' amounts, per currency (a file of several gifts may mix currencies).
  const sums = new Map<string, number>();
  const amounts = new Map<string, Money | string>();

  const checkpoint = options.checkpoint;
  let sinceCheckpoint = 0;

  const addRow = (row: RowInput): ValidatedRow => {
    if (checkpoint !== undefined && ++sinceCheckpoint === CHECKPOINT_ROWS) {
      sinceCheckpoint = 0;
      checkpoint();
    }
    const line = row.line;
    // Issue lists are created only when needed: at 100,000 rows, empty arrays are most of the garbage.
    let errors: RowIssue[] | null = null;
    let warnings: RowIssue[] | null = null;
    if (row.problem) errors = add(errors, 'row', line, row.problem);

    const name = row.name.trim();
    if (name === '') errors = add(errors, 'name', line, 'the recipient name is missing');
    else if (name.length > MAX_NAME_LENGTH) {
      errors = add(errors, 'name', line, `the name is ${name.length} characters long; the limit is ${MAX_NAME_LENGTH}`);
    } else if (hasLineBreakOrControl(name)) {
      errors = add(errors, 'name', line, `the name "${name}" contains a line break or control character`);
    }

    const email = cleanEmail(row.email);
    let key: string | null = null;
    let firstOfItsAddress = false;
    let earlierRecipient = false;
    if (email === '') errors = add(errors, 'email', line, 'the e-mail address is missing');
    else if (email.length > MAX_EMAIL_LENGTH) {
      errors = add(errors, 'email', line, `the e-mail address is ${email.length} characters long; the limit is ${MAX_EMAIL_LENGTH}`);
    } else {
      key = emailKey(email);
      if (key === null) errors = add(errors, 'email', line, `"${email}" is not a valid e-mail address`);
      else {
        const first = firstLines.get(key);
        if (first === undefined) {
          firstLines.set(key, line);
          firstOfItsAddress = true;
        } else {
          duplicates++;
          warnings = add(warnings, 'email', line, `"${email}" also appears on line ${first}`);
        }
        if (knownEmails?.has(key)) {
          known++;
          earlierRecipient = true;
          warnings = add(warnings, 'email', line, `"${email}" was already a recipient in an earlier campaign`);
        }
      }
    }

    const message = row.message.trim();
    if (message.length > MAX_MESSAGE_LENGTH) {
      errors = add(errors, 'message', line, `the message is ${message.length} characters long; the limit is ${MAX_MESSAGE_LENGTH}`);
    } else if (message !== '' && hasMessageControl(message)) {
      errors = add(errors, 'message', line, 'the message contains a control character; remove it');
    }

    // The row's gift: the product its gift cell names, else the campaign's.
    const giftCell = row.product?.trim() ?? '';
    let rowProduct: ProductForValidation | null = product;
    if (giftCell !== '') {
      const chosen = options.chooseProduct ? options.chooseProduct(giftCell) : 'this list cannot name a gift per row here';
      if (typeof chosen === 'string') {
        errors = add(errors, 'product', line, chosen);
        rowProduct = null;
      } else rowProduct = chosen;
    }

    let amount: Money | null = null;
    if (rowProduct !== null) {
      const amountText = row.amount;
      const cacheKey = rowProduct === product ? amountText : `${rowProduct.id}\u0000${amountText}`;
      let found = amounts.get(cacheKey);
      if (found === undefined) {
        found = rowAmount(amountText, rowProduct, rowProduct.currency.toUpperCase(), decimalSeparator, options.defaultAmount);
        if (amounts.size < AMOUNT_CACHE_LIMIT) amounts.set(cacheKey, found);
      }
      if (typeof found === 'string') errors = add(errors, 'amount', line, found);
      else amount = found;
    }

    // The message as its order would carry it (rowMessage), unless the row's own is refused as written.
    if (errors === null || !errors.some((issue) => issue.field === 'message')) {
      const template = messageTemplateOf(message, options.defaultMessage);
      // The row's own message without fields is sent as written, and was checked above.
      if (template !== null && !(template === message && !usesFields(template))) {
        const columns = usesFields(template) ? (row.columns ?? cellsByHeader(row.headers ?? NO_CELLS, row.raw ?? NO_CELLS)) : NO_COLUMNS;
        const sent = rowMessage(template, { name, amount, columns });
        if (!sent.ok) errors = add(errors, 'message', line, sent.problem);
        else if (sent.empty.length > 0) {
          const fields = sent.empty.length === 1 ? `${sent.empty[0]} is` : `${sent.empty.slice(0, -1).join(', ')} and ${sent.empty[sent.empty.length - 1]} are`;
          const reads = sent.text === null || sent.text.length > 80 ? '' : `, so it reads "${sent.text}"`;
          warnings = add(warnings, 'message', line, `the message's ${fields} empty on this line${reads}`);
        }
      }
    }

    let repeatOf: number | null = null;
    if (errors === null) {
      valid++;
      if (key !== null && !firstOfItsAddress) {
        const after = invalidFirsts.get(key);
        if (after === undefined) repeatOf = firstLines.get(key) ?? null;
        else if (after === null) invalidFirsts.set(key, line);
        else repeatOf = after;
      }
      if (amount) {
        const sum = (sums.get(amount.currency) ?? 0) + amount.minor;
        if (!Number.isSafeInteger(sum)) throw new MoneyError(`the ${amount.currency} total is too large`);
        sums.set(amount.currency, sum);
      }
    } else if (firstOfItsAddress && key !== null) invalidFirsts.set(key, null);
    const validated: ValidatedRow = {
      line,
      name,
      email,
      amount,
      amountText: amount === null && row.amount.trim() !== '' ? row.amount.trim() : null,
      message,
      errors: errors ?? NO_ISSUES,
      warnings: warnings ?? NO_ISSUES,
      raw: row.raw ?? NO_CELLS,
      repeatOf,
      earlierRecipient,
      productId: (rowProduct ?? product).id,
    };
    out.push(validated);
    return validated;
  };

  const finish = (): ValidationResult => ({
    rows: out,
    totals: {
      rows: out.length,
      valid,
      invalid: out.length - valid,
      duplicateEmails: duplicates,
      knownEmails: known,
      totals: totalsByCurrency([...sums].map(([currency, minor]) => ({ currency, minor }))),
    },
  });

  return { add: addRow, finish };
}

const NO_ISSUES: readonly RowIssue[] = Object.freeze([]);
const NO_CELLS: readonly string[] = Object.freeze([]);
const NO_COLUMNS: Readonly<Record<string, string>> = Object.freeze({});

function add(list: RowIssue[] | null, field: RowField, line: number, text: string): RowIssue[] {
  const issue = { field, message: `Line ${line}: ${text}` };
  if (list === null) return [issue];
  list.push(issue);
  return list;
}

// The row's amount in the product currency, or the reason there is none.
function rowAmount(
  text: string,
  product: ProductForValidation,
  currency: string,
  decimalSeparator: DecimalSeparator,
  defaultAmount: Money | undefined,
): Money | string {
  const trimmed = text.trim();
  let amount: Money | null = null;
  if (trimmed !== '') {
    const parsed = parseAmount(trimmed, currency, decimalSeparator);
    if (!parsed.ok) return parsed.reason;
    amount = parsed.money;
  }
  const price = product.price;
  if (price.kind === 'fixed') {
    if (price.amount.currency !== currency) return `the product's price is in ${price.amount.currency}, not in its currency ${currency}`;
    if (amount === null) return price.amount;
    if (amount.minor !== price.amount.minor) {
      return `the amount ${formatMoney(amount)} differs from the product's fixed price of ${formatMoney(price.amount)}; leave the amount empty or use the fixed price`;
    }
    return price.amount;
  }
  if (amount === null) {
    if (defaultAmount === undefined) return NO_AMOUNT;
    if (defaultAmount.currency !== currency) {
      return `the default amount ${formatMoney(defaultAmount)} is not in the product's currency ${currency}`;
    }
    amount = defaultAmount;
  }
  if (amount.minor < price.min.minor || amount.minor > price.max.minor) {
    return `the amount ${formatMoney(amount)} is outside the product's range of ${formatMoney(price.min)} to ${formatMoney(price.max)}`;
  }
  return amount;
}

/**
 * The message an order carries for a row: its template (the row's own message, else the campaign's
 * default) with the row's fields filled in (message-template.ts), or why it cannot be sent: an
 * unknown field, a lone brace, a result over MAX_MESSAGE_LENGTH or holding a control character a
 * cell brought in. `text` is null when neither the row nor the campaign has a message.
 */
export function rowMessage(
  template: string | null | undefined,
  fields: MessageFields,
): { readonly ok: true; readonly text: string | null; readonly empty: readonly string[] } | { readonly ok: false; readonly problem: string } {
  if (template == null || template.trim() === '') return { ok: true, text: null, empty: [] };
  const filled = fillMessage(template, fields);
  if (!filled.ok) return filled;
  const text = filled.text;
  const filledIn = text === template ? '' : ' with its fields filled in';
  if (text.length > MAX_MESSAGE_LENGTH) {
    return { ok: false, problem: `the message is ${text.length} characters long${filledIn}; the limit is ${MAX_MESSAGE_LENGTH}` };
  }
  if (hasMessageControl(text)) return { ok: false, problem: `the message contains a control character${filledIn}; remove it` };
  return { ok: true, text, empty: filled.empty };
}

/** The template a row's message is made from: its own message when it has one, else the campaign's default. */
export function messageTemplateOf(own: string | null | undefined, defaultMessage: string | null | undefined): string | null {
  if (own != null && own.trim() !== '') return own;
  return defaultMessage != null && defaultMessage.trim() !== '' ? defaultMessage : null;
}

/**
 * A stored row whose gift cell named no product that can be ordered keeps that error when it is
 * checked again (an edit, "check rows again"): the cell is the file's, and nothing else can name its
 * gift. Its amount then cannot be checked either, so only the product's error stands for it.
 */
export function keepProductErrors(stored: readonly { readonly field?: string; readonly message: string }[], validated: ValidatedRow): ValidatedRow {
  const productErrors = stored.filter((issue) => issue.field === 'product').map((issue): RowIssue => ({ field: 'product', message: issue.message }));
  if (productErrors.length === 0) return validated;
  return { ...validated, amount: null, errors: [...productErrors, ...validated.errors.filter((issue) => issue.field !== 'amount' && issue.field !== 'product')] };
}
