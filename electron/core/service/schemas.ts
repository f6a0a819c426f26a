// zod schemas of what the service returns. Every object is loose: the spec leaves most fields
// "not shown", so unknown ones are kept, and only what we rely on is checked. A broken
// assumption is reported by path ("order.order_item.status: expected string, received undefined").

import { z } from 'zod';
import { fromNumber, parseDecimal, plainDecimal, type Money } from '../../../shared/domain/money.ts';
import type { Order, Product, ProductPrice, StatedAmount } from './types.ts';

export type Parsed<T> = { ok: true; value: T } | { ok: false; issues: string[] };

// Ids are integers in the spec; digit strings are accepted too, as the same id.
const idSchema = z.union([
  z.number().int().nonnegative(),
  z.string().regex(/^\d+$/, 'expected an integer id').transform(Number),
]);
// Amounts are JSON numbers in the spec; a decimal string is read as the same amount.
const amountSchema = z.union([z.number().finite(), z.string().regex(/^\s*-?\d+(\.\d+)?\s*$/, 'expected a number')]);
const rateSchema = z.union([z.number().finite(), z.string().regex(/^\s*\d+(\.\d+)?\s*$/).transform(Number)]);
const optionalText = z.string().nullish();

export const productSchema = z
  .object({
    id: idSchema,
    name: optionalText,
    brand: optionalText,
    country_code: optionalText,
    availability: z.string(),
    available_delivery_method: z.union([z.array(z.string()), z.string().transform((s) => [s])]).nullish(),
    amount: amountSchema.nullish(),
    min_amount: amountSchema.nullish(),
    max_amount: amountSchema.nullish(),
  })
  .loose();

// Only what the engine cannot work without is strict: an order's id, its status and the echo of
// our key. Everything else is read by hand below: an odd value is kept as received and flagged as
// an anomaly, never a reason to lose track of an order that was charged.
export const orderSchema = z
  .object({
    id: idSchema,
    status: z.string(),
    external_reference_id: optionalText,
  })
  .loose();

export const pageSchema = z
  .object({
    index: z.number().int().nullish(),
    number: z.number().int().nullish(),
    size: z.number().int().nullish(),
    total_size: z.number().int().nullish(),
    result_size: z.number().int().nullish(),
  })
  .loose();

function formatIssues(error: z.ZodError, prefix: string): string[] {
  return error.issues.map((issue) => {
    const path = [prefix, ...issue.path.map(String)].join('.');
    return `${path}: ${issue.message.replace(/^Invalid input: /, '')}`;
  });
}

/** Collects money conversion failures as issues instead of throwing. */
class Issues {
  readonly list: string[] = [];
  constructor(private readonly prefix: string) {}
  money(path: string, amount: number | string, currency: string, round = false): Money | undefined {
    try {
      return typeof amount === 'number'
        ? fromNumber(amount, currency, { round })
        : parseDecimal(amount, currency, { round });
    } catch (err) {
      this.add(path, err instanceof Error ? err.message : String(err));
      return undefined;
    }
  }
  add(path: string, message: string): void {
    this.list.push(`${this.prefix}.${path}: ${message}`);
  }
}

const CURRENCY_PATHS: ReadonlyArray<readonly string[]> = [
  ['currency'],
  ['currency_code'],
  ['currencyCode'],
  ['price', 'currency'],
  ['price_currency'],
  ['amount_currency'],
];

/** The spec does not say which field carries a product's currency: look in the likely places. */
export function productCurrency(raw: Record<string, unknown>): string | undefined {
  for (const path of CURRENCY_PATHS) {
    let value: unknown = raw;
    for (const key of path) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
    if (typeof value === 'string' && /^[A-Za-z]{3}$/.test(value.trim())) return value.trim().toUpperCase();
  }
  return undefined;
}

/** The issue of a product record that states no currency (the spec's product table has no such field). */
export const NO_CURRENCY = 'the service does not state its currency (looked at currency, currency_code, price.currency and the like)';

export function parseProduct(raw: unknown, opts: { fallbackCurrency?: string } = {}): Parsed<Product> {
  const result = productSchema.safeParse(raw);
  if (!result.success) return { ok: false, issues: formatIssues(result.error, 'product') };
  const p = result.data;
  const record = p as Record<string, unknown>;
  const issues = new Issues('product');
  const stated = productCurrency(record);
  const currency = stated ?? opts.fallbackCurrency?.toUpperCase();
  if (currency === undefined) {
    issues.add('currency', NO_CURRENCY);
    return { ok: false, issues: issues.list };
  }
  let price: ProductPrice | undefined;
  if (p.amount != null) {
    const amount = issues.money('amount', p.amount, currency);
    if (amount) price = { kind: 'fixed', amount };
  } else if (p.min_amount != null && p.max_amount != null) {
    const min = issues.money('min_amount', p.min_amount, currency);
    const max = issues.money('max_amount', p.max_amount, currency);
    if (min && max) {
      if (min.minor > max.minor) issues.add('min_amount', `min_amount ${p.min_amount} is above max_amount ${p.max_amount}`);
      else price = { kind: 'range', min, max };
    }
  } else {
    issues.add('amount', 'expected amount, or min_amount and max_amount');
  }
  if (!price) return { ok: false, issues: issues.list };
  return {
    ok: true,
    value: {
      id: p.id,
      name: p.name ?? undefined,
      brand: p.brand ?? undefined,
      countryCode: p.country_code ?? undefined,
      currency,
      currencySource: stated === undefined ? 'stated' : 'service',
      availability: p.availability,
      deliveryMethods: p.available_delivery_method ?? [],
      price,
      raw: record,
    },
  };
}

export function parseOrder(raw: unknown): Parsed<Order> {
  const result = orderSchema.safeParse(raw);
  if (!result.success) return { ok: false, issues: formatIssues(result.error, 'order') };
  const o = result.data;
  const record = o as Record<string, unknown>;
  const anomalies: string[] = [];
  const read = new Reader(record, anomalies);
  const hasItem = isObject(record.order_item);
  if (!hasItem) anomalies.push(`order.order_item: ${record.order_item === undefined ? 'missing' : `unexpected ${describeValue(record.order_item)}`}`);
  const price = hasItem ? read.stated('order_item.price') : undefined;
  let charged: Order['charged'];
  // The charge may carry more decimals than the account currency (a converted amount): its exact
  // text is kept for the totals, its minor units rounded only for display.
  const tpc = read.stated('total_price_charged', { round: true });
  if (tpc) {
    const amount = tpc.money;
    if (amount) {
      const rate = read.decimal('total_price_charged.applied_exchange_rate.rate');
      charged = {
        amount,
        text: tpc.text,
        rate,
        from: read.text('total_price_charged.applied_exchange_rate.currency.from'),
        to: read.text('total_price_charged.applied_exchange_rate.currency.to'),
      };
    }
  }
  return {
    ok: true,
    value: {
      id: o.id,
      status: o.status,
      externalReferenceId: o.external_reference_id ?? undefined,
      createdAt: read.text('created_at'),
      item: {
        id: hasItem ? read.id('order_item.id') : undefined,
        status: hasItem ? read.text('order_item.status') : undefined,
        productId: hasItem ? read.id('order_item.product_id', false) : undefined,
        price,
        transactionFeeRate: hasItem ? read.decimal('order_item.transaction_fee_rate') : undefined,
      },
      charged,
      acceptanceExpiresAt: read.text('delivery.recipient.acceptance.expiry_date', false),
      recipientEmail: read.text('delivery.recipient.email', false),
      anomalies,
      raw: record,
    },
  };
}

/**
 * A date-time from the service as epoch ms, NaN when unreadable. One without a zone ("2026-01-22T09:00:00")
 * is read as UTC, as a service's clock means it, not in the zone of the machine reading it.
 */
export function parseServiceTime(text: string): number {
  const trimmed = text.trim();
  const zoneless = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(trimmed);
  return Date.parse(zoneless ? `${trimmed.replace(' ', 'T')}Z` : trimmed);
}

/** Reads optional fields of an order by path, noting each value that is there but odd. */
class Reader {
  constructor(
    private readonly record: Record<string, unknown>,
    private readonly anomalies: string[],
  ) {}

  private at(path: string): unknown {
    let value: unknown = this.record;
    for (const key of path.split('.')) value = isObject(value) ? value[key] : undefined;
    return value;
  }

  private odd(path: string, value: unknown, expected: string): undefined {
    this.anomalies.push(`order.${path}: expected ${expected}, received ${describeValue(value)}`);
    return undefined;
  }

  /** `required`: its absence is an anomaly too (the spec shows the field). */
  text(path: string, required = true): string | undefined {
    const value = this.at(path);
    if (typeof value === 'string') return value;
    if (value == null) return required && value === undefined ? this.odd(path, value, 'text') : undefined;
    return this.odd(path, value, 'text');
  }

  id(path: string, required = true): number | undefined {
    const parsed = idSchema.safeParse(this.at(path));
    if (parsed.success) return parsed.data;
    const value = this.at(path);
    return value == null && !required ? undefined : this.odd(path, value, 'an integer id');
  }

  decimal(path: string): number | undefined {
    const value = this.at(path);
    if (value == null) return undefined;
    const parsed = rateSchema.safeParse(value);
    return parsed.success ? parsed.data : this.odd(path, value, 'a decimal number');
  }

  /**
   * `{amount, currency}` as the service stated it; its money only when both read cleanly (`round`:
   * more decimals than the currency has are rounded, for an amount converted through a rate).
   */
  stated(path: string, opts: { round?: boolean } = {}): StatedAmount | undefined {
    const value = this.at(path);
    if (value == null) return this.odd(path, value, '{ amount, currency }');
    const amount = this.at(`${path}.amount`);
    const currency = this.at(`${path}.currency`);
    const text = decimalTextOf(amount);
    if (text === undefined) return this.odd(`${path}.amount`, amount, 'a number');
    if (typeof currency !== 'string') return this.odd(`${path}.currency`, currency, 'a currency code');
    const money = readMoney(text, currency, opts.round === true);
    if (!money) this.anomalies.push(`order.${path}: ${text} ${currency} is not an amount of a currency we know${opts.round ? '' : ', or has more decimals than it allows'}`);
    return { text, currency, money };
  }
}

/** A JSON amount as plain decimal text: the number's shortest round-trip digits, or a decimal string as sent. */
function decimalTextOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return plainDecimal(value);
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return value.trim();
  return undefined;
}

function readMoney(text: string, currency: string, round: boolean): Money | undefined {
  try {
    return parseDecimal(text, currency, { round });
  } catch {
    return undefined;
  }
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return Array.isArray(value) ? 'a list' : 'an object';
}

const STOCK_KEYS = ['in_stock', 'inStock', 'is_in_stock', 'available', 'is_available', 'isAvailable', 'has_stock'];
const STOCK_STATUS_KEYS = ['stock_status', 'stockStatus', 'stock', 'status', 'quantity', 'available_quantity', 'stock_quantity'];
const AVAILABILITY_MESSAGE_KEYS = ['message', 'detail', 'reason', 'status_message', 'description'];

/**
 * The availability body is "not shown": keep it whole, and read a stock flag and a message
 * where a likely field carries one. `inStock` stays undefined rather than guessed.
 */
export function parseAvailability(raw: unknown): { inStock: boolean | undefined; message: string | undefined } {
  const records = [raw];
  if (isObject(raw)) records.push(raw.data, raw.availability, raw.result, raw.stock);
  let inStock: boolean | undefined;
  let message: string | undefined;
  for (const record of records) {
    if (!isObject(record)) continue;
    for (const key of STOCK_KEYS) {
      const value = record[key];
      if (inStock === undefined && typeof value === 'boolean') inStock = value;
    }
    for (const key of STOCK_STATUS_KEYS) {
      const value = record[key];
      if (inStock !== undefined) break;
      if (typeof value === 'number' && Number.isFinite(value)) inStock = value > 0;
      else if (typeof value === 'string') inStock = stockWord(value);
    }
    for (const key of AVAILABILITY_MESSAGE_KEYS) {
      const value = record[key];
      if (message === undefined && typeof value === 'string' && value.trim() !== '') message = value;
    }
  }
  return { inStock, message };
}

function stockWord(text: string): boolean | undefined {
  const word = text.trim().toUpperCase().replace(/[\s-]+/g, '_');
  if (['IN_STOCK', 'AVAILABLE', 'INSTOCK'].includes(word)) return true;
  if (['OUT_OF_STOCK', 'SOLD_OUT', 'UNAVAILABLE', 'NO_STOCK', 'OUTOFSTOCK', 'NOT_ON_SALE'].includes(word)) return false;
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
