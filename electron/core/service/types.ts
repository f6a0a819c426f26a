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

export interface Product {
  id: number;
  name: string | undefined;
  brand: string | undefined;
  countryCode: string | undefined;
  currency: string;
  /** `ON_SALE` is the only value that permits ordering. */
  availability: string;
  deliveryMethods: string[];
  price: ProductPrice;
  /** The record as received, for the campaign's product snapshot. */
  raw: Record<string, unknown>;
}

export interface ChargedAmount {
  /** Rounded to the account currency's minor units (the service computed it through a rate). */
  amount: Money;
  /** The JSON number as received. */
  rawAmount: number;
  rate: number | undefined;
  from: string | undefined;
  to: string | undefined;
}

export interface OrderItem {
  id: number;
  status: ItemStatus;
  productId: number | undefined;
  price: Money | undefined;
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
