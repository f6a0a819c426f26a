// For the service client's unit tests: a clock whose sleeps advance virtual time at once (on the
// next microtask, unlike fake-clock.ts, which yields to I/O), and tiny HTTP servers that produce
// one exact outcome each.

import { afterEach } from 'vitest';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Clock } from '../../electron/core/clock.ts';
import { createRateLimiter } from '../../electron/core/service/rate-limiter.ts';
import { createServiceClient, type ServiceClientOptions } from '../../electron/core/service/client.ts';

export interface FakeClock extends Clock {
  advance(ms: number): void;
  readonly sleeps: number[];
}

/** Virtual time: `sleep(ms)` moves the clock forward by ms and resolves on the next tick. */
export function fakeClock(start = Date.UTC(2030, 0, 1)): FakeClock {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    advance(ms) {
      now += ms;
    },
    async sleep(ms) {
      sleeps.push(ms);
      now += Math.max(0, ms);
      await Promise.resolve();
    },
  };
}

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (req: Recorded, res: ServerResponse, socket: Socket) => void | Promise<void>;

export interface TestServer {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: Recorded[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(recorded);
      void handler(recorded, res, req.socket);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const serving: TestServer[] = [];
afterEach(async () => {
  await Promise.all(serving.splice(0).map((s) => s.close()));
});

/** A test server closed after the test that started it. */
export async function serve(handler: Handler): Promise<TestServer> {
  const server = await startServer(handler);
  serving.push(server);
  return server;
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export const MARKER_KEY = 'sk_marker_KEY_7f3a9c1e';

export function makeClient(url: string, overrides: Partial<ServiceClientOptions> = {}) {
  const clock = fakeClock();
  const limiter = createRateLimiter({ rate: 1000, burst: 1000, clock });
  const client = createServiceClient({ baseUrl: url, apiKey: MARKER_KEY, limiter, clock, timeoutMs: 2_000, ...overrides });
  return { client, clock, limiter };
}

export const ORDER = {
  id: 9001,
  status: 'COMPLETED',
  external_reference_id: 'ref-1',
  created_at: '2030-01-01T00:00:00Z',
  order_item: { id: 7001, status: 'PENDING', product_id: 123, price: { amount: 30000, currency: 'KRW' }, transaction_fee_rate: 0.02 },
  total_price_charged: { amount: 23.46, currency: 'USD', applied_exchange_rate: { rate: 0.00075, currency: { from: 'KRW', to: 'USD' } } },
  delivery: { method: 'EMAIL', recipient: { name: 'Ana', email: 'ana@example.com' }, sender: { name: 'Org' } },
  message: 'Thanks',
};

export function orderRow(id: number, ref = `ref-${id}`, itemStatus = 'PENDING') {
  return { ...ORDER, id, external_reference_id: ref, order_item: { ...ORDER.order_item, id: id + 100_000, status: itemStatus } };
}
