// The product picker's logic: search, orderable first, unorderable ones set aside with their reason,
// records the service describes incompletely listed with their problem (never dropped), where a
// product's currency came from when its record states none, and the conversion to what the shared
// row validation needs.
import type { CallOutput, CampaignSummary, ProductDto } from '../../../shared/contract.ts';
import type { ProductForValidation } from '../../../shared/domain/validation.ts';
import { COUNTRIES } from '../../../shared/domain/countries.ts';
import { toMoney } from './money-display.ts';

export type UnreadableProductDto = CallOutput<'products:list'>['unreadable'][number];

/** Offered first when the organiser is asked for a currency; any other three-letter code can be typed. */
export const COMMON_CURRENCIES: readonly string[] = ['USD', 'EUR', 'GBP', 'KRW', 'JPY'];

export function productLabel(p: ProductDto): string {
  return p.name ?? p.brand ?? `Product ${p.id}`;
}

export function matchesSearch(p: ProductDto, search: string): boolean {
  const q = search.trim().toLowerCase();
  if (q === '') return true;
  return [p.name, p.brand, String(p.id), p.currency].some((s) => s !== null && s.toLowerCase().includes(q));
}

export function unreadableLabel(u: UnreadableProductDto): string {
  return u.name ?? (u.id !== null ? `Product ${u.id}` : 'A product without a name or id');
}

export function unreadableMatchesSearch(u: UnreadableProductDto, search: string): boolean {
  const q = search.trim().toLowerCase();
  if (q === '') return true;
  return [u.name, u.id === null ? null : String(u.id)].some((s) => s !== null && s.toLowerCase().includes(q));
}

/** A currency code as the organiser typed it ("usd ", "Eur"), upper case; null when it is not three letters. */
export function currencyCode(text: string): string | null {
  const code = text.trim().toUpperCase();
  return /^[A-Z]{3}$/.test(code) ? code : null;
}

/** The currencies to offer for a country's catalog: the country's own first, then the common ones. */
export function currencyChoices(country: string): string[] {
  const own = COUNTRIES.find((c) => c.code === country)?.currency;
  return own ? [own, ...COMMON_CURRENCIES.filter((c) => c !== own)] : [...COMMON_CURRENCIES];
}

/**
 * Where a product's currency came from when the service's record states none, in words; null when
 * the service states it. The first order of the campaign confirms it (or pauses the campaign).
 */
export function currencyOrigin(p: Pick<ProductDto, 'currency' | 'currencySource'>): string | null {
  switch (p.currencySource) {
    case 'service':
      return null;
    case 'learned':
      return 'as earlier orders were issued in';
    case 'stated':
      return 'as you chose';
  }
}

export function splitProducts(products: readonly ProductDto[], search: string): { orderable: ProductDto[]; unorderable: ProductDto[] } {
  const orderable: ProductDto[] = [];
  const unorderable: ProductDto[] = [];
  for (const p of products) {
    if (!matchesSearch(p, search)) continue;
    (p.unorderableReason === null ? orderable : unorderable).push(p);
  }
  return { orderable, unorderable };
}

export function productForValidation(p: ProductDto): ProductForValidation | null {
  if (p.price.kind === 'fixed') {
    const amount = toMoney(p.price.amount);
    return amount ? { id: p.id, currency: p.currency, price: { kind: 'fixed', amount } } : null;
  }
  const min = toMoney(p.price.min);
  const max = toMoney(p.price.max);
  return min && max ? { id: p.id, currency: p.currency, price: { kind: 'range', min, max } } : null;
}

/**
 * A product's name where rows or totals name it by id (a gift per row): the catalog the wizard
 * loaded first, else the name the engine recorded (`known`), else "Product 123".
 */
export function productNameFor(productId: number, catalog: readonly ProductDto[], known: string | null = null): string {
  const listed = catalog.find((p) => p.id === productId);
  if (listed) return productLabel(listed);
  return known ?? `Product ${productId}`;
}

/**
 * What a campaign's rows are ordered as, for its screen and the campaigns list alike: its product,
 * or for a gift per row each product its rows use ("A gift per row: Northwind Books, Pinecrest $50").
 * A follow-up whose rows were all another gift said "A gift per row; by default Harborline" where
 * `giftbatch status` listed the products: the summary's productList is what both say now.
 */
export function campaignProductsText(c: Pick<CampaignSummary, 'giftPerRow' | 'productList' | 'productName' | 'productId'>): string {
  if (!c.giftPerRow || c.productList.length === 0) return c.productName ?? `Product ${c.productId}`;
  return `A gift per row: ${c.productList.map((p) => p.name ?? `Product ${p.productId}`).join(', ')}`;
}
