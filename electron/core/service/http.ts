// One HTTP attempt, classified. Never retries: every attempt belongs to the caller's queue or
// poller, which logs it and decides (a silent retry of a POST could pay twice).

import type { Clock } from '../clock.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { Parsed } from './schemas.ts';
import { extractServiceError, parseRetryAfter, plainText, type Ambiguous, type Outcome } from './outcome.ts';

export interface AttemptEvent {
  method: string;
  /** Path and query; never carries the key. */
  endpoint: string;
  status: number | undefined;
  kind: Outcome<unknown>['kind'];
  reason: string | undefined;
  durationMs: number;
}

export interface HttpOptions {
  baseUrl: string;
  apiKey: string;
  limiter: RateLimiter;
  clock: Clock;
  timeoutMs: number;
  /** Pause used after a 429 that carries no readable Retry-After. */
  defaultRetryAfterMs: number;
  onAttempt?: (event: AttemptEvent) => void;
}

export interface RequestSpec<T> {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  signal?: AbortSignal;
  parse: (json: unknown) => Parsed<T>;
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT',
]);

export async function attempt<T>(http: HttpOptions, spec: RequestSpec<T>): Promise<Outcome<T>> {
  await http.limiter.acquire();
  const started = http.clock.now();
  const outcome = redactDeep(await attemptOnce(http, spec), http.apiKey);
  // A failing log callback must not turn a classified outcome into a thrown error.
  try {
    http.onAttempt?.({
      method: spec.method,
      endpoint: spec.path,
      status: 'status' in outcome ? outcome.status : undefined,
      kind: outcome.kind,
      reason: outcome.kind === 'ambiguous' ? outcome.reason : undefined,
      durationMs: http.clock.now() - started,
    });
  } catch {
    // ignored: see above
  }
  return outcome;
}

async function attemptOnce<T>(http: HttpOptions, spec: RequestSpec<T>): Promise<Outcome<T>> {
  const endpoint = `${spec.method} ${spec.path}`;
  const fail = (reason: Ambiguous['reason'], message: string, status?: number): Ambiguous => ({
    kind: 'ambiguous',
    reason,
    status,
    endpoint,
    message: `${endpoint}: ${message}${spec.method === 'POST' ? POST_NOTE : ''}`,
  });
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), http.timeoutMs);
  const signal = spec.signal ? AbortSignal.any([timeout.signal, spec.signal]) : timeout.signal;
  const whyAborted = (): Ambiguous =>
    spec.signal?.aborted
      ? fail('aborted', 'the request was cancelled before an answer arrived.')
      : fail('timeout', `no complete answer within ${formatSeconds(http.timeoutMs)}.`);
  try {
    let response: Response;
    try {
      const headers: Record<string, string> = { 'SERVICE-API-KEY': http.apiKey, accept: 'application/json' };
      if (spec.body !== undefined) headers['content-type'] = 'application/json';
      // Relative to the base URL, which may carry a path prefix of its own.
      response = await fetch(new URL(spec.path.replace(/^\//, ''), http.baseUrl), {
        method: spec.method,
        headers,
        body: spec.body,
        signal,
        redirect: 'manual',
      });
    } catch (err) {
      if (signal.aborted) return whyAborted();
      const code = errorCode(err);
      if (code !== undefined && UNREACHABLE_CODES.has(code)) {
        return fail('unreachable', `could not connect to the service at ${new URL(http.baseUrl).host} (${code}). Check the network and the environment's address.`);
      }
      return fail('connection', `the connection broke before an answer arrived (${describe(err, code)}).`);
    }
    let text: string;
    try {
      text = await response.text();
    } catch (err) {
      if (signal.aborted) return whyAborted();
      return fail('truncated', `the answer (HTTP ${response.status}) was cut off before its end (${describe(err, errorCode(err))}).`, response.status);
    }
    return classify(http, spec, endpoint, response.status, response.headers, text, fail);
  } finally {
    clearTimeout(timer);
  }
}

const POST_NOTE =
  ' The order may or may not have been created: retry with the same external_reference_id, or look it up by that key.';

function classify<T>(
  http: HttpOptions,
  spec: RequestSpec<T>,
  endpoint: string,
  status: number,
  headers: Headers,
  text: string,
  fail: (reason: Ambiguous['reason'], message: string, status?: number) => Ambiguous,
): Outcome<T> {
  if (status >= 200 && status < 300) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      const snippet = plainText(text, 120);
      return fail('unreadable', `HTTP ${status}, but the body is not JSON (it may have been cut off): "${snippet}".`, status);
    }
    const parsed = spec.parse(json);
    if (parsed.ok) return { kind: 'ok', value: parsed.value, status, endpoint };
    return {
      ...fail('schema', `HTTP ${status}, but the answer is not what we expect: ${parsed.issues.slice(0, 5).join('; ')}.`, status),
      raw: json,
      issues: parsed.issues,
    };
  }
  const service = extractServiceError(text);
  const said = [service.code, service.message].filter((s) => s !== undefined).join(': ');
  const detail = said === '' ? `HTTP ${status}` : `HTTP ${status} ${said}`;
  const retryAfter = headers.get('retry-after');
  const retryAfterMs = parseRetryAfter(retryAfter, http.clock.now());
  if (status === 429 || (status === 503 && retryAfterMs !== undefined)) {
    // Every request shares the limiter: slow all of them down, not just this caller.
    http.limiter.penalize();
    http.limiter.pause(retryAfterMs ?? http.defaultRetryAfterMs);
    const wait = retryAfterMs === undefined ? '' : ` Retry after ${formatSeconds(retryAfterMs)}.`;
    return { kind: 'rate-limited', status, retryAfterMs, endpoint, message: `${endpoint}: the service asks us to slow down (${detail}).${wait}` };
  }
  if (status === 401 || status === 403) {
    return {
      kind: 'auth',
      status,
      code: service.code,
      endpoint,
      message: `${endpoint}: the service did not accept the API key (${detail}). Check the key set for this environment.`,
    };
  }
  if (status === 408 || status === 409) return fail('status', `the service answered ${detail}, which does not say whether the request was processed.`, status);
  if (status >= 400 && status < 500) {
    return {
      kind: 'rejected',
      status,
      code: service.code,
      message: service.message ?? `HTTP ${status}`,
      body: text.length > 2000 ? `${text.slice(0, 2000)}…` : text,
      endpoint,
    };
  }
  if (status >= 500) return fail('server-error', `the service failed (${detail}).`, status);
  return fail('status', `unexpected HTTP ${status}.`, status);
}

function formatSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

function errorCode(err: unknown): string | undefined {
  const queue: unknown[] = [err];
  for (let i = 0; i < queue.length && i < 20; i += 1) {
    const e = queue[i];
    if (typeof e !== 'object' || e === null) continue;
    const rec = e as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof rec.code === 'string') return rec.code;
    if (rec.cause !== undefined) queue.push(rec.cause);
    if (Array.isArray(rec.errors)) queue.push(...(rec.errors as unknown[]));
  }
  return undefined;
}

function describe(err: unknown, code: string | undefined): string {
  const cause = (err as { cause?: unknown } | null)?.cause;
  const source = cause instanceof Error ? cause : err;
  const text = source instanceof Error ? source.message : String(source);
  return code === undefined || text.includes(code) ? text : `${code}: ${text}`;
}

/** The key must never appear in what we return, even if a server echoes it back. */
export function redactDeep<T>(value: T, secret: string): T {
  if (secret === '') return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return v.includes(secret) ? v.split(secret).join('[redacted]') : v;
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null) {
      return Object.fromEntries(Object.entries(v).map(([k, inner]) => [walk(k), walk(inner)]));
    }
    return v;
  };
  return walk(value) as T;
}
