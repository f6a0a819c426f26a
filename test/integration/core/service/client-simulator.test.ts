// The service client against the real simulator over HTTP: every endpoint, every outcome class,
// every injected fault. Fakes only for time.

import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator, productIdFor, type Simulator, type SimulatorOptions } from '../../../../electron/simulator/index.ts';
import { createServiceClient, createRateLimiter, serializeOrderRequest, type OrderRequest } from '../../../../electron/core/service/index.ts';
import { systemClock, type Clock } from '../../../../electron/core/clock.ts';
import { money } from '../../../../shared/domain/money.ts';

const KEY = 'sim_marker_KEY_b41d7e02';
const sims: Simulator[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.stop()));
});

async function setup(options: SimulatorOptions = {}, client: { timeoutMs?: number; clock?: Clock; key?: string; productPageSize?: number } = {}) {
  const sim = createSimulator({ itemDelayMs: 60_000, ...options });
  sims.push(sim);
  const { url } = await sim.start(0);
  const clock: Clock = client.clock ?? systemClock;
  const limiter = createRateLimiter({ rate: 1000, burst: 1000, clock });
  const service = createServiceClient({
    baseUrl: url,
    apiKey: client.key ?? KEY,
    limiter,
    clock,
    timeoutMs: client.timeoutMs ?? 5_000,
    ...(client.productPageSize ? { productPageSize: client.productPageSize } : {}),
  });
  return { sim, url, service, limiter };
}

function order(slug: string, ref: string, extra: Partial<OrderRequest> = {}): OrderRequest {
  return {
    productId: productIdFor(KEY, slug),
    recipient: { name: 'Ana Lima', email: 'ana@example.com' },
    sender: { name: 'Event Team' },
    message: 'Thank you for coming',
    externalReferenceId: ref,
    ...extra,
  };
}

function ordersOf(sim: Simulator) {
  return sim.audit().accounts[KEY]?.orders ?? [];
}

describe('catalog endpoints', () => {
  it('listAllProducts reads fixed and range products with their currencies, across clamped pages', async () => {
    const { service } = await setup({}, { productPageSize: 4 });
    const outcome = await service.listAllProducts('US');
    if (outcome.kind !== 'ok') throw new Error(outcome.message);
    expect(outcome.value.invalid).toEqual([]);
    const ids = outcome.value.products.map((p) => p.id);
    expect(ids).toContain(productIdFor(KEY, 'us-fixed-10'));
    const range = outcome.value.products.find((p) => p.id === productIdFor(KEY, 'us-range'));
    expect(range?.price).toEqual({ kind: 'range', min: { minor: 500, currency: 'USD' }, max: { minor: 50000, currency: 'USD' } });
    expect(outcome.value.products.every((p) => p.countryCode === 'US')).toBe(true);
  });

  it('reads KRW and JPY prices in whole units across all countries', async () => {
    const { service } = await setup();
    const outcome = await service.listAllProducts();
    if (outcome.kind !== 'ok') throw new Error(outcome.message);
    const byId = new Map(outcome.value.products.map((p) => [p.id, p]));
    expect(byId.get(productIdFor(KEY, 'kr-fixed-krw'))?.price).toEqual({ kind: 'fixed', amount: { minor: 30000, currency: 'KRW' } });
    expect(byId.get(productIdFor(KEY, 'jp-fixed-jpy'))?.price).toEqual({ kind: 'fixed', amount: { minor: 3000, currency: 'JPY' } });
    expect(byId.get(productIdFor(KEY, 'us-fixed-cents'))?.price).toEqual({ kind: 'fixed', amount: { minor: 1250, currency: 'USD' } });
    expect(byId.get(productIdFor(KEY, 'us-not-on-sale'))?.availability).toBe('SOLD_OUT');
    expect(byId.get(productIdFor(KEY, 'us-no-email'))?.deliveryMethods).toEqual(['SMS']);
  });

  it('getAvailability tells an out-of-stock product from one in stock', async () => {
    const { service } = await setup();
    expect(await service.getAvailability(productIdFor(KEY, 'us-out-of-stock'))).toMatchObject({ kind: 'ok', value: { inStock: false } });
    expect(await service.getAvailability(productIdFor(KEY, 'us-fixed-10'))).toMatchObject({ kind: 'ok', value: { inStock: true } });
    expect(await service.getAvailability(999_999_999)).toMatchObject({ kind: 'rejected', status: 404 });
  });
});

describe('orders', () => {
  it('createOrder returns the order; a cross-currency charge keeps its rate and raw amount', async () => {
    const { service } = await setup();
    const outcome = await service.createOrder(order('kr-fixed-krw', 'it-krw-1'));
    if (outcome.kind !== 'ok') throw new Error(outcome.message);
    expect(outcome.value).toMatchObject({
      status: 'COMPLETED',
      externalReferenceId: 'it-krw-1',
      item: { status: 'PENDING', price: { text: '30000', currency: 'KRW', money: { minor: 30000, currency: 'KRW' } } },
      charged: { from: 'KRW', to: 'USD', amount: { currency: 'USD' } },
    });
    expect(outcome.value.charged?.rate).toBeGreaterThan(0);
  });

  it('a range product takes custom_amount, and an amount outside it is a definite rejection', async () => {
    const { service, sim } = await setup();
    const ok = await service.createOrder(order('us-range', 'it-range-1', { customAmount: money(2550, 'USD') }));
    expect(ok).toMatchObject({ kind: 'ok', value: { item: { price: { text: '25.5', money: { minor: 2550, currency: 'USD' } } } } });
    const tooHigh = await service.createOrder(order('us-range', 'it-range-2', { customAmount: money(60000, 'USD') }));
    expect(tooHigh).toMatchObject({ kind: 'rejected', status: 422, code: 'AMOUNT_OUT_OF_RANGE' });
    expect(tooHigh.kind === 'rejected' && tooHigh.message).toMatch(/max/);
    expect(await service.createOrder(order('us-not-on-sale', 'it-nos'))).toMatchObject({ kind: 'rejected', code: 'PRODUCT_NOT_ON_SALE' });
    expect(ordersOf(sim)).toHaveLength(1);
  });

  it('the same stored bytes sent twice give the same order, and the simulator holds one', async () => {
    const { service, sim } = await setup();
    const body = serializeOrderRequest(order('us-fixed-25', 'it-same-1'));
    const first = await service.createOrder(body);
    const second = await service.createOrder(body);
    expect(first.kind === 'ok' && second.kind === 'ok' && first.value.id === second.value.id).toBe(true);
    const audit = sim.audit().accounts[KEY];
    expect(audit?.orders).toHaveLength(1);
    expect(audit?.conflictingRetries).toEqual([]);
  });

  it('getOrder follows the item from PENDING to COMPLETED; an unknown id is rejected', async () => {
    let now = Date.UTC(2030, 0, 1);
    const { service } = await setup({ now: () => now, itemDelayMs: 3000 });
    const created = await service.createOrder(order('us-fixed-10', 'it-get-1'));
    if (created.kind !== 'ok') throw new Error(created.message);
    expect(await service.getOrder(created.value.id)).toMatchObject({ kind: 'ok', value: { item: { status: 'PENDING' } } });
    now += 3_001;
    expect(await service.getOrder(created.value.id)).toMatchObject({ kind: 'ok', value: { item: { status: 'COMPLETED' } } });
    expect(await service.getOrder(123_456_789)).toMatchObject({ kind: 'rejected', status: 404 });
  });

  it('the recipient-enters-details product carries an acceptance expiry', async () => {
    const { service } = await setup();
    const outcome = await service.createOrder(order('us-recipient-details', 'it-accept-1'));
    expect(outcome.kind === 'ok' && typeof outcome.value.acceptanceExpiresAt).toBe('string');
  });

  it('listAllOrders pages by element_size 500 until a short page, with the PENDING filter', async () => {
    let now = Date.UTC(2030, 0, 1);
    const { service } = await setup({ now: () => now, itemDelayMs: 1000 });
    const early = await service.createOrder(order('us-fixed-10', 'it-list-early'));
    now += 2_000; // the first item is delivered; the next ones stay PENDING
    for (let i = 0; i < 501; i += 1) {
      const o = await service.createOrder(order('us-fixed-10', `it-list-${i}`));
      if (o.kind !== 'ok') throw new Error(o.message);
    }
    const pages: number[] = [];
    for await (const page of service.orderPages({ itemStatus: 'PENDING' })) if (page.kind === 'ok') pages.push(page.value.rowCount);
    expect(pages).toEqual([500, 1]);
    const all = await service.listAllOrders({ itemStatus: 'PENDING' });
    if (all.kind !== 'ok' || early.kind !== 'ok') throw new Error('listing failed');
    expect(all.value.orders).toHaveLength(501);
    expect(all.value.orders.some((o) => o.id === early.value.id)).toBe(false);
  });

  it('findOrderByReference finds the order under a key, and says null for an unused key', async () => {
    const { service } = await setup();
    const created = await service.createOrder(order('us-fixed-10', 'it-find-1'));
    await service.createOrder(order('us-fixed-10', 'it-find-2'));
    expect(await service.findOrderByReference('it-find-1')).toMatchObject({
      kind: 'ok',
      value: { order: { id: created.kind === 'ok' ? created.value.id : -1 }, duplicates: [] },
    });
    expect(await service.findOrderByReference('it-never-sent')).toMatchObject({ kind: 'ok', value: { order: null } });
  });
});

describe('outcome classes against injected faults', () => {
  it('a reset after commit is ambiguous; the order exists and a retry with the same bytes returns it', async () => {
    const { service, sim } = await setup({ faults: { resetAfterCommit: 1 } });
    const body = serializeOrderRequest(order('us-fixed-10', 'it-reset-1'));
    expect(await service.createOrder(body)).toMatchObject({ kind: 'ambiguous', reason: 'connection' });
    expect(ordersOf(sim)).toHaveLength(1);
    sim.setFaults({ resetAfterCommit: 0 });
    const found = await service.findOrderByReference('it-reset-1');
    const retried = await service.createOrder(body);
    expect(found.kind === 'ok' && retried.kind === 'ok' && found.value.order?.id === retried.value.id).toBe(true);
    expect(ordersOf(sim)).toHaveLength(1);
  });

  it('a 500 before commit is ambiguous and nothing was created; the POST went out once', async () => {
    const { service, sim } = await setup({ faults: { error500BeforeCommit: 1 } });
    expect(await service.createOrder(order('us-fixed-10', 'it-500'))).toMatchObject({ kind: 'ambiguous', reason: 'server-error', status: 500 });
    expect(ordersOf(sim)).toHaveLength(0);
    expect(sim.audit().accounts[KEY]?.requests['POST /v1/orders']).toEqual({ 500: 1 });
  });

  it('a 503 with Retry-After in seconds is rate-limited and pauses the limiter', async () => {
    const { service, limiter } = await setup({ faults: { error503: 1 }, retryAfter503Seconds: 2 });
    expect(await service.createOrder(order('us-fixed-10', 'it-503'))).toMatchObject({ kind: 'rate-limited', status: 503, retryAfterMs: 2000 });
    expect(limiter.stats().penalties).toBe(1);
  });

  it('a 503 with Retry-After as an HTTP-date is read against the injected clock', async () => {
    const fixed = Date.UTC(2030, 5, 1, 8, 0, 0);
    const clock: Clock = { now: () => fixed, sleep: async () => undefined };
    const { service } = await setup({ now: () => fixed, faults: { error503: 1 }, retryAfterFormat: 'http-date', retryAfter503Seconds: 3 }, { clock });
    expect(await service.createOrder(order('us-fixed-10', 'it-503-date'))).toMatchObject({ kind: 'rate-limited', retryAfterMs: 3000 });
  });

  it('going past the rate limit gives rate-limited with Retry-After, and the limiter slows down', async () => {
    const { service, limiter } = await setup({ rateLimit: 1, rateBurst: 1 });
    expect(await service.getOrder(1)).toMatchObject({ kind: 'rejected', status: 404 });
    const limited = await service.getOrder(1);
    expect(limited).toMatchObject({ kind: 'rate-limited', status: 429 });
    expect(limited?.kind === 'rate-limited' && limited.retryAfterMs).toBeGreaterThanOrEqual(1000);
    expect(limiter.stats()).toMatchObject({ currentRate: 500, penalties: 1 });
    expect(limiter.stats().pausedUntil).not.toBeNull();
  });

  it('a response slower than the timeout is ambiguous (timeout); the order was still created', async () => {
    const { service, sim } = await setup({ faults: { slow: 1, slowMs: 1500 } }, { timeoutMs: 300 });
    expect(await service.createOrder(order('us-fixed-10', 'it-slow'))).toMatchObject({ kind: 'ambiguous', reason: 'timeout' });
    expect(ordersOf(sim)).toHaveLength(1);
  });

  it('a truncated body is ambiguous (unreadable): the simulator declares the cut length', async () => {
    const { service, sim } = await setup({ faults: { truncate: 1 } });
    const outcome = await service.createOrder(order('us-fixed-10', 'it-trunc'));
    expect(outcome).toMatchObject({ kind: 'ambiguous', reason: 'unreadable', status: 200 });
    expect(ordersOf(sim)).toHaveLength(1);
  });

  it('faults on every route reach GETs too', async () => {
    const { service, sim } = await setup();
    const created = await service.createOrder(order('us-fixed-10', 'it-get-fault'));
    if (created.kind !== 'ok') throw new Error(created.message);
    sim.setFaults({ error500BeforeCommit: 1, faultRoutes: 'all' });
    expect(await service.getOrder(created.value.id)).toMatchObject({ kind: 'ambiguous', reason: 'server-error' });
    expect(await service.listAllOrders()).toMatchObject({ kind: 'ambiguous', reason: 'server-error' });
  });

  it('an unknown key is an auth failure, and the key appears nowhere in the outcome', async () => {
    const { service } = await setup({ keys: ['some-other-key'] });
    const outcomes = [await service.listProducts({ country: 'US' }), await service.createOrder(order('us-fixed-10', 'it-auth'))];
    for (const outcome of outcomes) {
      expect(outcome).toMatchObject({ kind: 'auth', status: 401, code: 'UNAUTHORIZED' });
      expect(JSON.stringify(outcome)).not.toContain(KEY);
    }
  });

  it('a stopped simulator is unreachable', async () => {
    const { service, sim } = await setup();
    await sim.stop();
    sims.splice(sims.indexOf(sim), 1);
    expect(await service.getOrder(1)).toMatchObject({ kind: 'ambiguous', reason: 'unreachable' });
  });
});
