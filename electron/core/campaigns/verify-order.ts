// Every answer is evidence (docs/architecture.md, "Sending", step 7): what the service says it
// issued and charged is the record, and it is compared with what the row asked before anything
// else happens.
// The expectation is read from the row's frozen request body (the bytes that were POSTed), so an
// edit of the row after its intent committed cannot hide a difference.

import { formatMoney, fromNumber, MoneyError, toDecimal, type Money } from '../../../shared/domain/money.ts';
import { orderedProduct, type CampaignForOrder } from './order-body.ts';
import type { Order } from '../service/types.ts';
import type { Finding } from '../../../shared/domain/findings.ts';

export type { Finding };

/** What one row asked the service for. */
export interface OrderExpectation {
  readonly key: string;
  readonly productId: number;
  /** Range product: the custom amount sent; fixed: the product's price. In the product's currency. */
  readonly amount: Money;
  readonly email: string | null;
}

export class UnreadableRequestError extends Error {
  override readonly name = 'UnreadableRequestError';
}

/** What a frozen request body asked for, read back from its bytes. */
export function expectationOf(campaign: CampaignForOrder, requestBody: string): OrderExpectation {
  let body: unknown;
  try {
    body = JSON.parse(requestBody);
  } catch {
    throw new UnreadableRequestError('a stored request body is not JSON');
  }
  const at = (...path: string[]): unknown => {
    let value: unknown = body;
    for (const key of path) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
    return value;
  };
  const key = at('external_reference_id');
  const productId = at('item', 'id');
  if (typeof key !== 'string' || typeof productId !== 'number') throw new UnreadableRequestError('a stored request body has no key or product id');
  const product = orderedProduct(campaign, productId);
  if (product === null) throw new UnreadableRequestError(`a stored request body names product ${productId}, which the campaign does not know`);
  const custom = at('custom_amount');
  let amount: Money;
  try {
    amount =
      typeof custom === 'number'
        ? fromNumber(custom, product.currency)
        : { minor: product.priceKind === 'fixed' ? product.amountMinor : product.minMinor, currency: product.currency };
  } catch (err) {
    if (!(err instanceof MoneyError)) throw err;
    throw new UnreadableRequestError(`a stored request body has an amount we cannot read (${err.message})`);
  }
  const email = at('delivery', 'recipient', 'email');
  return { key, productId, amount, email: typeof email === 'string' ? email : null };
}

/** Every difference between an answer and what was asked, and every value of it we could not read. */
export function verifyOrder(expected: OrderExpectation, order: Order): Finding[] {
  const findings: Finding[] = [];
  const mismatch = (field: Finding['field'], asked: string, stated: string, message: string) =>
    findings.push({ kind: 'mismatch', field, asked, stated, message });

  if (order.externalReferenceId !== expected.key) {
    const echo = order.externalReferenceId ?? 'nothing';
    mismatch('key', expected.key, echo, `the answer echoes the key ${order.externalReferenceId === undefined ? 'of no order' : `"${echo}"`} for an order under "${expected.key}"`);
  }
  if (order.item.productId !== undefined && order.item.productId !== expected.productId) {
    mismatch('product', String(expected.productId), String(order.item.productId), `the service issued product ${order.item.productId} for an order of product ${expected.productId}`);
  }
  const asked = formatMoney(expected.amount);
  const price = order.item.price;
  if (!price) {
    mismatch('amount', asked, 'nothing', `the service does not say what it issued for a ${asked} gift (no order_item.price)`);
  } else {
    const stated = `${price.currency} ${price.money ? toDecimal(price.money) : price.text}`;
    if (price.currency.toUpperCase() !== expected.amount.currency) {
      mismatch('currency', asked, stated, `the service issued ${stated} for a ${asked} gift (another currency)`);
    } else if (!price.money || price.money.minor !== expected.amount.minor) {
      mismatch('amount', asked, stated, `the service issued ${stated} for a ${asked} gift`);
    }
  }
  const echoed = order.recipientEmail;
  if (echoed !== undefined && expected.email !== null && echoed.trim().toLowerCase() !== expected.email.trim().toLowerCase()) {
    mismatch('recipient', expected.email, echoed, `the service addressed the gift to ${echoed} instead of ${expected.email}`);
  }
  for (const anomaly of order.anomalies) {
    findings.push({ kind: 'unreadable', field: 'record', stated: anomaly, message: `unexpected value in the answer: ${anomaly}` });
  }
  return findings;
}

export const mismatches = (findings: readonly Finding[]): Finding[] => findings.filter((f) => f.kind === 'mismatch');

/**
 * The finding of an answer that does not state the item's price (verifyOrder's 'amount', stated
 * 'nothing'). Alone, it contradicts nothing: a service that issues asynchronously may state the
 * price only later, in the order's own record (confirm-price.ts). A final record without it is
 * still a mismatch.
 */
export const isUnstatedPrice = (f: Finding): boolean => f.kind === 'mismatch' && f.field === 'amount' && f.stated === 'nothing';

/** The answer leaves out the item's price and disagrees in nothing else. */
export const onlyPriceUnstated = (findings: readonly Finding[]): boolean => {
  const wrong = mismatches(findings);
  return wrong.length > 0 && wrong.every(isUnstatedPrice);
};

// The parser's note that the price or the charge is absent (schemas.ts, Reader.odd: "received
// nothing"); a malformed value says what it received instead, and stays a finding.
const ABSENT_PRICE_OR_CHARGE = /^order\.(order_item\.price|total_price_charged): expected .*, received nothing$/;

/** The findings less those saying only that the price (and the charge) are not stated yet. */
export const withoutUnstatedPrice = (findings: readonly Finding[]): Finding[] =>
  findings.filter((f) => !isUnstatedPrice(f) && !(f.kind === 'unreadable' && ABSENT_PRICE_OR_CHARGE.test(f.stated)));

/**
 * Whether an entry of a GET /v1/orders list may stand for the order's own record. The list's
 * entries are "not shown": one is used only when it agrees with what the row asked in every point
 * an answer is checked on, and reads cleanly. One that leaves a field out (a summary: no price, no
 * charge) or tells another story is no evidence either way; the order's own record decides.
 */
export function entryAgrees(campaign: CampaignForOrder | null | undefined, requestBody: string | null, entry: Order): boolean {
  if (!campaign || requestBody === null) return false;
  try {
    return verifyOrder(expectationOf(campaign, requestBody), entry).length === 0;
  } catch (error) {
    if (error instanceof UnreadableRequestError) return false;
    throw error;
  }
}

/** The differences a list entry states: its mismatches, less those of a field it leaves out (it says nothing of that). */
export function contradictions(expected: OrderExpectation, entry: Order): Finding[] {
  return mismatches(verifyOrder(expected, entry)).filter(
    (f) => !(f.field === 'key' && entry.externalReferenceId === undefined) && !(f.field === 'amount' && entry.item.price === undefined),
  );
}

/** The pause detail for a row whose answer disagreed: names the row, the order and each difference. */
export function mismatchDetail(line: number, orderId: number, findings: readonly Finding[]): string {
  const differences = mismatches(findings).map((f) => f.message).join('; ');
  return (
    `Line ${line}, order ${orderId}: ${differences}. Sending paused so no more gifts go out this way; ` +
    'the row is flagged with both values. Check the order with the service before you resume (the next order then goes alone and is checked again).'
  );
}
