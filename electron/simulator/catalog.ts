// The simulator's catalog. Every brand is invented. Each product has a stable slug so tests can
// name "the out-of-stock product" without knowing its id, because ids differ per API key (as the
// spec says they differ per account), derived from a hash of the key so they survive restarts.

import { createHash } from 'node:crypto';
import { parseDecimal, type Money } from '../../shared/domain/money.ts';
import { dec, mul, ONE, type Decimal } from './decimal.ts';

export type Availability = 'ON_SALE' | 'SOLD_OUT' | 'DISCONTINUED';

export interface CatalogProduct {
  readonly slug: string;
  readonly name: string;
  readonly brand: string;
  readonly countryCode: string;
  readonly currency: string;
  readonly availability: Availability;
  readonly deliveryMethods: readonly string[];
  /** Fixed price (decimal text in the product currency); absent for range products. */
  readonly amount?: string;
  readonly minAmount?: string;
  readonly maxAmount?: string;
  /** ON_SALE in the catalog, but the supplier has nothing: orders succeed, items stay PENDING. */
  readonly outOfStock?: boolean;
  /** The recipient enters their own delivery details through a link that expires. */
  readonly recipientDetails?: boolean;
}

type Def = Omit<CatalogProduct, 'availability' | 'deliveryMethods'> &
  Partial<Pick<CatalogProduct, 'availability' | 'deliveryMethods'>>;

const DEFS: readonly Def[] = [
  { slug: 'us-fixed-10', name: 'Brightleaf Coffee eGift $10', brand: 'Brightleaf Coffee', countryCode: 'US', currency: 'USD', amount: '10' },
  { slug: 'us-fixed-25', name: 'Northwind Books Gift Card $25', brand: 'Northwind Books', countryCode: 'US', currency: 'USD', amount: '25' },
  { slug: 'us-fixed-50', name: 'Pinecrest Outfitters $50', brand: 'Pinecrest Outfitters', countryCode: 'US', currency: 'USD', amount: '50' },
  { slug: 'us-fixed-cents', name: 'Cobalt Tea House $12.50', brand: 'Cobalt Tea House', countryCode: 'US', currency: 'USD', amount: '12.5' },
  { slug: 'us-range', name: 'Harborline Market eGift', brand: 'Harborline Market', countryCode: 'US', currency: 'USD', minAmount: '5', maxAmount: '500' },
  { slug: 'us-out-of-stock', name: 'Lumen Cinema Ticket $15', brand: 'Lumen Cinema', countryCode: 'US', currency: 'USD', amount: '15', outOfStock: true },
  { slug: 'us-recipient-details', name: 'Voyager Travel Voucher $100', brand: 'Voyager Travel', countryCode: 'US', currency: 'USD', amount: '100', recipientDetails: true },
  { slug: 'us-not-on-sale', name: 'Maple & Reed Spa Day $75', brand: 'Maple & Reed', countryCode: 'US', currency: 'USD', amount: '75', availability: 'SOLD_OUT' },
  { slug: 'us-discontinued', name: 'Pixelgrove Arcade Pass $20', brand: 'Pixelgrove', countryCode: 'US', currency: 'USD', amount: '20', availability: 'DISCONTINUED' },
  { slug: 'us-no-email', name: 'Quickcharge Mobile Top-up $10', brand: 'Quickcharge', countryCode: 'US', currency: 'USD', amount: '10', deliveryMethods: ['SMS'] },
  { slug: 'kr-fixed-krw', name: 'Hanbit Cafe Mobile Voucher 30,000 KRW', brand: 'Hanbit Cafe', countryCode: 'KR', currency: 'KRW', amount: '30000' },
  { slug: 'kr-fixed-krw-10000', name: 'Dalbit Bakery Voucher 10,000 KRW', brand: 'Dalbit Bakery', countryCode: 'KR', currency: 'KRW', amount: '10000' },
  { slug: 'kr-range-krw', name: 'Nuri Department Store Gift', brand: 'Nuri Department Store', countryCode: 'KR', currency: 'KRW', minAmount: '5000', maxAmount: '500000' },
  { slug: 'gb-fixed-gbp', name: 'Thistle & Rose Books £20', brand: 'Thistle & Rose', countryCode: 'GB', currency: 'GBP', amount: '20' },
  { slug: 'gb-range-gbp', name: 'Kingsmere Grocer eGift', brand: 'Kingsmere Grocer', countryCode: 'GB', currency: 'GBP', minAmount: '10', maxAmount: '250' },
  { slug: 'de-fixed-eur', name: 'Bergquell Kaufhaus Gutschein 25 €', brand: 'Bergquell Kaufhaus', countryCode: 'DE', currency: 'EUR', amount: '25' },
  { slug: 'de-range-eur', name: 'Lindenhof Reisen Gutschein', brand: 'Lindenhof Reisen', countryCode: 'DE', currency: 'EUR', minAmount: '10', maxAmount: '200' },
  { slug: 'jp-fixed-jpy', name: 'Sakura Lane Gift 3,000 JPY', brand: 'Sakura Lane', countryCode: 'JP', currency: 'JPY', amount: '3000' },
  { slug: 'jp-range-jpy', name: 'Komorebi Books Gift', brand: 'Komorebi Books', countryCode: 'JP', currency: 'JPY', minAmount: '1000', maxAmount: '50000' },
];

export const CATALOG: readonly CatalogProduct[] = DEFS.map((d) => ({
  availability: 'ON_SALE',
  deliveryMethods: ['EMAIL'],
  ...d,
}));

export type CatalogSlug = (typeof DEFS)[number]['slug'];

const INDEX_BY_SLUG = new Map(CATALOG.map((p, i) => [p.slug, i]));

// Leaves room for this many products per key before ids of different keys could interleave.
const ID_STRIDE = 100;
const OFFSET_BASE = 100_000;
const OFFSET_SLOTS = 90_000;

// Memoised: every request and every replayed order asks, and a hash per call adds up.
const offsets = new Map<string, number>();

/** The first product id of a key's catalog, minus one. Stable across restarts. */
export function productIdOffset(key: string): number {
  let offset = offsets.get(key);
  if (offset === undefined) {
    const hash = createHash('sha256').update(key, 'utf8').digest();
    offset = OFFSET_BASE + (hash.readUInt32BE(0) % OFFSET_SLOTS) * ID_STRIDE;
    offsets.set(key, offset);
  }
  return offset;
}

export function productIdFor(key: string, slug: string): number {
  const index = INDEX_BY_SLUG.get(slug);
  if (index === undefined) throw new Error(`no simulator product has the slug "${slug}"`);
  return productIdOffset(key) + index + 1;
}

export function productBySlug(slug: string): CatalogProduct {
  const index = INDEX_BY_SLUG.get(slug);
  const product = index === undefined ? undefined : CATALOG[index];
  if (!product) throw new Error(`no simulator product has the slug "${slug}"`);
  return product;
}

export function productForId(key: string, id: number): CatalogProduct | undefined {
  return CATALOG[id - productIdOffset(key) - 1];
}

/**
 * The product a stored order names by slug and id, when the id is that slug's id in *some* key's
 * catalog. The state file holds a hash of the key, not the key (account-id.ts), so a replay cannot
 * recompute the key's offset; it checks that the id fits the catalog's layout instead.
 */
export function productForStoredId(slug: string, id: number): CatalogProduct | undefined {
  const index = INDEX_BY_SLUG.get(slug);
  if (index === undefined) return undefined;
  const offset = id - index - 1;
  const step = offset - OFFSET_BASE;
  const valid = Number.isSafeInteger(step) && step >= 0 && step % ID_STRIDE === 0 && step / ID_STRIDE < OFFSET_SLOTS;
  return valid ? CATALOG[index] : undefined;
}

export function fixedPrice(p: CatalogProduct): Money | undefined {
  return p.amount === undefined ? undefined : parseDecimal(p.amount, p.currency);
}

export function priceRange(p: CatalogProduct): { min: Money; max: Money } | undefined {
  if (p.minAmount === undefined || p.maxAmount === undefined) return undefined;
  return { min: parseDecimal(p.minAmount, p.currency), max: parseDecimal(p.maxAmount, p.currency) };
}

// Buying and selling rates are quoted separately (as a real desk does), so X→USD and USD→X are
// not exact inverses. A cross rate is the exact product of the two legs: no rounding, so a client
// can recompute every charge from the rate it is shown.
const TO_USD: Readonly<Record<string, string>> = {
  KRW: '0.00075', EUR: '1.08', GBP: '1.27', JPY: '0.0067',
};
const FROM_USD: Readonly<Record<string, string>> = {
  KRW: '1350', EUR: '0.925', GBP: '0.79', JPY: '150',
};

export const SUPPORTED_CURRENCIES: readonly string[] = ['USD', ...Object.keys(TO_USD)];

export function exchangeRate(from: string, to: string): Decimal {
  if (from === to) return ONE;
  const toUsd = from === 'USD' ? '1' : TO_USD[from];
  const fromUsd = to === 'USD' ? '1' : FROM_USD[to];
  if (toUsd === undefined || fromUsd === undefined) {
    throw new Error(`the simulator has no exchange rate from ${from} to ${to}`);
  }
  return mul(dec(toUsd), dec(fromUsd));
}

/** Fee on a cross-currency order; same-currency orders carry none. */
export const CROSS_CURRENCY_FEE_RATE = '0.02';
