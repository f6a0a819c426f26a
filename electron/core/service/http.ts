// One HTTP attempt, classified. Never retries: every attempt belongs to the caller's queue or
// poller, which logs it and decides (a silent retry of a POST could pay twice).

import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Clock } from '../clock.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { Parsed } from './schemas.ts';
import { extractServiceError, parseRetryAfter, plainText, type Ambiguous, type Outcome } from './outcome.ts';

/** The largest answer read from a service (the biggest the spec allows is a page of 500 orders). */
export const MAX_ANSWER_BYTES = 8 * 1_048_576;

/** The longest a Retry-After is waited out before asking again. */
export const MAX_RETRY_AFTER_MS = 5 * 60_000;

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
  /** The caller has already taken this request's token from `limiter` (the send queue does). */
  tokenTaken?: boolean;
  parse: (json: unknown) => Parsed<T>;
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT',
]);

export async function attempt<T>(http: HttpOptions, spec: RequestSpec<T>): Promise<Outcome<T>> {
  // A stop while waiting for the turn ends the wait (no token taken); attemptOnce then answers
  // 'aborted' without sending, as for a signal aborted before the call.
  if (!spec.tokenTaken) await http.limiter.acquire(spec.signal).catch((err: unknown) => {
    if (!spec.signal?.aborted) throw err;
  });
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

// One keep-alive agent per client: a new TCP (and TLS) connection per request cost more CPU than
// everything else an order needs. Idle sockets are unref'd by the agent (they never keep the
// process alive) and dropped before the server's usual keep-alive timeout; but a busy event loop can
// run that timer late, and a server may close sooner. A GET that meets a kept socket the server has
// already closed (reset before any answer) is sent once more on a new one, as Node's documentation
// advises: reading twice is harmless. A POST that meets one fails as 'connection' (ambiguous): it is
// never repeated here, because no one can tell whether the server read it.
const agents = new WeakMap<HttpOptions, HttpAgent | HttpsAgent>();
const IDLE_SOCKET_MS = 4_000;

function agentFor(http: HttpOptions, url: URL): HttpAgent | HttpsAgent {
  let agent = agents.get(http);
  if (!agent) {
    agent = url.protocol === 'https:' ? new HttpsAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS }) : new HttpAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS });
    agents.set(http, agent);
  }
  return agent;
}

function attemptOnce<T>(http: HttpOptions, spec: RequestSpec<T>, staleRetried = false): Promise<Outcome<T>> {
  const endpoint = `${spec.method} ${spec.path}`;
  const fail = (reason: Ambiguous['reason'], message: string, status?: number): Ambiguous => ({
    kind: 'ambiguous',
    reason,
    status,
    endpoint,
    message: `${endpoint}: ${message}${spec.method === 'POST' ? POST_NOTE : ''}`,
  });
  const whyAborted = (): Ambiguous =>
    spec.signal?.aborted
      ? fail('aborted', 'the request was cancelled before an answer arrived.')
      : fail('timeout', `no complete answer within ${formatSeconds(http.timeoutMs)}.`);
  if (spec.signal?.aborted) return Promise.resolve(whyAborted());

  return new Promise<Outcome<T>>((resolve) => {
    let done = false;
    let req: ClientRequest | null = null;
    const finish = (outcome: Outcome<T>): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      spec.signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    // Timeout or the caller's cancel: settle first, then tear the request down (its errors are moot).
    const stop = (): void => {
      finish(whyAborted());
      req?.destroy();
    };
    const onAbort = (): void => stop();
    const timer = setTimeout(stop, http.timeoutMs);
    spec.signal?.addEventListener('abort', onAbort, { once: true });

    let url: URL;
    try {
      // Relative to the base URL, which may carry a path prefix of its own.
      url = new URL(spec.path.replace(/^\//, ''), http.baseUrl);
    } catch (err) {
      finish(fail('connection', `the request address could not be formed (${describe(err, errorCode(err))}).`));
      return;
    }
    const headers: Record<string, string | number> = { 'SERVICE-API-KEY': http.apiKey, accept: 'application/json' };
    if (spec.body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(spec.body);
    }
    const onResponse = (res: IncomingMessage): void => {
      const status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) {
          // No answer of the spec is this large (a page of 500 orders is a few hundred KB): stop
          // reading. For a POST this is "unknown" like any other unclear answer.
          finish(fail('too-large', `the answer (HTTP ${status}) was larger than ${MAX_ANSWER_BYTES / 1_048_576} MB and was abandoned unread.`, status));
          req?.destroy();
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => {
        if (done) return;
        if (!res.complete) {
          finish(fail('truncated', `the answer (HTTP ${status}) was cut off before its end (the connection closed early).`, status));
          return;
        }
        let text = Buffer.concat(chunks).toString('utf8');
        // As fetch's text() does: a UTF-8 byte order mark is not part of the body.
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
        const retryAfter = res.headers['retry-after'];
        finish(classify(http, spec, endpoint, status, typeof retryAfter === 'string' ? retryAfter : null, text, fail));
      });
      const cutOff = (err?: Error): void => {
        if (done) return;
        const why = err ? describe(err, errorCode(err)) : 'the connection closed early';
        finish(fail('truncated', `the answer (HTTP ${status}) was cut off before its end (${why}).`, status));
      };
      res.on('error', cutOff);
      res.on('aborted', () => cutOff());
      res.on('close', () => {
        if (!res.complete) cutOff();
      });
    };
    const options: RequestOptions = { method: spec.method, headers, agent: agentFor(http, url) };
    try {
      req = url.protocol === 'https:' ? httpsRequest(url, options, onResponse) : httpRequest(url, options, onResponse);
    } catch (err) {
      finish(fail('connection', `the request could not be made (${describe(err, errorCode(err))}).`));
      return;
    }
    req.on('error', (err) => {
      if (done) return;
      const code = errorCode(err);
      if (spec.method === 'GET' && !staleRetried && req?.reusedSocket === true && code === 'ECONNRESET') {
        done = true;
        clearTimeout(timer);
        spec.signal?.removeEventListener('abort', onAbort);
        resolve(attemptOnce(http, spec, true));
        return;
      }
      if (code !== undefined && UNREACHABLE_CODES.has(code)) {
        finish(fail('unreachable', `could not connect to the service at ${new URL(http.baseUrl).host} (${code}). Check the network and the environment's address.`));
        return;
      }
      finish(fail('connection', `the connection broke before an answer arrived (${describe(err, code)}).`));
    });
    req.end(spec.body);
  });
}

const POST_NOTE =
  ' The order may or may not have been created: retry with the same external_reference_id, or look it up by that key.';

function classify<T>(
  http: HttpOptions,
  spec: RequestSpec<T>,
  endpoint: string,
  status: number,
  retryAfter: string | null,
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
  const asked = parseRetryAfter(retryAfter, http.clock.now());
  if (status === 429 || (status === 503 && asked !== undefined)) {
    // Every request shares the limiter: slow all of them down, not just this caller. What we wait
    // is capped: a service asking for hours is asked again in a few minutes, never waited out blind.
    const retryAfterMs = asked === undefined ? undefined : Math.min(asked, MAX_RETRY_AFTER_MS);
    http.limiter.penalize();
    http.limiter.pause(retryAfterMs ?? http.defaultRetryAfterMs);
    const wait =
      asked === undefined ? '' : ` Retry after ${formatSeconds(asked)}${asked > MAX_RETRY_AFTER_MS ? ` (we try again in ${formatSeconds(MAX_RETRY_AFTER_MS)})` : ''}.`;
    return { kind: 'rate-limited', status, retryAfterMs, endpoint, message: `${endpoint}: the service asks us to slow down (${detail}).${wait}` };
  }
  if (status === 401 || status === 403) {
    return {
      kind: 'auth',
      status,
      code: service.code,
      endpoint,
      detail,
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

/**
 * The key must never appear in what we return, even if a server echoes it back. Values without
 * the key are returned as they are: a first walk only looks (and allocates nothing, which matters
 * on every answer of a send), and only a value that holds the key is copied with it replaced.
 */
export function redactDeep<T>(value: T, secret: string): T {
  if (secret === '' || !holds(value, secret)) return value;
  const walk = (v: unknown, depth = 0): unknown => {
    if (typeof v === 'string') return v.includes(secret) ? v.split(secret).join('[redacted]') : v;
    // What came from outside may be nested without end: past any depth of the spec's records, a part
    // that holds the key is dropped rather than walked.
    if (depth > MAX_WALK_DEPTH) return '[nested too deep; dropped]';
    if (Array.isArray(v)) {
      let out: unknown[] | null = null;
      for (let i = 0; i < v.length; i++) {
        const inner: unknown = v[i];
        const next = walk(inner, depth + 1);
        if (next !== inner && out === null) out = v.slice(0, i);
        out?.push(next);
      }
      return out ?? v;
    }
    if (typeof v === 'object' && v !== null) {
      const entries = Object.entries(v);
      let changed = false;
      const next = entries.map(([k, inner]) => {
        const key = walk(k, depth + 1) as string;
        const walked = walk(inner, depth + 1);
        if (key !== k || walked !== inner) changed = true;
        return [key, walked] as const;
      });
      return changed ? Object.fromEntries(next) : v;
    }
    return v;
  };
  return walk(value) as T;
}

const MAX_WALK_DEPTH = 64;

// Looks without allocating (it runs on every answer of a send). The value may be nested as deep as a
// service likes: past MAX_WALK_DEPTH it is taken to hold the key, and the redaction drops that part.
function holds(v: unknown, secret: string, depth = 0): boolean {
  if (typeof v === 'string') return v.includes(secret);
  if (depth > MAX_WALK_DEPTH) return typeof v === 'object' && v !== null;
  if (Array.isArray(v)) {
    for (const inner of v as unknown[]) if (holds(inner, secret, depth + 1)) return true;
    return false;
  }
  if (typeof v === 'object' && v !== null) {
    for (const key in v) {
      if (!Object.prototype.hasOwnProperty.call(v, key)) continue;
      if (key.includes(secret) || holds((v as Record<string, unknown>)[key], secret, depth + 1)) return true;
    }
  }
  return false;
}
