// The wire mapping of one recipient row: the order request built from the campaign and the row
// (frozen as bytes before the first POST), and the record kept from the order the service returns.

import { plainDecimal, toDecimal, type Money } from '../../../shared/domain/money.ts';
import { messageTemplateOf, rowMessage } from '../../../shared/domain/validation.ts';
import type { Campaign, ProductSnapshot } from '../db/repos/campaigns.ts';
import type { OrderOutcome } from '../db/repos/recipient-transitions.ts';
import type { SendRow } from '../db/repos/recipients.ts';
import { serializeOrderRequest } from '../service/order-request.ts';
import { parseServiceTime } from '../service/schemas.ts';
import type { Order, OrderRequest } from '../service/types.ts';
import type { Finding } from '../../../shared/domain/findings.ts';

/** A row that cannot be turned into an order request; nothing was sent for it. */
export class OrderBodyError extends Error {
  override readonly name = 'OrderBodyError';
  constructor(
    readonly rowId: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The campaign as orders are built and checked from it: its product, and the other products its
 * rows name (schema 7; campaignProducts, getCampaignForOrders). Without `products`, only its own.
 */
export type CampaignForOrder = Pick<Campaign, 'productId' | 'product' | 'senderName' | 'message'> & {
  readonly products?: ReadonlyMap<number, ProductSnapshot>;
};

/** The snapshot of a product the campaign orders, or null when it knows no such product. */
export function orderedProduct(campaign: Pick<CampaignForOrder, 'productId' | 'product' | 'products'>, productId: number): ProductSnapshot | null {
  if (productId === campaign.productId) return campaign.product;
  return campaign.products?.get(productId) ?? null;
}
/** What an order is built from: the columns the send queue reads for each row. */
export type RowForOrder = SendRow;

/**
 * The order for one row: its product (the one it names, else the campaign's), `custom_amount` only for a range-priced product,
 * e-mail delivery to the row's recipient, the campaign's sender, the row's message or else the
 * campaign's with the row's fields filled in (sentMessageOf), and the row's own key. Refuses (OrderBodyError) what would send a different gift
 * than the one the row was validated for.
 */
export function buildOrderRequest(campaign: CampaignForOrder, row: RowForOrder): OrderRequest {
  const where = `Row on line ${row.line}`;
  const fail = (what: string): never => {
    throw new OrderBodyError(row.id, `${where} ${what}; nothing was sent for it. Fix the row, then press Resume.`);
  };
  const name = row.name?.trim() ? row.name : fail('has no recipient name');
  const email = row.email?.trim() ? row.email : fail('has no e-mail address');
  if (row.amountMinor === null || row.currency === null) return fail('has no amount');
  const productId = row.productId ?? campaign.productId;
  const product = orderedProduct(campaign, productId) ?? fail(`names product ${productId}, which this campaign's rows were not checked against`);
  if (row.currency !== product.currency) {
    return fail(`is in ${row.currency}, but the product is priced in ${product.currency}`);
  }
  const amount: Money = { minor: row.amountMinor, currency: row.currency };
  let customAmount: Money | undefined;
  if (product.priceKind === 'fixed') {
    // A fixed-price product charges its price whatever we send: a row expecting another amount
    // would be charged something it did not ask for.
    if (row.amountMinor !== product.amountMinor) {
      const price = toDecimal({ minor: product.amountMinor, currency: product.currency });
      fail(`asks for ${toDecimal(amount)} ${amount.currency}, but the product has the fixed price ${price} ${product.currency}`);
    }
  } else {
    customAmount = amount;
  }
  const filled = sentMessageOf(campaign, row);
  if (!filled.ok) return fail(`cannot be sent with its message: ${filled.problem}`);
  const message = filled.text ?? undefined;
  return {
    productId,
    ...(customAmount ? { customAmount } : {}),
    deliveryMethod: 'EMAIL',
    recipient: { name, email },
    sender: { name: campaign.senderName },
    ...(message !== undefined ? { message } : {}),
    externalReferenceId: row.externalReferenceId,
  };
}

/** The exact bytes to freeze with the row and POST on every attempt. */
export function orderBodyFor(campaign: CampaignForOrder, row: RowForOrder): string {
  const request = buildOrderRequest(campaign, row);
  try {
    return serializeOrderRequest(request);
  } catch (err) {
    throw new OrderBodyError(row.id, `Row on line ${row.line} cannot be sent: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * The message an order for the row carries: the row's own message, else the campaign's, with the
 * row's fields filled in (shared/domain/message-template.ts). The review shows this same text.
 */
export function sentMessageOf(
  campaign: Pick<CampaignForOrder, 'message'>,
  row: Pick<RowForOrder, 'name' | 'amountMinor' | 'currency' | 'message' | 'source'>,
): ReturnType<typeof rowMessage> {
  return rowMessage(messageTemplateOf(row.message, campaign.message), {
    name: row.name?.trim() ?? '',
    amount: row.amountMinor !== null && row.currency !== null ? { minor: row.amountMinor, currency: row.currency } : null,
    columns: row.source ?? {},
  });
}

/**
 * What the row keeps of an order the service returned (POST response, lookup by key): the order as
 * the service stated it, never as we asked it, and what checking it against the request found.
 */
export function orderOutcomeOf(order: Order, findings: readonly Finding[]): OrderOutcome {
  const charged = order.charged;
  const rate = decimalTextOf(charged?.rate);
  const expiry = order.acceptanceExpiresAt === undefined ? Number.NaN : parseServiceTime(order.acceptanceExpiresAt);
  const price = order.item.price;
  return {
    orderId: order.id,
    orderStatus: order.status,
    itemId: order.item.id ?? null,
    itemStatus: order.item.status ?? null,
    charged: charged ? charged.amount : null,
    chargedText: charged && !charged.text.startsWith('-') ? charged.text : null,
    issued: price ? { text: price.text.slice(0, 64), currency: price.currency.slice(0, 16) } : null,
    findings,
    exchangeRate: rate === null ? null : { rate, from: charged?.from ?? null, to: charged?.to ?? null },
    feeRate: decimalTextOf(order.item.transactionFeeRate),
    acceptanceExpiry: Number.isFinite(expiry) && expiry >= 0 ? expiry : null,
  };
}

/**
 * A rate as plain decimal text ("0.00075", never "7.5e-4"), as the store keeps it. Null when the
 * service sent none, or a value no rate can be (negative, not finite): the raw order keeps it.
 */
export function decimalTextOf(value: number | undefined): string | null {
  if (value === undefined || !Number.isFinite(value) || value < 0) return null;
  return plainDecimal(value);
}
