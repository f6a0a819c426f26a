// Turns a POST /v1/orders body into an order draft, or a 4xx with a code a client can branch on
// and a message that says what to change. Types are checked by zod (loosely: unknown fields are
// allowed); the business rules, each with its own code, are checked by hand after that.

import { z } from 'zod';
import { compareMoney, formatMoney, fromNumber, money, MoneyError, type Money } from '../../shared/domain/money.ts';
import { exchangeRate, fixedPrice, priceRange, productForId, type CatalogProduct } from './catalog.ts';
import { decToMoney, moneyToDec, mul } from './decimal.ts';
import type { OrderDraft } from './store.ts';
import { ApiError, type Dialect } from './types.ts';

const optionalText = z.string().nullable().optional();
const amount = z.number().nullable().optional();

const OrderBody = z.looseObject({
  item: z.looseObject({ id: z.number().int().optional(), custom_amount: amount }).optional(),
  delivery: z.looseObject({
    method: optionalText,
    recipient: z.looseObject({ name: optionalText, email: optionalText }).nullable().optional(),
    sender: z.looseObject({ name: optionalText }).nullable().optional(),
  }).optional(),
  message: optionalText,
  external_reference_id: optionalText,
});
// Parsed apart: a service that reads only item.custom_amount never looks at a top-level one.
const TopLevelAmount = z.looseObject({ custom_amount: amount });

// Not shown in the spec; the simulator picks a generous bound so absurd keys are still refused.
export const MAX_EXTERNAL_REFERENCE_LENGTH = 255;
// The service's own check of delivery.recipient.email, not the app's rule (shared/domain/email.ts):
// the simulator stands in for the service, and a looser service is what the app must not rely on
// (it checks every address itself before sending). Only ever run on at most 254 characters (the
// length is checked first), where its backtracking on a run of dots stays small.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The external_reference_id of a body, read before anything else so a retry always finds its order. */
export function externalReferenceOf(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const ref: unknown = (body as Record<string, unknown>)['external_reference_id'];
  return typeof ref === 'string' && ref !== '' ? ref : null;
}

/**
 * The custom amount a body asked for, wherever it put it: item.custom_amount first (the one both
 * dialects honour when present), else the top-level one. For the audit, so a test can compare
 * what was asked with what was issued.
 */
export function requestedAmountOf(body: unknown): number | null {
  if (typeof body !== 'object' || body === null) return null;
  const b = body as Record<string, unknown>;
  const inItem = typeof b['item'] === 'object' && b['item'] !== null ? (b['item'] as Record<string, unknown>)['custom_amount'] : undefined;
  if (typeof inItem === 'number') return inItem;
  const top = b['custom_amount'];
  return typeof top === 'number' ? top : null;
}

/** How a service reads custom_amount: the dialect's switches, and the account's currency for customAmountCurrency 'account'. */
export interface AmountReading {
  readonly placement: Dialect['customAmount'];
  readonly units: Dialect['customAmountUnits'];
  readonly bounds: Dialect['customAmountBounds'];
  readonly currency: Dialect['customAmountCurrency'];
  readonly accountCurrency: string;
}

/** Our client's guesses: read at the top or in item, in major units of the product's currency, refused out of bounds. */
export const GUESSED_READING: AmountReading = {
  placement: 'top-or-item', units: 'major', bounds: 'refuse', currency: 'product', accountCurrency: 'USD',
};

export function amountReading(dialect: Readonly<Dialect>, accountCurrency: string): AmountReading {
  return {
    placement: dialect.customAmount,
    units: dialect.customAmountUnits,
    bounds: dialect.customAmountBounds,
    currency: dialect.customAmountCurrency,
    accountCurrency,
  };
}

export function parseOrderRequest(body: unknown, key: string, reading: AmountReading = GUESSED_READING): OrderDraft {
  const customAmount = reading.placement;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError(400, 'BAD_REQUEST', 'the order body must be a JSON object');
  }
  const b = check(OrderBody, body);
  const top = customAmount === 'top-or-item' ? check(TopLevelAmount, body).custom_amount ?? null : null;

  const ref = b.external_reference_id ?? null;
  if (ref !== null && (ref === '' || ref.length > MAX_EXTERNAL_REFERENCE_LENGTH)) {
    throw new ApiError(422, 'INVALID_REQUEST',
      `external_reference_id must be 1 to ${MAX_EXTERNAL_REFERENCE_LENGTH} characters, got ${ref.length}`);
  }

  const productId = b.item?.id;
  if (productId === undefined) throw new ApiError(422, 'INVALID_REQUEST', 'item.id is required: the product id from GET /v1/products');
  const product = productForId(key, productId);
  if (!product) {
    throw new ApiError(404, 'PRODUCT_NOT_FOUND',
      `no product ${productId} in this account's catalog; product ids differ per account, take them from GET /v1/products`);
  }
  if (product.availability !== 'ON_SALE') {
    throw new ApiError(422, 'PRODUCT_NOT_ON_SALE', `product ${productId} is ${product.availability}; only ON_SALE products can be ordered`);
  }

  const method = b.delivery?.method;
  if (!method) throw new ApiError(422, 'INVALID_REQUEST', 'delivery.method is required; use "EMAIL"');
  if (method !== 'EMAIL' || !product.deliveryMethods.includes(method)) {
    throw new ApiError(422, 'DELIVERY_METHOD_NOT_AVAILABLE',
      `product ${productId} cannot be delivered by ${method}; it offers ${product.deliveryMethods.join(', ')} and the simulator delivers by EMAIL only`);
  }
  const name = b.delivery?.recipient?.name?.trim() ?? '';
  if (name === '') throw new ApiError(422, 'INVALID_RECIPIENT', 'delivery.recipient.name is required');
  const email = b.delivery?.recipient?.email?.trim() ?? '';
  if (email.length > 254 || !EMAIL.test(email)) {
    throw new ApiError(422, 'INVALID_EMAIL', `delivery.recipient.email "${email}" is not an e-mail address`);
  }

  const inItem = b.item?.custom_amount ?? null;
  const price = customAmount === 'item-or-minimum'
    ? itemAmountPrice(product, productId, inItem, reading)
    : priceOf(product, productId, top, inItem, reading);
  const senderName = b.delivery?.sender?.name;
  return {
    product,
    productId,
    price,
    delivery: {
      method,
      recipient: { name, email },
      sender: typeof senderName === 'string' ? { name: senderName } : null,
    },
    message: b.message ?? null,
    externalReferenceId: ref,
    fingerprint: canonicalJson(body),
  };
}

function check<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? issue.path.map(String).join('.') : 'body';
    throw new ApiError(422, 'INVALID_REQUEST', `${where}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

// The 'item-or-minimum' dialect: item.custom_amount is checked as usual, and its absence is not an
// error: the product is issued at its minimum. That is the answer a client can least afford to
// miss, because the order succeeds and only the amount is wrong.
function itemAmountPrice(product: CatalogProduct, productId: number, inItem: number | null, reading: AmountReading): Money {
  const range = priceRange(product);
  if (inItem === null && range) return range.min;
  return priceOf(product, productId, null, inItem, reading);
}

function priceOf(product: CatalogProduct, productId: number, top: number | null, inItem: number | null, reading: AmountReading): Money {
  if (top !== null && inItem !== null && top !== inItem) {
    throw new ApiError(422, 'INVALID_REQUEST', `custom_amount ${top} and item.custom_amount ${inItem} disagree; send one`);
  }
  const custom = top ?? inItem;
  const fixed = fixedPrice(product);
  if (fixed) {
    if (custom !== null) {
      throw new ApiError(422, 'AMOUNT_NOT_ALLOWED',
        `product ${productId} has a fixed price of ${formatMoney(fixed)}; send no custom_amount`);
    }
    return fixed;
  }
  const range = priceRange(product);
  if (!range) throw new Error(`catalog product ${product.slug} has neither amount nor a range`);
  if (custom === null) {
    throw new ApiError(422, 'AMOUNT_REQUIRED',
      `product ${productId} needs a custom_amount from ${formatMoney(range.min)} to ${formatMoney(range.max)}`);
  }
  const chosen = readAmount(custom, product.currency, reading);
  // What the amount was read as, when that is not simply the number in the product's currency.
  const readAs = reading.units === 'major' && reading.currency === 'product' ? '' : ` (read as ${formatMoney(chosen)})`;
  if (compareMoney(chosen, range.min) < 0) {
    if (reading.bounds === 'clamp') return range.min;
    throw new ApiError(422, 'AMOUNT_OUT_OF_RANGE',
      `custom_amount ${custom}${readAs} is below the product's min_amount ${formatMoney(range.min)}`);
  }
  if (compareMoney(chosen, range.max) > 0) {
    if (reading.bounds === 'clamp') return range.max;
    throw new ApiError(422, 'AMOUNT_OUT_OF_RANGE', `custom_amount ${custom}${readAs} is above the product's max_amount ${formatMoney(range.max)}`);
  }
  return chosen;
}

// custom_amount as the dialect reads it, in the product's currency: a count of minor units or a
// decimal amount, of the account's currency (converted at the account→product rate, rounded
// half-up to the product currency's minor unit) or of the product's.
function readAmount(custom: number, productCurrency: string, reading: AmountReading): Money {
  const currency = reading.currency === 'account' ? reading.accountCurrency : productCurrency;
  let read: Money;
  try {
    read = reading.units === 'minor' ? money(custom, currency) : fromNumber(custom, currency);
  } catch (err) {
    if (!(err instanceof MoneyError)) throw err;
    throw new ApiError(422, 'INVALID_REQUEST', `custom_amount ${custom}: ${err.message}`);
  }
  if (read.currency === productCurrency) return read;
  if (read.minor < 0) throw new ApiError(422, 'INVALID_REQUEST', `custom_amount ${custom} is negative`);
  return decToMoney(mul(moneyToDec(read), exchangeRate(read.currency, productCurrency)), productCurrency);
}

/** JSON with object keys sorted at every level, so key order does not make a retry "different". */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value === 'object' && value !== null) {
    const obj = value as Record<string, unknown>;
    return Object.fromEntries(Object.keys(obj).sort().map((k) => [k, sortKeys(obj[k])]));
  }
  return value;
}
