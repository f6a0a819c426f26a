// List envelopes are "not shown", and the two list endpoints page by different rules.
// This module finds the rows in whatever envelope arrives and decides when paging ends.

import { pageSchema } from './schemas.ts';
import { isRecord, type Ok, type Outcome } from './outcome.ts';
import type { Order, OrderPage, PageInfo, Product, ProductPage } from './types.ts';

const LIST_KEYS = ['content', 'items', 'data', 'results', 'elements', 'list', 'records'];
/** The spec's maximum element_size for GET /v1/orders, and the page size the spec's rule uses. */
export const ORDER_PAGE_SIZE = 500;
export const MAX_ORDER_PAGES = 2000;
export const MAX_PRODUCT_PAGES = 200;

/** The rows of a list response: a top-level array, or the first array under a likely key. */
export function findList(body: unknown, preferred: string, depth = 0): unknown[] | undefined {
  if (Array.isArray(body)) return body;
  if (!isRecord(body)) return undefined;
  for (const key of [preferred, ...LIST_KEYS]) {
    const value = body[key];
    if (Array.isArray(value)) return value;
  }
  // One level of nesting, and no more: `{"data": {"orders": [...]}}`, `{"result": {...}}`. Never
  // deeper: the body comes from outside, and a recursion it controls could exhaust the stack.
  if (depth > 0) return undefined;
  for (const key of ['data', 'result', 'response', 'payload']) {
    const inner = body[key];
    if (isRecord(inner)) {
      const rows = findList(inner, preferred, depth + 1);
      if (rows) return rows;
    }
  }
  return undefined;
}

/** The page object, when one is there; it is optional and only informative. */
export function readPageInfo(body: unknown): PageInfo | undefined {
  if (!isRecord(body)) return undefined;
  const candidates = [body.page, isRecord(body.data) ? body.data.page : undefined, body];
  for (const candidate of candidates) {
    const parsed = pageSchema.safeParse(candidate);
    if (!parsed.success) continue;
    const p = parsed.data;
    const info: PageInfo = {
      index: p.index ?? p.number ?? undefined,
      size: p.size ?? undefined,
      totalSize: p.total_size ?? undefined,
      resultSize: p.result_size ?? undefined,
    };
    if (candidate !== body || info.totalSize !== undefined || info.resultSize !== undefined) return info;
  }
  return undefined;
}

export type FetchProductPage = (page: number) => Promise<Outcome<ProductPage>>;
export type FetchOrderPage = (page: number) => Promise<Outcome<OrderPage>>;

/**
 * Pages the product list. The size cap is "not shown", so a server that returns fewer rows
 * than asked may have clamped the size: a short page ends paging only once we hold
 * `total_size` rows; otherwise an empty page (or a page that adds nothing new) ends it.
 */
export async function collectProducts(
  fetchPage: FetchProductPage,
  requestedSize: number,
  endpoint: string,
): Promise<Outcome<ProductPage>> {
  const byId = new Map<number, Product>();
  const all: ProductPage = { products: [], invalid: [], rowCount: 0, page: undefined };
  for (let page = 0; page < MAX_PRODUCT_PAGES; page += 1) {
    const outcome = await fetchPage(page);
    if (outcome.kind !== 'ok') return outcome;
    const { value } = outcome;
    if (value.rowCount === 0) return { ...outcome, value: finish(all, byId) };
    const before = byId.size + all.invalid.length;
    for (const product of value.products) byId.set(product.id, product);
    all.invalid.push(...value.invalid.map((row) => ({ ...row, index: all.rowCount + row.index })));
    all.rowCount += value.rowCount;
    all.page = value.page;
    // A server that ignores `page` returns the first page again and again.
    if (byId.size + all.invalid.length === before) return { ...outcome, value: finish(all, byId) };
    const total = value.page?.totalSize;
    if (total !== undefined && all.rowCount >= total && value.rowCount < requestedSize) return { ...outcome, value: finish(all, byId) };
  }
  return pagingTooLong(endpoint, MAX_PRODUCT_PAGES);
}

function finish(all: ProductPage, byId: Map<number, Product>): ProductPage {
  return { ...all, products: [...byId.values()] };
}

/**
 * Pages GET /v1/orders by the spec's rule: element_size 500, next page until a page holds
 * fewer rows than that. `page.total_size` ignores the status filter, so it is never used.
 * Yields each page's outcome; stops after the first one that is not ok.
 */
export async function* orderPages(fetchPage: FetchOrderPage, endpoint: string): AsyncGenerator<Outcome<OrderPage>> {
  const seen = new Set<number>();
  for (let page = 0; page < MAX_ORDER_PAGES; page += 1) {
    const outcome = await fetchPage(page);
    yield outcome;
    if (outcome.kind !== 'ok') return;
    if (outcome.value.rowCount < ORDER_PAGE_SIZE) return;
    const fresh = outcome.value.orders.filter((order) => !seen.has(order.id));
    if (fresh.length === 0 && outcome.value.orders.length > 0) {
      yield {
        kind: 'ambiguous',
        reason: 'paging',
        status: outcome.status,
        endpoint,
        message: `${endpoint}: page ${page} repeated orders already seen; the service seems to ignore the page parameter, so the list cannot be read to its end.`,
      };
      return;
    }
    for (const order of outcome.value.orders) seen.add(order.id);
  }
  yield pagingTooLong(endpoint, MAX_ORDER_PAGES);
}

/** Every page of GET /v1/orders, gathered; orders seen twice (rows shifting between pages) kept once. */
export async function collectOrders(fetchPage: FetchOrderPage, endpoint: string): Promise<Outcome<OrderPage>> {
  const byId = new Map<number, Order>();
  const all: OrderPage = { orders: [], invalid: [], rowCount: 0, page: undefined };
  let last: Ok<OrderPage> | undefined;
  for await (const outcome of orderPages(fetchPage, endpoint)) {
    if (outcome.kind !== 'ok') return outcome;
    last = outcome;
    for (const order of outcome.value.orders) if (!byId.has(order.id)) byId.set(order.id, order);
    all.invalid.push(...outcome.value.invalid.map((row) => ({ ...row, index: all.rowCount + row.index })));
    all.rowCount += outcome.value.rowCount;
    all.page = outcome.value.page;
  }
  if (!last) return pagingTooLong(endpoint, 0);
  return { ...last, value: { ...all, orders: [...byId.values()] } };
}

function pagingTooLong(endpoint: string, pages: number): Outcome<never> {
  return {
    kind: 'ambiguous',
    reason: 'paging',
    status: undefined,
    endpoint,
    message: `${endpoint}: still not at the end after ${pages} pages; stopped so as not to loop forever. Check the service's paging.`,
  };
}
