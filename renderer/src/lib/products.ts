// The product picker's logic: search, orderable first, unorderable ones set aside with their reason,
// and the conversion to what the shared row validation needs.
import type { ProductDto } from '../../../shared/contract.ts';
import type { ProductForValidation } from '../../../shared/domain/validation.ts';
import { toMoney } from './money-display.ts';

export function productLabel(p: ProductDto): string {
  return p.name ?? p.brand ?? `Product ${p.id}`;
}

export function matchesSearch(p: ProductDto, search: string): boolean {
  const q = search.trim().toLowerCase();
  if (q === '') return true;
  return [p.name, p.brand, String(p.id), p.currency].some((s) => s !== null && s.toLowerCase().includes(q));
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
