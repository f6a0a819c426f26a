// The JSON shapes the simulator sends (README.md, "Decisions where the spec is silent"), or a
// dialect's other answer where the spec is silent.
// exact decimal text, never from float arithmetic.

import { toNumber } from '../../shared/domain/money.ts';
import { fixedPrice, priceRange, type CatalogProduct } from './catalog.ts';
import { decToNumber } from './decimal.ts';
import type { OrderRecord, Store } from './store.ts';
import type { Dialect } from './types.ts';

export function productJson(p: CatalogProduct, id: number, dialect: Pick<Dialect, 'productCurrencyField'>): Record<string, unknown> {
  const fixed = fixedPrice(p);
  const range = priceRange(p);
  const field = dialect.productCurrencyField;
  return {
    id,
    name: p.name,
    brand: p.brand,
    country_code: p.countryCode,
    ...(field === null ? {} : { [field]: p.currency }),
    availability: p.availability,
    available_delivery_method: [...p.deliveryMethods],
    ...(fixed ? { amount: toNumber(fixed) } : {}),
    ...(range ? { min_amount: toNumber(range.min), max_amount: toNumber(range.max) } : {}),
  };
}

// Stock a 'quantity' service reports for a product it can deliver; any positive number would do.
export const IN_STOCK_QUANTITY = 1000;

export function availabilityJson(p: CatalogProduct, id: number, now: number, dialect: Pick<Dialect, 'availabilityBody'>): Record<string, unknown> {
  const inStock = p.availability === 'ON_SALE' && !p.outOfStock;
  if (dialect.availabilityBody === 'status-word') {
    const status = p.availability !== 'ON_SALE' ? 'NOT_ON_SALE' : inStock ? 'IN_STOCK' : 'OUT_OF_STOCK';
    return { status };
  }
  if (dialect.availabilityBody === 'quantity') {
    return { product: { id }, stock: { quantity: inStock ? IN_STOCK_QUANTITY : 0 } };
  }
  let message: string;
  if (p.availability !== 'ON_SALE') message = `${p.availability}: this product cannot be ordered`;
  else if (p.outOfStock) message = 'ON_SALE but the supplier has no stock: orders are accepted and their items stay PENDING';
  else message = 'ON_SALE and in stock';
  return { product_id: id, availability: p.availability, in_stock: inStock, checked_at: new Date(now).toISOString(), message };
}

/**
 * An order's record. `unpriced` (the dialect's priceLagMs, while the order is younger than it): as a
 * service that issues asynchronously answers at first, without order_item.price and
 * total_price_charged.
 */
export function orderJson(o: OrderRecord, store: Store, unpriced = false): Record<string, unknown> {
  const recipient: Record<string, unknown> = { name: o.delivery.recipient.name, email: o.delivery.recipient.email };
  if (o.expiresAt !== null) recipient['acceptance'] = { expiry_date: new Date(o.expiresAt).toISOString() };
  return {
    id: o.id,
    status: store.orderStatus(o),
    external_reference_id: o.externalReferenceId,
    created_at: new Date(o.createdAt).toISOString(),
    order_item: {
      id: o.itemId,
      status: store.itemStatus(o),
      product_id: o.productId,
      ...(unpriced ? {} : { price: { amount: toNumber(o.price), currency: o.price.currency } }),
      transaction_fee_rate: decToNumber(o.feeRate),
    },
    ...(unpriced
      ? {}
      : {
          total_price_charged: {
            amount: toNumber(o.charged),
            currency: o.charged.currency,
            applied_exchange_rate: { rate: decToNumber(o.rate), currency: { from: o.price.currency, to: o.charged.currency } },
          },
        }),
    delivery: {
      method: o.delivery.method,
      recipient,
      ...(o.delivery.sender ? { sender: { name: o.delivery.sender.name } } : {}),
    },
    ...(o.message !== null ? { message: o.message } : {}),
  };
}

/** An order as a list shows it: its whole record, or (dialect listEntries 'summary') who and where it is, without what was issued, charged or to whom. */
export function listedOrderJson(o: OrderRecord, store: Store, dialect: Pick<Dialect, 'listEntries'>, unpriced = false): Record<string, unknown> {
  if (dialect.listEntries === 'full') return orderJson(o, store, unpriced);
  return {
    id: o.id,
    status: store.orderStatus(o),
    external_reference_id: o.externalReferenceId,
    created_at: new Date(o.createdAt).toISOString(),
    order_item: { id: o.itemId, status: store.itemStatus(o) },
  };
}

/** A list body in the dialect's envelope; `ours` is the field our client expects ('products' or 'orders'). */
export function listJson(ours: 'products' | 'orders', rows: unknown[], page: Record<string, number>, dialect: Pick<Dialect, 'listEnvelope'>): unknown {
  switch (dialect.listEnvelope) {
    case 'products-orders':
      return { [ours]: rows, page };
    case 'data':
      return { data: rows, page };
    case 'items':
      return { items: rows, page };
    case 'bare':
      return rows;
  }
}
