// zod schemas of what the service returns. Every object is loose: the spec leaves most fields
// "not shown", so unknown ones are kept, and only what we rely on is checked. A broken
// assumption is reported by path ("order.order_item.status: expected string, received undefined").

import { z } from 'zod';
import { fromNumber, parseDecimal, type Money } from '../../../shared/domain/money.ts';
import type { Order, Product, ProductPrice } from './types.ts';

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

const moneySchema = z.object({ amount: amountSchema, currency: z.string() }).loose();

export const orderItemSchema = z
  .object({
    id: idSchema,
    status: z.string(),
    product_id: idSchema.nullish(),
    price: moneySchema.nullish(),
    transaction_fee_rate: rateSchema.nullish(),
  })
  .loose();

export const orderSchema = z
  .object({
    id: idSchema,
    status: z.string(),
    external_reference_id: optionalText,
    created_at: optionalText,
    order_item: orderItemSchema,
    total_price_charged: z
      .object({
        amount: amountSchema,
        currency: z.string(),
        applied_exchange_rate: z
          .object({
            rate: rateSchema.nullish(),
            currency: z.object({ from: optionalText, to: optionalText }).loose().nullish(),
          })
          .loose()
          .nullish(),
      })
      .loose()
      .nullish(),
    delivery: z
      .object({
        recipient: z
          .object({ acceptance: z.object({ expiry_date: optionalText }).loose().nullish() })
          .loose()
          .nullish(),
      })
      .loose()
      .nullish(),
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

export function parseProduct(raw: unknown, opts: { fallbackCurrency?: string } = {}): Parsed<Product> {
  const result = productSchema.safeParse(raw);
  if (!result.success) return { ok: false, issues: formatIssues(result.error, 'product') };
  const p = result.data;
  const record = p as Record<string, unknown>;
  const issues = new Issues('product');
  const currency = productCurrency(record) ?? opts.fallbackCurrency?.toUpperCase();
  if (currency === undefined) {
    issues.add('currency', 'no currency in the product (looked at currency, currency_code, price.currency) and no fallback given');
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
  const issues = new Issues('order');
  const item = o.order_item;
  const price = item.price ? issues.money('order_item.price.amount', item.price.amount, item.price.currency) : undefined;
  const tpc = o.total_price_charged;
  let charged: Order['charged'];
  if (tpc) {
    // The service converted through an exchange rate: round to the account currency's minor units.
    const amount = issues.money('total_price_charged.amount', tpc.amount, tpc.currency, true);
    if (amount) {
      charged = {
        amount,
        rawAmount: Number(tpc.amount),
        rate: tpc.applied_exchange_rate?.rate ?? undefined,
        from: tpc.applied_exchange_rate?.currency?.from ?? undefined,
        to: tpc.applied_exchange_rate?.currency?.to ?? undefined,
      };
    }
  }
  if (issues.list.length > 0) return { ok: false, issues: issues.list };
  return {
    ok: true,
    value: {
      id: o.id,
      status: o.status,
      externalReferenceId: o.external_reference_id ?? undefined,
      createdAt: o.created_at ?? undefined,
      item: {
        id: item.id,
        status: item.status,
        productId: item.product_id ?? undefined,
        price,
        transactionFeeRate: item.transaction_fee_rate ?? undefined,
      },
      charged,
      acceptanceExpiresAt: o.delivery?.recipient?.acceptance?.expiry_date ?? undefined,
      raw: o as Record<string, unknown>,
    },
  };
}

const STOCK_KEYS = ['in_stock', 'inStock', 'is_in_stock', 'available', 'is_available', 'isAvailable', 'has_stock'];
const STOCK_STATUS_KEYS = ['stock_status', 'stockStatus', 'stock', 'status'];
const AVAILABILITY_MESSAGE_KEYS = ['message', 'detail', 'reason', 'status_message', 'description'];

/**
 * The availability body is "not shown": keep it whole, and read a stock flag and a message
 * where a likely field carries one. `inStock` stays undefined rather than guessed.
 */
export function parseAvailability(raw: unknown): { inStock: boolean | undefined; message: string | undefined } {
  const records = [raw];
  if (isObject(raw)) records.push(raw.data, raw.availability, raw.result);
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
  if (['OUT_OF_STOCK', 'SOLD_OUT', 'UNAVAILABLE', 'NO_STOCK', 'OUTOFSTOCK'].includes(word)) return false;
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
