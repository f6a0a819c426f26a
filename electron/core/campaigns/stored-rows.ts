// A campaign's stored rows checked again by the import's one validation (shared/domain/validation.ts):
// an edit, "check rows again" and a follow-up read a row back the same way, check it against the
// campaign's products, default amount and message, and store what validation gives the same way
// the import does.
import { toDecimal } from '../../../shared/domain/money.ts';
import { productChooser, type ProductForValidation, type RowInput, type ValidatedRow, type ValidateOptions } from '../../../shared/domain/validation.ts';
import { campaignDefaultAmount, type Campaign, type ProductSnapshot } from '../db/repos/campaigns.ts';
import type { RowEdit } from '../db/repos/recipient-edits.ts';
import type { Recipient } from '../db/repos/recipients.ts';
import { validationProduct } from './products.ts';

/** A stored row as validation reads it: its values as text, its file cells, its own product by id. */
export function storedRowInput(
  r: Pick<Recipient, 'line' | 'name' | 'email' | 'amountMinor' | 'currency' | 'message' | 'source' | 'productId'> & { readonly amountText?: string | null },
): RowInput {
  return {
    line: r.line,
    name: r.name ?? '',
    email: r.email ?? '',
    // An amount the file wrote that was refused is read again as written: never an empty cell that the
    // product's price or the default amount would quietly fill.
    amount: r.amountMinor != null && r.currency ? toDecimal({ minor: r.amountMinor, currency: r.currency }) : (r.amountText ?? ''),
    message: r.message ?? '',
    columns: r.source ?? {},
    ...(r.productId !== null ? { product: String(r.productId) } : {}),
  };
}

/**
 * What validation checks a campaign's rows against: its own product (the default), every product its
 * rows name (by id), its default amount and its default message. Known e-mails are the caller's.
 */
export function campaignChecks(
  campaign: Pick<Campaign, 'productId' | 'product' | 'defaultAmountMinor' | 'currency' | 'message'>,
  products: ReadonlyMap<number, ProductSnapshot>,
): { product: ProductForValidation; options: ValidateOptions } {
  const defaultAmount = campaignDefaultAmount(campaign);
  return {
    product: validationProduct(campaign.productId, products.get(campaign.productId) ?? campaign.product),
    options: {
      ...(defaultAmount ? { defaultAmount } : {}),
      defaultMessage: campaign.message,
      chooseProduct: productChooser([...products].map(([id, snapshot]) => validationProduct(id, snapshot))),
    },
  };
}

/** A validated row's values as the recipients table keeps them (an import's new row, or an edit). */
export function storedValues(v: ValidatedRow): Required<Omit<RowEdit, 'product'>> {
  return {
    name: v.name || null,
    email: v.email || null,
    amountMinor: v.amount?.minor ?? null,
    currency: v.amount?.currency ?? null,
    amountText: v.amountText,
    message: v.message || null,
    errors: v.errors.map((issue) => ({ field: issue.field, message: issue.message })),
    warnings: v.warnings.map((issue) => ({ field: issue.field, message: issue.message })),
  };
}
