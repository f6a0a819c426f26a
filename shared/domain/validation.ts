// One validation for recipient rows, run by the renderer as the person edits and again by the
// engine before anything is stored, so both always agree on what is sendable.
import { cleanEmail, isValidEmail, MAX_EMAIL_LENGTH } from './email.ts';
import { parseAmount, type DecimalSeparator } from './csv/amount.ts';
import { formatMoney, totalsByCurrency, type Money } from './money.ts';

export const MAX_NAME_LENGTH = 200;
export const MAX_MESSAGE_LENGTH = 1000;

export type ProductPrice =
  | { readonly kind: 'fixed'; readonly amount: Money }
  | { readonly kind: 'range'; readonly min: Money; readonly max: Money };

export interface ProductForValidation {
  readonly id: number;
  readonly currency: string;
  readonly price: ProductPrice;
}

export interface RowInput {
  readonly line: number;
  readonly fields: { readonly name: string; readonly email: string; readonly amount: string; readonly message: string };
  /** A reading problem from the parser (bad quoting, wrong field count); it makes the row invalid. */
  readonly problem?: string | null;
}

export interface ValidateOptions {
  /** Used for rows without an amount when the product has a price range. */
  readonly defaultAmount?: Money;
  /** Lower-cased e-mail addresses of earlier campaigns in the same environment. */
  readonly knownEmails?: ReadonlySet<string>;
  /** How the file writes decimals; ',' for "25,50". Defaults to '.'. */
  readonly decimalSeparator?: DecimalSeparator;
}

export type RowField = 'row' | 'name' | 'email' | 'amount' | 'message';

export interface RowIssue {
  readonly field: RowField;
  readonly message: string;
}

export interface ValidatedRow {
  readonly line: number;
  readonly name: string;
  /** Cleaned (trimmed), with its original case; compare with `normalizeEmail`. */
  readonly email: string;
  readonly amount: Money | null;
  readonly message: string;
  readonly errors: readonly RowIssue[];
  readonly warnings: readonly RowIssue[];
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

const LINE_BREAK_OR_CONTROL = /[\p{Cc}\u2028\u2029]/u;
const MESSAGE_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export function validateRows(
  rows: readonly RowInput[],
  product: ProductForValidation,
  options: ValidateOptions = {},
): ValidationResult {
  const currency = product.currency.toUpperCase();
  const decimalSeparator = options.decimalSeparator ?? '.';
  const firstLineOf = new Map<string, number>();
  const out: ValidatedRow[] = [];
  let valid = 0;
  let duplicates = 0;
  let known = 0;
  const validAmounts: Money[] = [];

  for (const row of rows) {
    const at = `Line ${row.line}:`;
    const errors: RowIssue[] = [];
    const warnings: RowIssue[] = [];
    if (row.problem) errors.push({ field: 'row', message: `${at} ${row.problem}` });

    const name = row.fields.name.trim();
    if (name === '') errors.push({ field: 'name', message: `${at} the recipient name is missing` });
    else if (name.length > MAX_NAME_LENGTH) {
      errors.push({ field: 'name', message: `${at} the name is ${name.length} characters long; the limit is ${MAX_NAME_LENGTH}` });
    } else if (LINE_BREAK_OR_CONTROL.test(name)) {
      errors.push({ field: 'name', message: `${at} the name "${name}" contains a line break or control character` });
    }

    const email = cleanEmail(row.fields.email);
    if (email === '') errors.push({ field: 'email', message: `${at} the e-mail address is missing` });
    else if (email.length > MAX_EMAIL_LENGTH) {
      errors.push({ field: 'email', message: `${at} the e-mail address is ${email.length} characters long; the limit is ${MAX_EMAIL_LENGTH}` });
    } else if (!isValidEmail(email)) {
      errors.push({ field: 'email', message: `${at} "${email}" is not a valid e-mail address` });
    } else {
      const key = email.toLowerCase();
      const first = firstLineOf.get(key);
      if (first === undefined) firstLineOf.set(key, row.line);
      else {
        duplicates++;
        warnings.push({ field: 'email', message: `${at} "${email}" also appears on line ${first}; each line sends its own gift` });
      }
      if (options.knownEmails?.has(key)) {
        known++;
        warnings.push({ field: 'email', message: `${at} "${email}" was already a recipient in an earlier campaign` });
      }
    }

    const message = row.fields.message.trim();
    if (message.length > MAX_MESSAGE_LENGTH) {
      errors.push({ field: 'message', message: `${at} the message is ${message.length} characters long; the limit is ${MAX_MESSAGE_LENGTH}` });
    } else if (MESSAGE_CONTROL.test(message)) {
      errors.push({ field: 'message', message: `${at} the message contains a control character; remove it` });
    }

    const amount = rowAmount(row.fields.amount, product, currency, decimalSeparator, options.defaultAmount, at, errors);

    if (errors.length === 0) {
      valid++;
      if (amount) validAmounts.push(amount);
    }
    out.push({ line: row.line, name, email, amount, message, errors, warnings });
  }

  return {
    rows: out,
    totals: {
      rows: out.length,
      valid,
      invalid: out.length - valid,
      duplicateEmails: duplicates,
      knownEmails: known,
      totals: totalsByCurrency(validAmounts),
    },
  };
}

// The row's amount in the product currency, or null with an error pushed.
function rowAmount(
  text: string,
  product: ProductForValidation,
  currency: string,
  decimalSeparator: DecimalSeparator,
  defaultAmount: Money | undefined,
  at: string,
  errors: RowIssue[],
): Money | null {
  const fail = (message: string): null => {
    errors.push({ field: 'amount', message: `${at} ${message}` });
    return null;
  };
  const trimmed = text.trim();
  let amount: Money | null = null;
  if (trimmed !== '') {
    const parsed = parseAmount(trimmed, currency, decimalSeparator);
    if (!parsed.ok) return fail(parsed.reason);
    amount = parsed.money;
  }
  const price = product.price;
  if (price.kind === 'fixed') {
    if (amount === null) return price.amount;
    if (amount.minor !== price.amount.minor || price.amount.currency !== currency) {
      return fail(`the amount ${formatMoney(amount)} differs from the product's fixed price of ${formatMoney(price.amount)}; leave the amount empty or use the fixed price`);
    }
    return price.amount;
  }
  if (amount === null) {
    if (defaultAmount === undefined) return fail('no amount and no default amount: enter an amount or set a default amount');
    if (defaultAmount.currency !== currency) {
      return fail(`the default amount ${formatMoney(defaultAmount)} is not in the product's currency ${currency}`);
    }
    amount = defaultAmount;
  }
  if (amount.minor < price.min.minor || amount.minor > price.max.minor) {
    return fail(`the amount ${formatMoney(amount)} is outside the product's range of ${formatMoney(price.min)} to ${formatMoney(price.max)}`);
  }
  return amount;
}
