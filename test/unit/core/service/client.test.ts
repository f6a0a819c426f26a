import { describe, expect, it } from 'vitest';
import { createServiceClient } from '../../../../electron/core/service/client.ts';
import { createRateLimiter } from '../../../../electron/core/service/rate-limiter.ts';
import type { Outcome } from '../../../../electron/core/service/outcome.ts';
import type { OrderRequest } from '../../../../electron/core/service/types.ts';
import { money } from '../../../../shared/domain/money.ts';
import { fakeClock, json, makeClient, MARKER_KEY, ORDER, serve, startServer, type Handler } from '../../../support/http-servers.ts';


const request: OrderRequest = {
  productId: 123,
  customAmount: money(2500, 'USD'),
  recipient: { name: 'Ana', email: 'ana@example.com' },
  sender: { name: 'Org' },
  message: 'Thanks',
  externalReferenceId: 'gb-row-1',
};

function expectNoKey(outcome: Outcome<unknown>): void {
  expect(JSON.stringify(outcome)).not.toContain(MARKER_KEY);
}

describe('service client requests', () => {
  it('sends the API key and accept on every request, and content-type on POST', async () => {
    const server = await serve((_req, res) => json(res, 200, ORDER));
    const { client } = makeClient(server.url);
    await client.getOrder(9001);
    await client.createOrder(request);
    const [get, post] = server.requests;
    expect(get?.headers['service-api-key']).toBe(MARKER_KEY);
    expect(get?.headers.accept).toBe('application/json');
    expect(get?.url).toBe('/v1/orders/9001');
    expect(post?.headers['service-api-key']).toBe(MARKER_KEY);
    expect(post?.headers['content-type']).toBe('application/json');
    expect(post?.method).toBe('POST');
  });

  it('keeps a base URL path prefix', async () => {
    const server = await serve((_req, res) => json(res, 200, ORDER));
    const { client } = makeClient(`${server.url}/gift-api`);
    await client.getOrder(1);
    expect(server.requests[0]?.url).toBe('/gift-api/v1/orders/1');
  });

  it('two createOrder calls with the same request send identical bytes, and stored bytes go out unchanged', async () => {
    const server = await serve((_req, res) => json(res, 200, ORDER));
    const { client } = makeClient(server.url);
    await client.createOrder(request);
    await client.createOrder({ ...request, recipient: { ...request.recipient } });
    const stored = '{"item":{"id":5},"external_reference_id":"stored-1"}';
    await client.createOrder(stored);
    const [a, b, c] = server.requests;
    expect(a?.body).toBe(b?.body);
    expect(JSON.parse(a?.body ?? '')).toMatchObject({ custom_amount: 25, external_reference_id: 'gb-row-1' });
    expect(c?.body).toBe(stored);
  });

  it('a 200 order comes back ok, mapped to our names', async () => {
    const server = await serve((_req, res) => json(res, 200, ORDER));
    const { client } = makeClient(server.url);
    const outcome = await client.createOrder(request);
    expect(outcome).toMatchObject({ kind: 'ok', status: 200, endpoint: 'POST /v1/orders', value: { id: 9001, item: { status: 'PENDING' } } });
  });

  it('getAvailability returns the raw body with a best-effort stock flag', async () => {
    const body = { product_id: 3, availability: 'ON_SALE', in_stock: false, message: 'No stock at the supplier', extra: [1] };
    const server = await serve((_req, res) => json(res, 200, body));
    const { client } = makeClient(server.url);
    const outcome = await client.getAvailability(3);
    expect(server.requests[0]?.url).toBe('/v1/products/3/availability');
    expect(outcome).toMatchObject({ kind: 'ok', value: { inStock: false, message: 'No stock at the supplier', raw: body } });
  });

  it('listProducts sends country_code, page and size, and keeps unreadable rows apart', async () => {
    const server = await serve((_req, res) =>
      json(res, 200, { products: [{ id: 1, availability: 'ON_SALE', currency: 'USD', amount: 10 }, { id: 2 }], page: { total_size: 2 } }),
    );
    const { client } = makeClient(server.url);
    const outcome = await client.listProducts({ country: 'US', page: 0, size: 20 });
    expect(server.requests[0]?.url).toBe('/v1/products?country_code=US&page=0&size=20');
    expect(outcome).toMatchObject({ kind: 'ok', value: { rowCount: 2, products: [{ id: 1 }], invalid: [{ index: 1 }] } });
    if (outcome.kind === 'ok') expect(outcome.value.invalid[0]?.issues[0]).toMatch(/^products\[1\] product\.availability/);
  });

  it('listOrders sends the spec parameters and passes further filters through', async () => {
    const server = await serve((_req, res) => json(res, 200, { orders: [] }));
    const { client } = makeClient(server.url);
    await client.listOrders({ page: 2, elementSize: 500, itemStatus: 'PENDING', externalReferenceId: 'a b', params: { created_from: '2030-01-01' } });
    expect(server.requests[0]?.url).toBe('/v1/orders?page=2&element_size=500&order_item_status=PENDING&external_reference_id=a+b&created_from=2030-01-01');
    expect(() => client.listOrders({ page: 0, elementSize: 501 })).toThrow(RangeError);
  });
});

describe('outcome classes', () => {
  const cases: Array<[string, Handler, Record<string, unknown>]> = [
    ['a reset after the request arrived is ambiguous (connection)', (_r, _res, socket) => { socket.destroy(); }, { kind: 'ambiguous', reason: 'connection' }],
    ['a 500 is ambiguous (server-error)', (_r, res) => json(res, 500, { error: { code: 'INTERNAL', message: 'boom' } }), { kind: 'ambiguous', reason: 'server-error', status: 500 }],
    ['an HTML 502 is ambiguous, its text stripped', (_r, res) => { res.writeHead(502, { 'content-type': 'text/html' }); res.end('<html><body><h1>502 Bad Gateway</h1></body></html>'); }, { kind: 'ambiguous', reason: 'server-error', status: 502 }],
    ['a 503 without Retry-After is ambiguous', (_r, res) => json(res, 503, {}), { kind: 'ambiguous', reason: 'server-error', status: 503 }],
    ['a 503 with Retry-After in seconds is rate-limited', (_r, res) => json(res, 503, { error: { code: 'UNAVAILABLE' } }, { 'retry-after': '3' }), { kind: 'rate-limited', status: 503, retryAfterMs: 3000 }],
    ['a 429 with Retry-After is rate-limited', (_r, res) => json(res, 429, { error: { code: 'RATE_LIMITED' } }, { 'retry-after': '2' }), { kind: 'rate-limited', status: 429, retryAfterMs: 2000 }],
    ['a 429 without Retry-After is rate-limited with no wait known', (_r, res) => json(res, 429, {}), { kind: 'rate-limited', retryAfterMs: undefined }],
    ['a Retry-After of hours is waited five minutes at most, and said', (_r, res) => json(res, 429, {}, { 'retry-after': '7200' }), { kind: 'rate-limited', retryAfterMs: 300_000, message: expect.stringContaining('we try again in') }],
    ['a 401 is an auth failure', (_r, res) => json(res, 401, { error: { code: 'UNAUTHORIZED', message: 'unknown key' } }), { kind: 'auth', status: 401, code: 'UNAUTHORIZED' }],
    ['a 403 is an auth failure', (_r, res) => json(res, 403, {}), { kind: 'auth', status: 403 }],
    ['a 408 is ambiguous', (_r, res) => json(res, 408, {}), { kind: 'ambiguous', reason: 'status', status: 408 }],
    ['a 409 is ambiguous', (_r, res) => json(res, 409, {}), { kind: 'ambiguous', reason: 'status', status: 409 }],
    ['a redirect is not followed, and is ambiguous', (_r, res) => { res.writeHead(302, { location: '/elsewhere' }); res.end(); }, { kind: 'ambiguous', reason: 'status', status: 302 }],
    ['a 422 is a definite rejection with the service message and code', (_r, res) => json(res, 422, { error: { code: 'AMOUNT_OUT_OF_RANGE', message: 'custom_amount 600 is above 500' } }), { kind: 'rejected', status: 422, code: 'AMOUNT_OUT_OF_RANGE', message: 'custom_amount 600 is above 500' }],
    ['a 402 is a definite rejection', (_r, res) => json(res, 402, { error: { code: 'INSUFFICIENT_BALANCE', message: 'balance too low' } }), { kind: 'rejected', status: 402, code: 'INSUFFICIENT_BALANCE' }],
    ['a 400 with a text body is rejected with that text', (_r, res) => { res.writeHead(400, { 'content-type': 'text/plain' }); res.end('bad json'); }, { kind: 'rejected', status: 400, code: undefined, message: 'bad json' }],
    ['a body cut before its content-length is ambiguous (truncated)', (_r, res) => { res.writeHead(200, { 'content-type': 'application/json', 'content-length': '900' }); res.write('{"id": 9001, "sta'); setTimeout(() => res.socket?.destroy(), 20); }, { kind: 'ambiguous', reason: 'truncated', status: 200 }],
    ['a 2xx body that is not whole JSON is ambiguous (unreadable)', (_r, res) => { res.writeHead(200, { 'content-type': 'application/json', connection: 'close' }); res.end('{"id": 9001, "status": "COMPL'); }, { kind: 'ambiguous', reason: 'unreadable', status: 200 }],
    ['a 2xx body without an order status is ambiguous (schema), naming the field', (_r, res) => json(res, 200, { ...ORDER, status: undefined }), { kind: 'ambiguous', reason: 'schema', status: 200, issues: ['order.status: expected string, received undefined'] }],
  ];

  it.each(cases)('%s; the POST went out exactly once', async (_name, handler, expected) => {
    const server = await serve(handler);
    const { client } = makeClient(server.url);
    const outcome = await client.createOrder(request);
    expect(outcome).toMatchObject({ endpoint: 'POST /v1/orders', ...expected });
    expect(server.requests).toHaveLength(1);
    expectNoKey(outcome);
  });

  it.each(cases)('GET: %s', async (_name, handler, expected) => {
    const server = await serve(handler);
    const { client } = makeClient(server.url);
    const outcome = await client.getOrder(9001);
    expect(outcome).toMatchObject({ endpoint: 'GET /v1/orders/9001', ...expected });
    expect(server.requests).toHaveLength(1);
  });

  it('the HTML error page text reaches the message, tags stripped', async () => {
    const server = await serve((_r, res) => { res.writeHead(502, { 'content-type': 'text/html' }); res.end('<html><body><h1>502 Bad Gateway</h1></body></html>'); });
    const { client } = makeClient(server.url);
    const outcome = await client.getOrder(1);
    expect(outcome.kind === 'ambiguous' && outcome.message).toContain('HTTP 502 502 Bad Gateway');
  });

  it('an ambiguous POST says the order may exist and to retry with the same key', async () => {
    const server = await serve((_r, res) => json(res, 500, {}));
    const { client } = makeClient(server.url);
    const outcome = await client.createOrder(request);
    expect(outcome.kind === 'ambiguous' && outcome.message).toMatch(/may or may not have been created.*same external_reference_id/);
  });

  it('a 503 with an HTTP-date Retry-After is rate-limited, the wait measured on the injected clock', async () => {
    const clock = fakeClock();
    const server = await serve((_r, res) => json(res, 503, {}, { 'retry-after': new Date(clock.now() + 5_000).toUTCString() }));
    const limiter = createRateLimiter({ rate: 10, clock });
    const client = createServiceClient({ baseUrl: server.url, apiKey: MARKER_KEY, limiter, clock });
    const outcome = await client.getOrder(1);
    expect(outcome).toMatchObject({ kind: 'rate-limited', retryAfterMs: 5_000 });
    expect(limiter.stats()).toMatchObject({ pausedUntil: clock.now() + 5_000, currentRate: 5, penalties: 1 });
  });

  it('a 429 pauses and slows the shared limiter, so the next request waits', async () => {
    let calls = 0;
    const server = await serve((_r, res) => (calls++ === 0 ? json(res, 429, {}, { 'retry-after': '4' }) : json(res, 200, ORDER)));
    const { client, clock, limiter } = makeClient(server.url);
    expect((await client.getOrder(1)).kind).toBe('rate-limited');
    expect(limiter.stats().currentRate).toBe(500);
    const before = clock.now();
    expect((await client.getOrder(1)).kind).toBe('ok');
    expect(clock.now() - before).toBeGreaterThanOrEqual(4_000);
  });

  it('no answer within the timeout is ambiguous (timeout), and the POST is not repeated', async () => {
    const server = await serve(() => undefined);
    const { client } = makeClient(server.url, { timeoutMs: 150 });
    const outcome = await client.createOrder(request);
    expect(outcome).toMatchObject({ kind: 'ambiguous', reason: 'timeout' });
    expect(outcome.kind === 'ambiguous' && outcome.message).toContain('no complete answer within 0.2 s');
    expect(server.requests).toHaveLength(1);
  });

  it('headers in time but a body that stalls past the timeout is ambiguous (timeout)', async () => {
    const server = await serve((_r, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.write('{"id":'); });
    const { client } = makeClient(server.url, { timeoutMs: 150 });
    expect(await client.getOrder(1)).toMatchObject({ kind: 'ambiguous', reason: 'timeout', endpoint: 'GET /v1/orders/1' });
  });

  it('a refused connection is ambiguous with reason unreachable', async () => {
    const server = await startServer(() => undefined);
    await server.close();
    const { client } = makeClient(server.url);
    const outcome = await client.createOrder(request);
    expect(outcome).toMatchObject({ kind: 'ambiguous', reason: 'unreachable' });
    expect(outcome.kind === 'ambiguous' && outcome.message).toContain('ECONNREFUSED');
  });

  it('a request the caller cancels is ambiguous (aborted)', async () => {
    const server = await serve(() => undefined);
    const { client } = makeClient(server.url);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    expect(await client.getOrder(1, { signal: controller.signal })).toMatchObject({ kind: 'ambiguous', reason: 'aborted' });
  });
});

describe('client set-up', () => {
  it('refuses a base URL that is not http(s)', () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ rate: 1, clock });
    expect(() => createServiceClient({ baseUrl: 'not a url', apiKey: MARKER_KEY, limiter, clock })).toThrow(/is not a URL/);
    expect(() => createServiceClient({ baseUrl: 'ftp://x', apiKey: MARKER_KEY, limiter, clock })).toThrow(/http:\/\/ or https:\/\//);
  });

  it('a log callback that throws does not turn an outcome into an exception', async () => {
    const server = await serve((_req, res) => json(res, 200, ORDER));
    const { client } = makeClient(server.url, { onAttempt: () => { throw new Error('log full'); } });
    expect(await client.getOrder(1)).toMatchObject({ kind: 'ok' });
  });

  it('every request goes through the limiter', async () => {
    const server = await serve((_req, res) => json(res, 200, { orders: [] }));
    const { client, limiter } = makeClient(server.url);
    await client.getOrder(1);
    await client.listAllOrders();
    await client.createOrder(request);
    await client.getAvailability(1);
    expect(limiter.stats().acquired).toBe(server.requests.length);
  });
});

describe('the API key stays secret', () => {
  it('never appears in an outcome, even when the server echoes it back', async () => {
    const server = await serve((req, res) => {
      const key = String(req.headers['service-api-key']);
      if (req.url?.includes('/orders/1')) json(res, 401, { error: { code: 'UNAUTHORIZED', message: `key ${key} is unknown` } });
      else if (req.url?.includes('/orders/2')) json(res, 422, { error: { message: `bad key ${key}` } });
      else if (req.url?.includes('/orders/3')) json(res, 200, { ...ORDER, message: key, [key]: key });
      else json(res, 200, { id: key });
    });
    const events: unknown[] = [];
    const { client } = makeClient(server.url, { onAttempt: (e) => events.push(e) });
    for (const id of [1, 2, 3, 4]) {
      const outcome = await client.getOrder(id);
      expectNoKey(outcome);
      expect(JSON.stringify(outcome)).toContain('[redacted]');
    }
    expect(events).toHaveLength(4);
    expect(JSON.stringify(events)).not.toContain(MARKER_KEY);
  });

  it('a key that cannot be sent in a header is refused without quoting it', () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ rate: 1, clock });
    const bad = `${MARKER_KEY}\n`;
    expect(() => createServiceClient({ baseUrl: 'http://127.0.0.1:1', apiKey: bad, limiter, clock })).toThrow(/cannot be sent in a header/);
    try {
      createServiceClient({ baseUrl: 'http://127.0.0.1:1', apiKey: bad, limiter, clock });
    } catch (err) {
      expect(String(err)).not.toContain(MARKER_KEY);
      expect(JSON.stringify(err)).not.toContain(MARKER_KEY);
    }
  });
});

describe('kept-alive sockets the server has closed', () => {
  // The server answers the first request on each connection and resets the connection on any later
  // one: what a client meets when a server (or a proxy) drops an idle kept-alive socket just as the
  // client reuses it.
  const resetsReusedSockets = async () => {
    const served = new WeakSet<object>();
    return serve((req, res, socket) => {
      if (served.has(socket)) {
        socket.destroy();
        return;
      }
      served.add(socket);
      if (req.method === 'GET') json(res, 200, ORDER);
      else json(res, 200, { ...ORDER, external_reference_id: 'ref-1' });
    });
  };

  it('a GET reset on a reused socket is read again on a new one', async () => {
    const server = await resetsReusedSockets();
    const { client } = makeClient(server.url);
    expect(await client.getOrder(9001)).toMatchObject({ kind: 'ok' });
    expect(await client.getOrder(9001)).toMatchObject({ kind: 'ok' });
    expect(server.requests.map((r) => r.method)).toEqual(['GET', 'GET', 'GET']);
  });

  it('a POST reset on a reused socket is never sent again: its outcome is unknown', async () => {
    const server = await resetsReusedSockets();
    const { client } = makeClient(server.url);
    expect(await client.getOrder(9001)).toMatchObject({ kind: 'ok' });
    const outcome = await client.createOrder(JSON.stringify({ item: { id: 1 }, external_reference_id: 'ref-1' }));
    expect(outcome).toMatchObject({ kind: 'ambiguous', reason: 'connection' });
    expect(server.requests.map((r) => r.method)).toEqual(['GET', 'POST']);
  });
});
