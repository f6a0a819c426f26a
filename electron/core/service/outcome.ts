// Every call returns one of these instead of throwing: the caller (send queue, poller) must
// decide per class, and "ambiguous" must never be mistaken for "failed" (docs/architecture.md,
// "Sending", step 5).

export type AmbiguousReason =
  /** No answer within the timeout: the request may have been processed. */
  | 'timeout'
  /** Connection refused or name not resolved: nothing reached the service, but stay careful. */
  | 'unreachable'
  /** The connection broke before a response arrived. */
  | 'connection'
  /** The response body stopped before its end. */
  | 'truncated'
  /** A 5xx, or a 503 without Retry-After. */
  | 'server-error'
  /** A status with no definite meaning for us: 408, 409, 1xx, 3xx. */
  | 'status'
  /** A 2xx whose body is not JSON. */
  | 'unreadable'
  /** A 2xx whose JSON breaks an assumption we rely on. */
  | 'schema'
  /** Paging did not end the way the spec says it should. */
  | 'paging'
  /** The caller cancelled the request. */
  | 'aborted'
  /** The answer was larger than any answer of the spec can be: abandoned unread. */
  | 'too-large';

interface Base {
  /** "POST /v1/orders", "GET /v1/orders/9001": for messages and logs. */
  endpoint: string;
}

export interface Ok<T> extends Base {
  kind: 'ok';
  value: T;
  status: number;
}

/** A definite "no": the request was understood and refused; retrying it unchanged will not help. */
export interface Rejected extends Base {
  kind: 'rejected';
  status: number;
  code: string | undefined;
  message: string;
  /** The body as received (redacted, shortened), for the record. */
  body: string;
}

export interface RateLimited extends Base {
  kind: 'rate-limited';
  status: number;
  /** From Retry-After (delta-seconds or HTTP-date); undefined when absent or unreadable. */
  retryAfterMs: number | undefined;
  message: string;
}

export interface AuthFailed extends Base {
  kind: 'auth';
  status: number;
  code: string | undefined;
  /** What the service said, without the endpoint or our advice: "HTTP 401 UNAUTHORIZED: unknown key". */
  detail?: string;
  message: string;
}

export interface Ambiguous extends Base {
  kind: 'ambiguous';
  reason: AmbiguousReason;
  status: number | undefined;
  message: string;
  /** For 'schema': the JSON as received, so the caller can keep it as evidence. */
  raw?: unknown;
  /** For 'schema': each broken assumption, "order.order_item.status: expected string, received undefined". */
  issues?: string[];
}

export type Failure = Rejected | RateLimited | AuthFailed | Ambiguous;
export type Outcome<T> = Ok<T> | Failure;

/**
 * An unclear answer to a POST after which the request may still be being processed upstream (audit
 * #38): a timeout (we gave up, the service may not have), or a gateway's answer that it passed the
 * request on and then gave up on the service or lost it while the service may go on: 502 Bad
 * Gateway, 504 Gateway Timeout (RFC 9110 15.6.3, 15.6.5). A POST under the same key arriving
 * meanwhile at a service whose key check is not atomic is a second order, charged too.
 * Not a 503, with or without Retry-After: it says the request was not handled (RFC 9110 15.6.4: a
 * proxy's rate limit, no server to send it to, an overloaded service); the simulator's 503 after
 * the handler (error503AfterCommit) comes once the order is committed, and a re-POST then gets it
 * by its key. A 503 for a connection reset upstream is as unclear as a reset here: both are
 * re-POSTed after the usual backoff, like a 500 (the service itself answered) or a cut-off body.
 * A 409 Conflict to a POST under our key: the common meaning for a keyed POST is "a request with
 * this key is still in progress" (draft-ietf-httpapi-idempotency-key-header: "If the request is
 * retried, while the original request is still being processed, the resource server SHOULD reply
 * with an HTTP 409"), or else that an order already holds the key; either way the order is (or soon
 * is) there to be found by key, and re-POSTing at once only meets 409 after 409 until the breaker
 * trips. Not a 408: the service gave up waiting for the request, which it did not process.
 */
export function mayStillBeRunning(outcome: Failure): boolean {
  if (outcome.kind !== 'ambiguous') return false;
  if (outcome.reason === 'timeout' || (outcome.reason === 'status' && outcome.status === 409)) return true;
  return outcome.reason === 'server-error' && (outcome.status === 502 || outcome.status === 504);
}

/** Parses Retry-After in both forms the HTTP spec allows: delta-seconds, or an HTTP-date. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // Only accept something that looks like a date, not "soon" or "-5".
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

const MESSAGE_KEYS = ['message', 'error_message', 'errorMessage', 'detail', 'description', 'title', 'reason'];
const CODE_KEYS = ['code', 'error_code', 'errorCode', 'type'];

/** Finds the service's own message and code in an error body whose shape is "not shown". */
export function extractServiceError(bodyText: string): { code: string | undefined; message: string | undefined } {
  let json: unknown;
  try {
    json = JSON.parse(bodyText);
  } catch {
    return { code: undefined, message: bodyText.trim() === '' ? undefined : plainText(bodyText) };
  }
  const candidates: unknown[] = [json];
  if (isRecord(json)) {
    candidates.unshift(json.error);
    if (Array.isArray(json.errors)) candidates.unshift(json.errors[0]);
  }
  let code: string | undefined;
  let message: string | undefined;
  for (const candidate of candidates) {
    if (!isRecord(candidate)) continue;
    code ??= firstString(candidate, CODE_KEYS);
    message ??= firstString(candidate, MESSAGE_KEYS);
  }
  if (isRecord(json) && typeof json.error === 'string') {
    // `{"error": "..."}`: a message when it reads like a sentence, a code when it looks like one.
    if (/^[A-Z0-9_.-]+$/.test(json.error)) code ??= json.error;
    else message ??= json.error;
  }
  // A JSON body in an unknown shape is still the best message we have, unless it is empty.
  const fallback = code === undefined && !isEmptyJson(json) ? plainText(bodyText) : undefined;
  return { code, message: message ?? fallback };
}

/** How much of a body is looked at for a message: the expressions below then take bounded time whatever arrives. */
const MESSAGE_SOURCE_CHARS = 8_192;

/** Text fit for a message: HTML tags stripped, whitespace collapsed, kept short. */
export function plainText(text: string, max = 300): string {
  const stripped = text
    .slice(0, MESSAGE_SOURCE_CHARS)
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return stripped.length > max ? `${stripped.slice(0, max)}…` : stripped;
}

function firstString(record: Record<string, unknown>, keys: string[]): string | undefined {
  for (const key of keys) {
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
    if (typeof value === 'number') return String(value);
  }
  return undefined;
}

function isEmptyJson(json: unknown): boolean {
  if (json === null || json === '') return true;
  if (Array.isArray(json)) return json.length === 0;
  return isRecord(json) && Object.keys(json).length === 0;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
