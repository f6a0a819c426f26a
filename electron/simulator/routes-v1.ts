// The /v1 API: route matching and handlers. Handlers are synchronous once the body is read, so
// two concurrent retries of one external_reference_id cannot both create an order.

import { CATALOG, productForId, productIdOffset } from './catalog.ts';
import { parseJsonBody, queryInt, type Reply } from './http-util.ts';
import { amountReading, canonicalJson, externalReferenceOf, parseOrderRequest } from './order-request.ts';
import type { Account, OrderRecord, Store } from './store.ts';
import { ApiError, ITEM_STATUSES, type Dialect, type ItemStatus } from './types.ts';
import { availabilityJson, listedOrderJson, listJson, orderJson, productJson } from './views.ts';

export const PRODUCTS_DEFAULT_SIZE = 20;
export const PRODUCTS_MAX_SIZE = 100;
export const ORDERS_MAX_SIZE = 500;

export interface V1Context {
  store: Store;
  account: Account;
  /** The API key the request presented (product ids derive from it); memory only. */
  key: string;
  now: number;
  url: URL;
  /** Raw body text (POST only). */
  body: string;
  log: (line: string) => void;
  dialect: Readonly<Dialect>;
  /** The dialect's racyKeyCheckMs: the key was looked up when the POST arrived (not found), not again now. */
  keyCheckedOnArrival?: boolean;
}

export interface V1Route {
  /** Stable label for the audit, e.g. "GET /v1/orders/:id". */
  label: string;
  isOrderPost: boolean;
  handle: (ctx: V1Context) => Reply;
}

/** The route for a method and path, a 405 route for a known path, or null (404). */
export function matchV1(method: string, path: string): V1Route | null {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const parts = trimmed.split('/').filter((p) => p !== '');
  if (parts[0] !== 'v1') return null;
  const [, resource, id, sub, ...rest] = parts;
  if (rest.length > 0) return null;
  if (resource === 'products' && id === undefined) return only(method, 'GET', 'GET /v1/products', listProducts);
  if (resource === 'products' && id !== undefined && sub === 'availability') {
    return only(method, 'GET', 'GET /v1/products/:id/availability', (ctx) => availability(ctx, id));
  }
  if (resource === 'orders' && id === undefined) {
    if (method === 'POST') return { label: 'POST /v1/orders', isOrderPost: true, handle: createOrder };
    return only(method, 'GET', 'GET /v1/orders', listOrders);
  }
  if (resource === 'orders' && id !== undefined && sub === undefined) {
    return only(method, 'GET', 'GET /v1/orders/:id', (ctx) => getOrder(ctx, id));
  }
  return null;
}

function only(method: string, want: string, label: string, handle: V1Route['handle']): V1Route {
  if (method === want) return { label, isOrderPost: false, handle };
  return {
    label: `${method} ${label.slice(label.indexOf(' ') + 1)}`,
    isOrderPost: false,
    handle: () => {
      throw new ApiError(405, 'METHOD_NOT_ALLOWED', `${method} is not supported on ${label.slice(label.indexOf(' ') + 1)}; use ${want}`, { allow: want });
    },
  };
}

function listProducts(ctx: V1Context): Reply {
  const q = ctx.url.searchParams;
  const page = queryInt(q, 'page') ?? 0;
  const size = Math.min(PRODUCTS_MAX_SIZE, queryInt(q, 'size') ?? PRODUCTS_DEFAULT_SIZE);
  if (size < 1) throw new ApiError(400, 'BAD_REQUEST', 'query parameter size must be at least 1');
  const country = q.get('country_code')?.trim().toUpperCase();
  const offset = productIdOffset(ctx.key);
  const matching = CATALOG
    .map((p, i) => ({ p, id: offset + i + 1 }))
    .filter(({ p }) => !country || p.countryCode === country);
  const rows = matching.slice(page * size, page * size + size);
  const pageJson = { index: page, size, total_size: matching.length, result_size: matching.length };
  return { status: 200, body: listJson('products', rows.map(({ p, id }) => productJson(p, id, ctx.dialect)), pageJson, ctx.dialect) };
}

function productIdParam(raw: string): number {
  if (!/^\d{1,12}$/.test(raw)) throw new ApiError(404, 'PRODUCT_NOT_FOUND', `"${raw}" is not a product id`);
  return Number(raw);
}

function availability(ctx: V1Context, raw: string): Reply {
  const id = productIdParam(raw);
  const product = productForId(ctx.key, id);
  if (!product) throw new ApiError(404, 'PRODUCT_NOT_FOUND', `no product ${id} in this account's catalog`);
  return { status: 200, body: availabilityJson(product, id, ctx.now, ctx.dialect) };
}

function createOrder(ctx: V1Context): Reply {
  const body = parseJsonBody(ctx.body);
  const ref = externalReferenceOf(body);
  // The dialect's keyCheck 'after-checks': the request, the product's availability and the balance
  // are checked before the key, so a retry of an order already made can be refused (402, 422).
  const checkedFirst = ctx.dialect.keyCheck === 'after-checks' ? parseOrderRequest(body, ctx.key, amountReading(ctx.dialect, ctx.account.currency)) : null;
  if (checkedFirst) ctx.store.checkBalance(ctx.account, checkedFirst);
  if (ref !== null && ctx.keyCheckedOnArrival !== true) {
    // Idempotency comes first (unless keyCheck says otherwise): a retry gets its order back even if
    // the body now differs (recorded for the audit) or would no longer pass validation.
    const existing = ctx.store.findByRef(ctx.account, ref);
    // The dialect's keyMemoryMs: a key whose order is older than that is not recognised any more.
    const remembered = existing !== undefined && (ctx.dialect.keyMemoryMs === null || ctx.now - existing.createdAt < ctx.dialect.keyMemoryMs);
    if (existing && remembered) {
      if (canonicalJson(body) !== existing.fingerprint) ctx.store.recordConflict(ctx.account, existing);
      return { status: 200, body: orderJson(existing, ctx.store, unpriced(ctx, existing)) };
    }
  }
  const draft = checkedFirst ?? parseOrderRequest(body, ctx.key, amountReading(ctx.dialect, ctx.account.currency));
  const order = ctx.store.createOrder(ctx.account, draft);
  if (order.externalReferenceId === null) {
    ctx.log(`order ${order.id} was created without an external_reference_id; a retry of it cannot be recognised`);
  }
  return { status: 200, body: orderJson(order, ctx.store, unpriced(ctx, order)) };
}

/** The dialect's priceLagMs: an order younger than that has no price or charge in its record yet. */
function unpriced(ctx: V1Context, order: OrderRecord): boolean {
  // ctx.now is read as the request arrives, so an order this request created may look a little younger.
  return ctx.dialect.priceLagMs > 0 && ctx.now - order.createdAt < ctx.dialect.priceLagMs;
}

function getOrder(ctx: V1Context, raw: string): Reply {
  const id = /^\d{1,12}$/.test(raw) ? Number(raw) : NaN;
  const order = Number.isNaN(id) ? undefined : ctx.store.findOrder(ctx.account, id);
  if (!order) throw new ApiError(404, 'ORDER_NOT_FOUND', `no order ${raw} in this account`);
  return { status: 200, body: orderJson(order, ctx.store, unpriced(ctx, order)) };
}

function listOrders(ctx: V1Context): Reply {
  const q = ctx.url.searchParams;
  const page = queryInt(q, 'page');
  const size = queryInt(q, 'element_size');
  if (page === undefined) throw new ApiError(400, 'BAD_REQUEST', 'query parameter page is required (zero-based)');
  if (size === undefined) throw new ApiError(400, 'BAD_REQUEST', `query parameter element_size is required (1 to ${ORDERS_MAX_SIZE})`);
  if (size < 1 || size > ORDERS_MAX_SIZE) {
    throw new ApiError(400, 'BAD_REQUEST', `element_size ${size} is out of range; it must be 1 to ${ORDERS_MAX_SIZE}`);
  }
  const statusRaw = q.get('order_item_status');
  let itemStatus: ItemStatus | undefined;
  if (statusRaw !== null) {
    itemStatus = ITEM_STATUSES.find((s) => s === statusRaw.trim().toUpperCase());
    if (!itemStatus) {
      throw new ApiError(400, 'BAD_REQUEST', `order_item_status "${statusRaw}" is not one of ${ITEM_STATUSES.join(', ')}`);
    }
  }
  const ref = q.get('external_reference_id');
  const lag = ctx.dialect.listLagMs;
  const result = ctx.store.listOrders(ctx.account, {
    page,
    size,
    // A lagging list index: orders younger than the lag are not in it yet, under any filter.
    ...(lag > 0 ? { listedBy: ctx.now - lag } : {}),
    ...(ctx.dialect.listOrder === 'newest-first' ? { newestFirst: true } : {}),
    ...(itemStatus ? { itemStatus } : {}),
    ...(ref !== null ? { externalReferenceId: ref } : {}),
    // The dialect's listWindowMs: without a date range, only the recent orders are listed.
    ...(ctx.dialect.listWindowMs !== null ? { createdFrom: ctx.now - ctx.dialect.listWindowMs } : {}),
    ...dateParam(q, 'created_from', 'createdFrom'),
    ...dateParam(q, 'created_to', 'createdTo'),
  });
  const pageJson = { index: page, size, total_size: result.totalSize, result_size: result.resultSize };
  return { status: 200, body: listJson('orders', result.rows.map((o) => listedOrderJson(o, ctx.store, ctx.dialect, unpriced(ctx, o))), pageJson, ctx.dialect) };
}

function dateParam<K extends string>(q: URLSearchParams, name: string, as: K): Partial<Record<K, number>> {
  const raw = q.get(name);
  if (raw === null) return {};
  const ms = Date.parse(raw);
  if (Number.isNaN(ms)) {
    throw new ApiError(400, 'BAD_REQUEST', `${name}="${raw}" is not an ISO 8601 date-time (e.g. 2025-01-31T00:00:00Z)`);
  }
  return { [as]: ms } as Partial<Record<K, number>>;
}
