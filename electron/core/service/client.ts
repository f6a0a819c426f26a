// The typed client for every endpoint of the gift service. A single-attempt layer: each call
// goes through the environment's rate limiter, makes one request, and returns an Outcome.

import { plural } from '../../../shared/domain/plural.ts';
import { systemClock, type Clock } from '../clock.ts';
import { attempt, type AttemptEvent, type HttpOptions } from './http.ts';
import { serializeOrderRequest } from './order-request.ts';
import { collectOrders, collectProducts, findList, orderPages, ORDER_PAGE_SIZE, readPageInfo } from './paging.ts';
import type { RateLimiter } from './rate-limiter.ts';
import { parseAvailability, parseOrder, parseProduct, type Parsed } from './schemas.ts';
import type { Outcome } from './outcome.ts';
import type { Availability, InvalidRow, Order, OrderPage, OrderRequest, ProductPage } from './types.ts';

export interface ServiceClientOptions {
  /** e.g. `http://127.0.0.1:4010`; API paths (`/v1/...`) are resolved against it. */
  baseUrl: string;
  apiKey: string;
  limiter: RateLimiter;
  clock?: Clock;
  /** Per request, from the moment it leaves the limiter to the end of the body. */
  timeoutMs?: number;
  defaultRetryAfterMs?: number;
  /** Page size asked of GET /v1/products (its maximum is "not shown"). */
  productPageSize?: number;
  /** Called once per HTTP attempt, for the caller's log. Carries no key. */
  onAttempt?: (event: AttemptEvent) => void;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** The caller has already taken this request's token from the client's own limiter. */
  tokenTaken?: boolean;
}

export interface ProductQuery {
  country?: string;
  page?: number;
  size?: number;
  /** Used when a product carries no currency field of its own. */
  fallbackCurrency?: string;
}

export interface OrderFilter {
  itemStatus?: string;
  externalReferenceId?: string;
  /** Further query parameters sent as given (the date range's names are "not shown"). */
  params?: Record<string, string | number>;
}

export interface OrderListQuery extends OrderFilter {
  page: number;
  elementSize: number;
}

export interface OrderLookup {
  /** The order created under the key, or null when the service has none. */
  order: Order | null;
  /** Further orders echoing the same key: should never happen, and must be shown if it does. */
  duplicates: Order[];
}

export interface ServiceClient {
  /**
   * How long one request may take before it is given up as a timeout (ServiceClientOptions.timeoutMs).
   * A POST given up may still be processed at the service: the send queue waits at least this long
   * after one before anything else happens to its row.
   */
  readonly timeoutMs?: number;
  listProducts(query?: ProductQuery, opts?: CallOptions): Promise<Outcome<ProductPage>>;
  listAllProducts(country?: string, opts?: CallOptions & { fallbackCurrency?: string }): Promise<Outcome<ProductPage>>;
  getAvailability(productId: number, opts?: CallOptions): Promise<Outcome<Availability>>;
  /** Accepts the request, or the exact bytes from `serializeOrderRequest` stored with the row. */
  createOrder(request: OrderRequest | string, opts?: CallOptions): Promise<Outcome<Order>>;
  getOrder(orderId: number, opts?: CallOptions): Promise<Outcome<Order>>;
  listOrders(query: OrderListQuery, opts?: CallOptions): Promise<Outcome<OrderPage>>;
  orderPages(filter?: OrderFilter, opts?: CallOptions): AsyncGenerator<Outcome<OrderPage>>;
  listAllOrders(filter?: OrderFilter, opts?: CallOptions): Promise<Outcome<OrderPage>>;
  findOrderByReference(externalReferenceId: string, opts?: CallOptions): Promise<Outcome<OrderLookup>>;
}

const API_KEY_SHAPE = /^[\x21-\x7e]+$/;

export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  if (!API_KEY_SHAPE.test(options.apiKey)) {
    // Never quote the key: this message may end up in a log.
    throw new TypeError('The API key is empty or contains spaces or characters that cannot be sent in a header. Set it again.');
  }
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch {
    throw new TypeError(`The service address "${options.baseUrl}" is not a URL. Check the environment's base URL.`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new TypeError(`The service address "${options.baseUrl}" must start with http:// or https://.`);
  }
  const http: HttpOptions = {
    baseUrl: options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`,
    apiKey: options.apiKey,
    limiter: options.limiter,
    clock: options.clock ?? systemClock,
    timeoutMs: options.timeoutMs ?? 15_000,
    defaultRetryAfterMs: options.defaultRetryAfterMs ?? 1_000,
    ...(options.onAttempt ? { onAttempt: options.onAttempt } : {}),
  };
  const productPageSize = options.productPageSize ?? 100;

  const get = <T>(path: string, parse: (json: unknown) => Parsed<T>, opts?: CallOptions) =>
    attempt(http, { method: 'GET', path, parse, ...(opts?.signal ? { signal: opts.signal } : {}) });

  function listProducts(query: ProductQuery = {}, opts?: CallOptions): Promise<Outcome<ProductPage>> {
    const size = query.size ?? productPageSize;
    const path = withQuery('/v1/products', { country_code: query.country, page: query.page ?? 0, size });
    const fallback = query.fallbackCurrency === undefined ? {} : { fallbackCurrency: query.fallbackCurrency };
    return get(path, (json) => readRows(json, 'products', (row) => parseProduct(row, fallback), (rows, invalid, page) => ({ products: rows, invalid, rowCount: rows.length + invalid.length, page })), opts);
  }

  function listOrders(query: OrderListQuery, opts?: CallOptions): Promise<Outcome<OrderPage>> {
    if (!Number.isInteger(query.elementSize) || query.elementSize < 1 || query.elementSize > ORDER_PAGE_SIZE) {
      throw new RangeError(`element_size must be between 1 and ${ORDER_PAGE_SIZE} (got ${query.elementSize}).`);
    }
    const path = withQuery('/v1/orders', {
      page: query.page,
      element_size: query.elementSize,
      order_item_status: query.itemStatus,
      external_reference_id: query.externalReferenceId,
      ...query.params,
    });
    return get(path, (json) => readRows(json, 'orders', parseOrder, (rows, invalid, page) => ({ orders: rows, invalid, rowCount: rows.length + invalid.length, page })), opts);
  }

  const fetchOrderPage = (filter: OrderFilter, opts?: CallOptions) => (page: number) =>
    listOrders({ ...filter, page, elementSize: ORDER_PAGE_SIZE }, opts);

  return {
    timeoutMs: http.timeoutMs,
    listProducts,
    listAllProducts(country, opts) {
      const query = { ...(country ? { country } : {}), ...(opts?.fallbackCurrency ? { fallbackCurrency: opts.fallbackCurrency } : {}) };
      return collectProducts((page) => listProducts({ ...query, page, size: productPageSize }, opts), productPageSize, `GET /v1/products${country ? `?country_code=${country}` : ''}`);
    },
    getAvailability(productId, opts) {
      return get(`/v1/products/${checkId(productId)}/availability`, (json) => ({ ok: true, value: { ...parseAvailability(json), raw: json } }), opts);
    },
    createOrder(request, opts) {
      const body = typeof request === 'string' ? request : serializeOrderRequest(request);
      return attempt(http, { method: 'POST', path: '/v1/orders', body, parse: parseOrder, tokenTaken: opts?.tokenTaken === true, ...(opts?.signal ? { signal: opts.signal } : {}) });
    },
    getOrder(orderId, opts) {
      return get(`/v1/orders/${checkId(orderId)}`, parseOrder, opts);
    },
    listOrders,
    orderPages(filter = {}, opts) {
      return orderPages(fetchOrderPage(filter, opts), `GET ${withQuery('/v1/orders', { order_item_status: filter.itemStatus, external_reference_id: filter.externalReferenceId })}`);
    },
    listAllOrders(filter = {}, opts) {
      return collectOrders(fetchOrderPage(filter, opts), `GET ${withQuery('/v1/orders', { order_item_status: filter.itemStatus, external_reference_id: filter.externalReferenceId })}`);
    },
    async findOrderByReference(externalReferenceId, opts) {
      const outcome = await collectOrders(fetchOrderPage({ externalReferenceId }, opts), `GET /v1/orders?external_reference_id=${encodeURIComponent(externalReferenceId)}`);
      if (outcome.kind !== 'ok') return outcome;
      // A server that ignores the filter returns every order: trust only the echoed key.
      const matches = outcome.value.orders.filter((o) => o.externalReferenceId === externalReferenceId).sort((a, b) => a.id - b.id);
      const unechoed = outcome.value.orders.filter((o) => o.externalReferenceId === undefined).length;
      if (matches.length === 0 && unechoed > 0) {
        // Rows that do not echo any key cannot tell us ours is absent: one of them may be it.
        return {
          kind: 'ambiguous',
          reason: 'schema',
          status: outcome.status,
          endpoint: outcome.endpoint,
          message: `${outcome.endpoint}: ${plural(unechoed, 'order')} in the answer ${unechoed === 1 ? 'does not echo its' : 'do not echo their'} external_reference_id, so the absence of this key proves nothing.`,
        };
      }
      const unreadable = outcome.value.invalid.filter((row) => echoedReference(row.raw) === externalReferenceId);
      if (unreadable.length > 0) {
        return {
          kind: 'ambiguous',
          reason: 'schema',
          status: outcome.status,
          endpoint: outcome.endpoint,
          message: `${outcome.endpoint}: an order under this key exists but could not be read: ${unreadable[0]?.issues.join('; ')}.`,
          raw: unreadable[0]?.raw,
          issues: unreadable.flatMap((row) => row.issues),
        };
      }
      return { ...outcome, value: { order: matches[0] ?? null, duplicates: matches.slice(1) } };
    },
  };
}

function readRows<T, P>(
  json: unknown,
  key: string,
  parseRow: (row: unknown) => Parsed<T>,
  build: (rows: T[], invalid: InvalidRow[], page: ReturnType<typeof readPageInfo>) => P,
): Parsed<P> {
  const list = findList(json, key);
  if (!list) return { ok: false, issues: [`${key}: no list found (looked for a top-level array, or an array under "${key}", "content", "items", "data", "results", "elements")`] };
  const rows: T[] = [];
  const invalid: InvalidRow[] = [];
  list.forEach((row, index) => {
    const parsed = parseRow(row);
    if (parsed.ok) rows.push(parsed.value);
    else invalid.push({ index, raw: row, issues: parsed.issues.map((issue) => `${key}[${index}] ${issue}`) });
  });
  return { ok: true, value: build(rows, invalid, readPageInfo(json)) };
}

function echoedReference(raw: unknown): unknown {
  return typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>).external_reference_id : undefined;
}

function withQuery(path: string, params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) search.set(name, String(value));
  const text = search.toString();
  return text === '' ? path : `${path}?${text}`;
}

function checkId(id: number): number {
  if (!Number.isSafeInteger(id) || id < 0) throw new RangeError(`An id must be a whole number (got ${id}).`);
  return id;
}
