// Public option and result types of the simulator, and the one error type its routes throw.

export type OrderStatus = 'COMPLETED' | 'PAYMENT_PENDING' | 'PAYMENT_EXPIRED' | 'CANCELLED';
export type ItemStatus = 'PENDING' | 'COMPLETED' | 'CANCELLED';
export const ORDER_STATUSES: readonly OrderStatus[] = ['COMPLETED', 'PAYMENT_PENDING', 'PAYMENT_EXPIRED', 'CANCELLED'];
export const ITEM_STATUSES: readonly ItemStatus[] = ['PENDING', 'COMPLETED', 'CANCELLED'];

export interface AccountInit {
  /** Account currency, e.g. 'USD'. */
  currency: string;
  /** Prepaid balance as decimal text in the account currency, e.g. '1000000.00'. */
  balance: string;
}

export type FaultKind = 'resetAfterCommit' | 'error500BeforeCommit' | 'error503' | 'slow' | 'truncate' | 'error503AfterCommit' | 'gatewayTimeoutWhileProcessing';
// New kinds go last: one draw walks this list, so appending keeps every existing seed's sequence.
export const FAULT_KINDS: readonly FaultKind[] = [
  'resetAfterCommit',
  'error500BeforeCommit',
  'error503',
  'slow',
  'truncate',
  'error503AfterCommit',
  'gatewayTimeoutWhileProcessing',
];

export interface FaultSettings {
  /** Seed of the fault PRNG; the same seed and request order give the same faults. */
  seed: number;
  /** Probabilities in [0, 1]; their sum must not exceed 1 (one draw picks at most one fault). */
  resetAfterCommit: number;
  error500BeforeCommit: number;
  error503: number;
  slow: number;
  truncate: number;
  /** The POST is committed (the order exists), then the client gets a 503 as if nothing happened. */
  error503AfterCommit: number;
  /**
   * A gateway in front of the service answers 504 at once while the service goes on: the handler
   * still runs (after racyKeyCheckMs with that switch) and whatever it does stands, a committed order
   * usually, which the client never hears of.
   */
  gatewayTimeoutWhileProcessing: number;
  /** How long a `slow` response is held back. */
  slowMs: number;
  /** 'post' = POST /v1/orders only; 'all' = every /v1 route; 'reads' = every /v1 route but POST /v1/orders. */
  faultRoutes: 'post' | 'all' | 'reads';
}

/**
 * How the simulator answers where the spec says "not shown". The defaults are the answers our
 * client guesses (README.md, "Decisions where the spec is silent"); every other value is an answer
 * a service following the spec may give.
 * Presets: DIALECTS in dialects.ts.
 */
export interface Dialect {
  /** Name of the product's currency field; null = none (the spec's product table has none). */
  productCurrencyField: string | null;
  /**
   * 'top-or-item': custom_amount read at the top level or in item (both and different → 422).
   * 'item-or-minimum': only item.custom_amount is read; without it a range product is silently
   * issued and charged at its min_amount, and a top-level custom_amount is ignored.
   */
  customAmount: 'top-or-item' | 'item-or-minimum';
  /**
   * The unit of custom_amount (the spec's bounds check and the amount's meaning are "not shown"):
   * 'major' (our guess: 25 means USD 25.00, as min_amount/max_amount read) or 'minor' (a count of
   * the currency's minor units: 25 means USD 0.25; the same for KRW or JPY, which have none). The
   * amount so read is then bounds-checked against the listed min_amount/max_amount as usual.
   */
  customAmountUnits: 'major' | 'minor';
  /**
   * An amount outside the product's min_amount/max_amount: 'refuse' (our guess: 422
   * AMOUNT_OUT_OF_RANGE) or 'clamp' (issued and charged at the nearest bound, with a 200).
   */
  customAmountBounds: 'refuse' | 'clamp';
  /**
   * The currency of custom_amount: 'product' (our guess: the product's currency, like its
   * min_amount/max_amount) or 'account' (the account's currency, converted to the product's at the
   * account→product rate, rounded to the product currency's minor unit, then bounds-checked and
   * charged as usual). The same for a product priced in the account's currency.
   */
  customAmountCurrency: 'product' | 'account';
  /** List bodies: {products|orders, page}, {data, page}, {items, page}, or a bare JSON array. */
  listEnvelope: 'products-orders' | 'data' | 'items' | 'bare';
  /** Error bodies: {error:{code,message}}, {code,message}, or text/plain "CODE: message". */
  errorBody: 'nested' | 'flat' | 'text';
  /** Availability bodies: ours, {status: IN_STOCK|OUT_OF_STOCK|NOT_ON_SALE}, or {product:{id}, stock:{quantity}}. */
  availabilityBody: 'default' | 'status-word' | 'quantity';
  /** false: 429 and 503 replies carry no Retry-After header. */
  retryAfter: boolean;
  /** A new order is missing from GET /v1/orders lists until this long after its creation (injected clock). */
  listLagMs: number;
  /** GET /v1/orders: 'oldest-first' (by order id, as created) or 'newest-first'. */
  listOrder: 'oldest-first' | 'newest-first';
  /**
   * GET /v1/orders entries: 'full' (each the order's whole record, as GET /v1/orders/{id} gives it) or
   * 'summary' (id, status, external_reference_id, created_at and order_item's id and status only).
   */
  listEntries: 'full' | 'summary';
  /**
   * A recipient link past its expiry_date ("What happens to the item when the recipient link
   * expires: not shown"): 'closed' (our guess: it can no longer be accepted, the item stays PENDING
   * for good) or 'accept-late' (it still works: accepting completes the item, as on a service with a
   * grace period or one that renews links).
   */
  expiredLink: 'closed' | 'accept-late';
  /**
   * How long an external_reference_id is remembered ("Scope and duration of external_reference_id
   * uniqueness … not shown"): null (our guess: for ever) or N ms after its order was created. A POST
   * under a key whose order is older than that is a new order, charged again, under the same key.
   */
  keyMemoryMs: number | null;
  /**
   * How far back GET /v1/orders reaches when no date range is given ("Parameter names of the date
   * range: not shown"): null (our guess: the whole history) or N ms: without `created_from` the
   * list shows only orders created in the last N ms (injected clock), under any filter,
   * `external_reference_id` included, so a lookup of an older order's key is a clear, wrong "none".
   * GET /v1/orders/{id} still finds every order.
   */
  listWindowMs: number | null;
  /**
   * A retry arriving while the first POST with its key is still being processed (the spec does not
   * say): null (our guess: the key check and the commit are one step, so the retry gets the first
   * order) or N ms: POST /v1/orders checks the key when it arrives, then works N ms (real time, like
   * latencyMs) before it commits, and a POST under the same key arriving meanwhile is not recognised:
   * it makes a second order, charged too, under the same key. Nothing is listed before its commit.
   */
  racyKeyCheckMs: number | null;
  /**
   * When a retry's external_reference_id is looked up (the spec: a retry "is not an error", but its
   * status code is not shown): 'first' (our guess: before anything else, so a retry gets its order
   * back whatever the balance or the product's state now) or 'after-checks' (the request is
   * validated, the product's availability and the balance checked first: a retry of an order
   * already made is refused with 422 PRODUCT_NOT_ON_SALE or 402 INSUFFICIENT_BALANCE when the
   * product went off sale or the balance ran low since).
   */
  keyCheck: 'first' | 'after-checks';
  /**
   * Whether an order's record is whole from the start ("Other fields of the … order and order item
   * records: not shown"; nothing says the POST answer is complete): 0 (our guess: it is) or N ms, a
   * service that issues asynchronously: for N ms after its creation (injected clock) the order's
   * record, in the POST answer, GET /v1/orders/{id} and lists alike, has no order_item.price and no
   * total_price_charged; both appear afterwards. The balance is charged at once as always.
   */
  priceLagMs: number;
}

export interface SimulatorOptions {
  /** Clock in epoch milliseconds. Item transitions and rate-limit refills are computed from it. */
  now?: () => number;
  /** When given, only these keys are accepted (others get 401). Otherwise any non-empty key opens an account. */
  keys?: string[];
  accounts?: Record<string, AccountInit>;
  /** Account opened for a key not listed in `accounts`. Default USD 1000000.00. */
  defaultAccount?: AccountInit;
  /** PENDING → COMPLETED after this long, for normal items. Default 3000. */
  itemDelayMs?: number;
  /** Validity of the recipient acceptance link. Default 7 days. */
  recipientExpiryMs?: number;
  /** Added before every /v1 response (real time, not the injected clock). */
  latencyMs?: number;
  latencyJitterMs?: number;
  /** Requests per second per key (token bucket); 0 or absent = unlimited. */
  rateLimit?: number;
  /** Bucket size; default max(1, ceil(rateLimit)). */
  rateBurst?: number;
  /** Retry-After as delta-seconds (default) or as an HTTP-date. */
  retryAfterFormat?: 'seconds' | 'http-date';
  /** Retry-After sent with an injected 503. Default 1. */
  retryAfter503Seconds?: number;
  faults?: Partial<FaultSettings>;
  /** Answers to the spec's "not shown" questions; unset switches keep our client's guesses. */
  dialect?: Partial<Dialect>;
  /** Serve GET /__audit and /__control/*. Default true. */
  testEndpoints?: boolean;
  /**
   * Absolute path of a JSON-lines file that keeps accounts, orders, acceptances and forced
   * statuses across restarts: replayed on start, one line appended per mutation before the
   * response is sent. Accounts are stored under a hash of their API key, never the key (a file
   * from an older simulator is rewritten so on load). Absent = memory only. One simulator per
   * file at a time.
   */
  stateFile?: string;
  /** Log lines (one per request when set). */
  log?: (line: string) => void;
  /** false: log only what went wrong (resets, internal errors), not every request. Default true. */
  logRequests?: boolean;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

/** Thrown by the control API (acceptRecipient, forceStatus, setAccount, setFaults) on misuse. */
export class SimulatorError extends Error {
  override readonly name = 'SimulatorError';
}
