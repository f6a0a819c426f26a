// What a product from the catalog means for a campaign: can it be ordered by e-mail, and the
// snapshot a campaign keeps of it (product ids differ per environment and account).
import type { ProductForValidation } from '../../../shared/domain/validation.ts';
import type { ProductSnapshot } from '../db/repos/campaigns.ts';
import type { Product } from '../service/index.ts';

/**
 * Why a product cannot be ordered by e-mail, or null when it can: only ON_SALE may be ordered, and
 * e-mail delivery needs EMAIL among its delivery methods.
 */
export function unorderableReason(product: Product): string | null {
  if (product.availability !== 'ON_SALE') return `not on sale (${product.availability})`;
  if (!product.deliveryMethods.includes('EMAIL')) {
    return `no e-mail delivery (offers ${product.deliveryMethods.join(', ') || 'none'})`;
  }
  return null;
}

export function snapshotOf(product: Product): ProductSnapshot {
  const common = {
    name: product.name ?? null,
    brand: product.brand ?? null,
    countryCode: product.countryCode ?? null,
    currency: product.currency,
    // Where the currency came from: a stated or learned one is confirmed by the first order.
    currencySource: product.currencySource,
    deliveryMethods: product.deliveryMethods,
    availability: product.availability,
  };
  return product.price.kind === 'fixed'
    ? { priceKind: 'fixed', amountMinor: product.price.amount.minor, ...common }
    : { priceKind: 'range', minMinor: product.price.min.minor, maxMinor: product.price.max.minor, ...common };
}

/** The shape the shared validation needs, from a stored snapshot. */
export function validationProduct(productId: number, snapshot: ProductSnapshot): ProductForValidation {
  const currency = snapshot.currency;
  return {
    id: productId,
    currency,
    name: snapshot.name ?? null,
    price:
      snapshot.priceKind === 'fixed'
        ? { kind: 'fixed', amount: { minor: snapshot.amountMinor, currency } }
        : { kind: 'range', min: { minor: snapshot.minMinor, currency }, max: { minor: snapshot.maxMinor, currency } },
  };
}
