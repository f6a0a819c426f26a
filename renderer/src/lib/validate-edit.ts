// Checks an edited row as the person types, with the same validation the engine runs on save.
import { parseAmount } from '../../../shared/domain/csv/amount.ts';
import { toDecimal, type Money } from '../../../shared/domain/money.ts';
import { validateRows, type ProductForValidation, type RowField } from '../../../shared/domain/validation.ts';

export interface EditFields {
  name: string;
  email: string;
  amount: string;
  message: string;
}

export function parseDefaultAmount(text: string, currency: string): Money | undefined {
  if (text.trim() === '') return undefined;
  const parsed = parseAmount(text.trim(), currency, '.');
  return parsed.ok ? parsed.money : undefined;
}

/**
 * The errors per field of one edited row; an empty object when it can be sent. `cells`: the row's
 * cells by header, which its message's {column} fields are filled in from.
 */
export function editErrors(
  product: ProductForValidation,
  line: number,
  fields: EditFields,
  defaultAmount?: Money,
  cells: Readonly<Record<string, string>> = {},
): Partial<Record<RowField, string>> {
  const { rows } = validateRows([{ line, ...fields, columns: cells }], product, defaultAmount ? { defaultAmount } : {});
  const out: Partial<Record<RowField, string>> = {};
  for (const issue of rows[0]?.errors ?? []) {
    out[issue.field] ??= issue.message.replace(/^Line \d+:\s*/, '');
  }
  return out;
}

/**
 * What fits under the narrow Amount input of the row editor (one short line, about 14 characters):
 * for an amount that reads as money but that the product refuses, what to type instead ("At most
 * 500.00", "At least 5.00", "Must be 25.00") rather than the start of the sentence ("the amount
 * USD 900.00 is…"); any other error (not an amount, another currency, none given) as it is. The
 * whole error stays the cell's title and is what the input is described by.
 */
export function amountErrorShort(error: string, amountText: string, product: ProductForValidation): string {
  const text = amountText.trim();
  const parsed = text === '' ? null : parseAmount(text, product.currency, '.');
  if (!parsed?.ok) return error;
  const amount = parsed.money;
  const price = product.price;
  if (price.kind === 'fixed') return amount.minor === price.amount.minor ? error : `Must be ${toDecimal(price.amount)}`;
  if (amount.minor > price.max.minor) return `At most ${toDecimal(price.max)}`;
  if (amount.minor < price.min.minor) return `At least ${toDecimal(price.min)}`;
  return error;
}
