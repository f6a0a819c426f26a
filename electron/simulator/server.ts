// The simulator: an HTTP server over the store, with latency, a rate limit and seeded faults in
// front of the /v1 routes, plus the test-only audit and control endpoints.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildAudit, bump, requestKey, type AuditReport } from './audit.ts';
import { productIdFor } from './catalog.ts';
import { handleControl } from './control.ts';
import { resolveDialect } from './dialects.ts';
import { FaultInjector, mulberry32 } from './faults.ts';
import { errorReply, readBody, retryAfterHeader, serialize, writeReply, type Reply } from './http-util.ts';
import { RateLimiter } from './rate-limit.ts';
import { externalReferenceOf } from './order-request.ts';
import { matchV1, type V1Context } from './routes-v1.ts';
import { createStateFile } from './state-file.ts';
import { Store, type Account } from './store.ts';
import {
  ApiError, type AccountInit, type Dialect, type FaultKind, type FaultSettings, type ItemStatus, type OrderStatus,
  type SimulatorOptions,
} from './types.ts';

export const DEFAULT_ACCOUNT: Readonly<AccountInit> = { currency: 'USD', balance: '1000000.00' };
export const DEFAULT_ITEM_DELAY_MS = 3000;
export const DEFAULT_RECIPIENT_EXPIRY_MS = 7 * 24 * 60 * 60 * 1000;

export interface Simulator {
  start(port?: number, host?: string): Promise<{ url: string; port: number }>;
  stop(): Promise<void>;
  /** Base URL once started, else null. */
  readonly url: string | null;
  /** The dialect in force: every switch, defaults filled in. */
  readonly dialect: Readonly<Dialect>;
  audit(): AuditReport;
  faults(): FaultSettings;
  setFaults(partial: Partial<FaultSettings>): FaultSettings;
  acceptRecipient(key: string, orderId: number): void;
  forceStatus(key: string, orderId: number, change: { orderStatus?: OrderStatus; itemStatus?: ItemStatus }): void;
  setAccount(key: string, change: Partial<AccountInit>): void;
  productIdFor(key: string, slug: string): number;
}

export function createSimulator(options: SimulatorOptions = {}): Simulator {
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => undefined);
  const logRequests = options.logRequests ?? true;
  const testEndpoints = options.testEndpoints ?? true;
  const retryFormat = options.retryAfterFormat ?? 'seconds';
  const dialect = resolveDialect(options.dialect);
  // Every answer a client of the service can see uses the dialect's error shape; the test
  // endpoints keep one shape so tests need not know the dialect to read them.
  const fail = (err: ApiError): Reply => errorReply(err, dialect.errorBody);
  const retryHeaders = (seconds: number): Record<string, string> =>
    dialect.retryAfter ? { 'retry-after': retryAfterHeader(seconds, retryFormat, now()) } : {};
  // Without the header the message does not hint at a delay either, or a client could lean on it.
  const retryHint = (seconds: number): string => (dialect.retryAfter ? `; retry after ${seconds}s` : '');
  const unavailable = (): Reply => {
    const seconds = options.retryAfter503Seconds ?? 1;
    return fail(new ApiError(503, 'UNAVAILABLE', `the service is temporarily unavailable${retryHint(seconds)}`, retryHeaders(seconds)));
  };
  // A gateway's own page, not the service's error shape: it does not know the service's dialect.
  const gatewayTimeout = (): Reply => ({
    status: 504,
    body: null,
    text: '<html><head><title>504 Gateway Time-out</title></head><body><h1>504 Gateway Time-out</h1></body></html>',
  });
  const stateFile = options.stateFile === undefined ? null : createStateFile(options.stateFile, log);
  const store = new Store({
    now,
    ...(options.keys ? { keys: options.keys } : {}),
    ...(options.accounts ? { accounts: options.accounts } : {}),
    defaultAccount: options.defaultAccount ?? DEFAULT_ACCOUNT,
    itemDelayMs: nonNegative(options.itemDelayMs ?? DEFAULT_ITEM_DELAY_MS, 'itemDelayMs'),
    recipientExpiryMs: nonNegative(options.recipientExpiryMs ?? DEFAULT_RECIPIENT_EXPIRY_MS, 'recipientExpiryMs'),
    acceptAfterExpiry: dialect.expiredLink === 'accept-late',
    // Both switches may give a key several orders.
    keysForgotten: dialect.keyMemoryMs !== null || dialect.racyKeyCheckMs !== null,
    ...(stateFile ? { journal: stateFile } : {}),
  });
  // Replayed on first use (start, audit or a control call), so nothing mutates memory before the
  // file's state is in it.
  const loaded = (): Store => {
    stateFile?.load(store);
    return store;
  };
  const faults = new FaultInjector(options.faults);
  const limiter = new RateLimiter(options.rateLimit ?? 0, options.rateBurst, now);
  const latencyMs = nonNegative(options.latencyMs ?? 0, 'latencyMs');
  const jitterMs = nonNegative(options.latencyJitterMs ?? 0, 'latencyJitterMs');
  // Jitter has its own stream so that changing latency never shifts which requests get faults.
  const jitter = mulberry32((faults.current.seed ^ 0x5bd1e995) >>> 0);
  const unauthenticated = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  let server: Server | null = null;
  let url: string | null = null;

  const sleep = (ms: number): Promise<void> =>
    ms <= 0 ? Promise.resolve() : new Promise((resolve) => {
      const t = setTimeout(() => { timers.delete(t); resolve(); }, ms);
      timers.add(t);
    });

  const record = (account: Account | null, label: string, status: number | 'reset'): void => {
    bump(account ? account.requests : unauthenticated, requestKey(label, status));
  };
  const recordFault = (account: Account, kind: FaultKind): void => bump(account.faults, kind);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now();
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://simulator.invalid');
    const path = url.pathname;
    const send = (reply: Reply, account: Account | null, label: string, text?: string): void => {
      writeReply(res, reply, text);
      record(account, label, reply.status);
      if (logRequests) log(`${method} ${path} ${reply.status} ${Date.now() - started}ms`);
    };

    const bodyText = method === 'GET' || method === 'HEAD' ? '' : await readBody(req);
    if (bodyText === null) {
      res.setHeader('connection', 'close');
      send(fail(new ApiError(413, 'PAYLOAD_TOO_LARGE', 'the request body is over 1 MiB')), null, `${method} ${path}`);
      return;
    }

    if (testEndpoints && path === '/__audit' && method === 'GET') {
      writeReply(res, { status: 200, body: buildAudit(store, unauthenticated, faults.current) });
      return;
    }
    if (testEndpoints && path.startsWith('/__control/')) {
      writeReply(res, guard(() => handleControl(sim, method, path, bodyText), 'nested'));
      return;
    }
    if (path !== '/v1' && !path.startsWith('/v1/')) {
      send(fail(new ApiError(404, 'NOT_FOUND', `no route ${method} ${path}; the API is under /v1`)), null, 'unknown route');
      return;
    }

    await sleep(latencyMs + (jitterMs > 0 ? Math.floor(jitter() * jitterMs) : 0));
    const route = matchV1(method, path);
    const label = route?.label ?? 'unknown route';
    const key = headerValue(req.headers['service-api-key']);
    const account = store.authenticate(key);
    if (!account || key === undefined) {
      const why = key === undefined || key.trim() === '' ? 'the SERVICE-API-KEY header is missing' : 'the SERVICE-API-KEY is not accepted';
      send(fail(new ApiError(401, 'UNAUTHORIZED', `${why}; send the account's API key in SERVICE-API-KEY`)), null, label);
      return;
    }
    if (!route) {
      send(fail(new ApiError(404, 'NOT_FOUND', `no route ${method} ${path}`)), account, label);
      return;
    }
    const rate = limiter.take(account.id);
    if (!rate.allowed) {
      const seconds = rate.retryAfterSeconds;
      send(fail(new ApiError(429, 'RATE_LIMITED', `too many requests${retryHint(seconds)}`, retryHeaders(seconds))), account, label);
      return;
    }

    const fault = faults.draw(route.isOrderPost);
    if (fault) recordFault(account, fault);
    if (fault === 'error503') {
      send(unavailable(), account, label);
      return;
    }
    if (fault === 'error500BeforeCommit') {
      send(fail(new ApiError(500, 'INTERNAL', 'internal error (injected); nothing was committed')), account, label);
      return;
    }

    if (fault === 'gatewayTimeoutWhileProcessing') {
      // A gateway in front of the service gives up at once while the service goes on: the client
      // has its 504 now; the handler below still runs and what it does stands (nothing more is sent).
      log(`${method} ${path} answered 504 by the gateway while the service goes on`);
      send(gatewayTimeout(), account, label);
    }

    const context = (keyCheckedOnArrival: boolean): V1Context =>
      ({ store, account, key, now: now(), url, body: bodyText, log, dialect, ...(keyCheckedOnArrival ? { keyCheckedOnArrival } : {}) });
    // The dialect's racyKeyCheckMs: a POST whose key is new when it arrives works that long before it
    // commits, without looking at the key again, so a second POST under it arriving meanwhile is
    // not recognised either (two orders). A known key, or none, is answered at once as always.
    const racy = route.isOrderPost && dialect.racyKeyCheckMs !== null && isNewKey(account, bodyText);
    if (racy) await sleep(dialect.racyKeyCheckMs ?? 0);
    const reply = guard(() => route.handle(context(racy)), dialect.errorBody);
    if (fault === 'gatewayTimeoutWhileProcessing') {
      log(`${method} ${path} ${reply.status} after the gateway's 504`);
      return;
    }
    if (fault === 'error503AfterCommit') {
      // A gateway that gave up while the service went on: whatever the handler did stands (an
      // order committed, or a refusal), and the client only sees a 503 that looks like a 503 before.
      log(`${method} ${path} ${reply.status} answered 503 after the handler`);
      send(unavailable(), account, label);
      return;
    }
    if (fault === 'resetAfterCommit') {
      record(account, label, 'reset');
      log(`${method} ${path} reset after commit`);
      res.socket?.destroy();
      return;
    }
    if (fault === 'slow') await sleep(faults.current.slowMs);
    if (fault === 'truncate') {
      const text = serialize(reply);
      send(reply, account, label, text.slice(0, Math.floor(text.length / 2)));
      return;
    }
    send(reply, account, label);
  }

  /** The POST body names an external_reference_id no order of the account has (yet). False for a body that is no JSON. */
  function isNewKey(account: Account, bodyText: string): boolean {
    let ref: string | null;
    try {
      ref = externalReferenceOf(JSON.parse(bodyText));
    } catch {
      return false;
    }
    return ref !== null && store.findByRef(account, ref) === undefined;
  }

  function guard(fn: () => Reply, style: Dialect['errorBody']): Reply {
    try {
      return fn();
    } catch (err) {
      if (err instanceof ApiError) return errorReply(err, style);
      log(`internal error: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
      return errorReply(new ApiError(500, 'INTERNAL', 'internal error in the simulator'), style);
    }
  }

  const sim: Simulator = {
    get url() {
      return url;
    },
    dialect,
    async start(port = 0, host = '127.0.0.1') {
      if (server) throw new Error('the simulator is already started');
      loaded();
      const s = createServer((req, res) => {
        handle(req, res).catch((err: unknown) => {
          log(`request failed: ${err instanceof Error ? err.message : String(err)}`);
          if (!res.headersSent && !res.destroyed) {
            writeReply(res, fail(new ApiError(500, 'INTERNAL', 'internal error in the simulator')));
          } else {
            res.destroy();
          }
        });
      });
      s.on('clientError', (_err, socket) => {
        if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
        else socket.destroy();
      });
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(port, host, () => {
          s.off('error', reject);
          resolve();
        });
      });
      server = s;
      const actual = (s.address() as AddressInfo).port;
      url = `http://${host.includes(':') ? `[${host}]` : host}:${actual}`;
      return { url, port: actual };
    },
    async stop() {
      const s = server;
      if (!s) {
        stateFile?.close();
        return;
      }
      server = null;
      url = null;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      const closed = new Promise<void>((resolve) => s.close(() => resolve()));
      // Keep-alive sockets would otherwise hold close() open until they time out.
      s.closeAllConnections();
      await closed;
      stateFile?.close();
    },
    audit: () => buildAudit(loaded(), unauthenticated, faults.current),
    faults: () => faults.current,
    setFaults: (partial) => faults.set(partial),
    acceptRecipient: (key, orderId) => void loaded().acceptRecipient(key, orderId),
    forceStatus: (key, orderId, change) => void loaded().forceStatus(key, orderId, change),
    setAccount: (key, change) => void loaded().setAccount(key, change),
    productIdFor,
  };
  return sim;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function nonNegative(value: number, name: string): number {
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got ${value}`);
  return value;
}
