// Our own names for what the service returns: camelCase, money as integer minor units.
// Unknown status strings are kept as they came (the spec says other values are "not shown").

import type { Money } from '../../../shared/domain/money.ts';

export type KnownOrderStatus = 'COMPLETED' | 'PAYMENT_PENDING' | 'PAYMENT_EXPIRED' | 'CANCELLED';
export type KnownItemStatus = 'PENDING' | 'COMPLETED' | 'CANCELLED';
// `string & {}` keeps the known values in editor hints while accepting any other string.
export type OrderStatus = KnownOrderStatus | (string & {});
export type ItemStatus = KnownItemStatus | (string & {});

export type ProductPrice =
  | { kind: 'fixed'; amount: Money }
  | { kind: 'range'; min: Money; max: Money };

/**
 * Where a product's currency came from: the service's own record; or, since the spec's product
 * table has no currency field, the organiser ('stated'), or the item price currency of earlier
 * orders of the same product or country on this service ('learned'). The first order's item price
 * confirms a currency the service did not state, or pauses the campaign.
 */
export type CurrencySource = 'service' | 'stated' | 'learned';

export interface Product {
  id: number;
  name: string | undefined;
  brand: string | undefined;
  countryCode: string | undefined;
  currency: string;
  currencySource: CurrencySource;
  /** `ON_SALE` is the only value that permits ordering. */
  availability: string;
  deliveryMethods: string[];
  price: ProductPrice;
  /** The record as received, for the campaign's product snapshot. */
  raw: Record<string, unknown>;
}

/** An amount as the service stated it: its decimal text and currency code exactly as received. */
export interface StatedAmount {
  /** Plain decimal text ("7.4925", never "7.4925e0"): the JSON number's own digits, or the string sent. */
  text: string;
  currency: string;
  /** In minor units when the text fits the currency's decimals and the code is one; else undefined (flagged). */
  money: Money | undefined;
}

export interface ChargedAmount {
  /** Rounded to the account currency's minor units, for display and per-row sorting only. */
  amount: Money;
  /** The exact decimal text the service sent: totals are sums of these. */
  text: string;
  rate: number | undefined;
  from: string | undefined;
  to: string | undefined;
}

export interface OrderItem {
  id: number | undefined;
  status: ItemStatus | undefined;
  productId: number | undefined;
  /** What the service says it issued: the item's price, as received. */
  price: StatedAmount | undefined;
  transactionFeeRate: number | undefined;
}

export interface Order {
  id: number;
  status: OrderStatus;
  externalReferenceId: string | undefined;
  createdAt: string | undefined;
  item: OrderItem;
  charged: ChargedAmount | undefined;
  /** When the recipient's acceptance link expires (recipient-enters-details flow), ISO text. */
  acceptanceExpiresAt: string | undefined;
  /** The recipient e-mail the answer echoes, when it does (the spec does not show one). */
  recipientEmail: string | undefined;
  /**
   * Values we could not read, kept as received: "order_item.price.amount: 5.001 has more decimals
   * than USD allows". Only an order's id, status and key echo are strict; the rest never makes a
   * charged order unreadable.
   */
  anomalies: string[];
  raw: Record<string, unknown>;
}

export interface PageInfo {
  index: number | undefined;
  size: number | undefined;
  /** Ignores the order_item_status filter: never compute a page count from it. */
  totalSize: number | undefined;
  resultSize: number | undefined;
}

/** A row of a list that could not be read; the rest of the list still counts. */
export interface InvalidRow {
  index: number;
  raw: unknown;
  issues: string[];
}

export interface ProductPage {
  products: Product[];
  invalid: InvalidRow[];
  /** Rows the service returned, readable or not: paging decisions use this. */
  rowCount: number;
  page: PageInfo | undefined;
}

export interface OrderPage {
  orders: Order[];
  invalid: InvalidRow[];
  rowCount: number;
  page: PageInfo | undefined;
}

export interface Availability {
  /** Best effort: the body is "not shown". Undefined when nothing in it says. */
  inStock: boolean | undefined;
  message: string | undefined;
  raw: unknown;
}

export interface OrderRequest {
  productId: number;
  /** Only for range-priced products, in the product's currency. */
  customAmount?: Money;
  deliveryMethod?: string;
  recipient: { name: string; email: string };
  sender: { name: string };
  message?: string;
  externalReferenceId: string;
}
