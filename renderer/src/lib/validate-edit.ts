// Checks an edited row as the person types, with the same validation the engine runs on save.
import { parseAmount } from '../../../shared/domain/csv/amount.ts';
import type { Money } from '../../../shared/domain/money.ts';
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
