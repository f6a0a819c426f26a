// Each dialect switch gives another answer the spec leaves open; these pin the wire shape of each,
// so a client test that runs against a dialect knows exactly what it is up against.

import { afterEach, describe, expect, it } from 'vitest';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { errorCode, item, json, manualClock, orderBody, startSimulator, type Harness } from '../../support/simulator-http.ts';

let h: Harness;
afterEach(async () => { await h.sim.stop(); });

const ordersQuery = '/v1/orders?page=0&element_size=10';

async function products(key: string): Promise<Record<string, unknown>[]> {
  const body = await json(await h.get(key, '/v1/products?country_code=US'));
  return body['products'] as Record<string, unknown>[];
}

describe('dialect: productCurrencyField', () => {
  it('default: every product has "currency"', async () => {
    h = await startSimulator();
    expect((await products('k')).every((p) => p['currency'] === 'USD')).toBe(true);
  });

  it('null: no currency field at all, as in the spec\'s product table', async () => {
    h = await startSimulator({ dialect: { productCurrencyField: null } });
    for (const p of await products('k')) expect(Object.keys(p).filter((f) => /currency/.test(f))).toEqual([]);
  });

  it('another name: the currency under that name only', async () => {
    h = await startSimulator({ dialect: { productCurrencyField: 'price_currency' } });
    const list = await products('k');
    expect(list.every((p) => p['price_currency'] === 'USD' && !('currency' in p))).toBe(true);
  });
});

describe('dialect: customAmount', () => {
  const range = (extra: Record<string, unknown>): Record<string, unknown> => ({ ...item('k', 'us-range'), ...extra });

  it('default top-or-item: a top-level custom_amount is issued and charged, and recorded as requested', async () => {
    h = await startSimulator();
    expect((await h.order('k', { ...range({}), custom_amount: 50 })).status).toBe(200);
    expect(h.sim.audit().accounts['k']?.orders[0]).toMatchObject({
      requestedAmount: '50.00', price: { amount: '50.00' }, charged: { amount: '50.00' },
    });
  });

  it('item-or-minimum: a top-level custom_amount is ignored and the minimum is issued and charged, silently', async () => {
    h = await startSimulator({ dialect: { customAmount: 'item-or-minimum' } });
    const res = await h.order('k', { ...range({}), custom_amount: 50, external_reference_id: 'top' });
    expect(res.status).toBe(200);
    const order = (await res.json()) as { order_item: { price: { amount: number } }; total_price_charged: { amount: number } };
    expect(order.order_item.price.amount).toBe(5);
    expect(order.total_price_charged.amount).toBe(5);
    const audited = h.sim.audit().accounts['k'];
    expect(audited?.orders[0]).toMatchObject({
      externalReferenceId: 'top', requestedAmount: '50.00', price: { amount: '5.00' }, charged: { amount: '5.00' },
    });
    expect(audited?.balance.amount).toBe('999995.00');
  });

  it('item-or-minimum: no custom_amount anywhere is not an error either; item.custom_amount is honoured and bounds-checked', async () => {
    h = await startSimulator({ dialect: { customAmount: 'item-or-minimum' } });
    expect((await h.order('k', { ...range({}), external_reference_id: 'none' })).status).toBe(200);
    expect((await h.order('k', { ...item('k', 'us-range', { custom_amount: 40 }), external_reference_id: 'in-item' })).status).toBe(200);
    const low = await h.order('k', item('k', 'us-range', { custom_amount: 1 }));
    expect(low.status).toBe(422);
    expect(await errorCode(low)).toBe('AMOUNT_OUT_OF_RANGE');
    expect(h.sim.audit().accounts['k']?.orders.map((o) => [o.externalReferenceId, o.requestedAmount, o.price.amount])).toEqual([
      ['none', null, '5.00'],
      ['in-item', '40.00', '40.00'],
    ]);
  });
});

describe('dialect: customAmountUnits, customAmountBounds, customAmountCurrency', () => {
  type Audited = [string | null, string | null, string, string];
  const audited = (): Audited[] =>
    (h.sim.audit().accounts['k']?.orders ?? []).map((o) => [o.externalReferenceId, o.requestedAmount, `${o.price.currency} ${o.price.amount}`, `${o.charged.currency} ${o.charged.amount}`]);
  const ask = (slug: string, amount: number, ref: string) => h.order('k', { ...item('k', slug), custom_amount: amount, external_reference_id: ref });

  it('units minor: 500 is USD 5.00 (bounds-checked as such, 25 is refused); KRW, without minor units, reads the same', async () => {
    h = await startSimulator({ dialect: { customAmountUnits: 'minor' } });
    expect((await ask('us-range', 500, 'five')).status).toBe(200);
    const low = await ask('us-range', 25, 'quarter');
    expect(low.status).toBe(422);
    expect(await json(low)).toMatchObject({ error: { code: 'AMOUNT_OUT_OF_RANGE', message: expect.stringContaining('custom_amount 25 (read as USD 0.25) is below') } });
    const cents = await ask('us-range', 550.5, 'half-cent');
    expect(await errorCode(cents)).toBe('INVALID_REQUEST');
    expect((await ask('kr-range-krw', 50000, 'won')).status).toBe(200);
    expect(audited()).toEqual([['five', '500.00', 'USD 5.00', 'USD 5.00'], ['won', '50000', 'KRW 50000', 'USD 38.25']]);
  });

  it('bounds clamp: an amount out of bounds is issued and charged at the nearest bound, with a 200', async () => {
    h = await startSimulator({ dialect: { customAmountBounds: 'clamp' } });
    expect((await ask('us-range', 600, 'high')).status).toBe(200);
    expect((await ask('us-range', 1, 'low')).status).toBe(200);
    expect((await ask('us-range', 42, 'within')).status).toBe(200);
    expect(audited()).toEqual([
      ['high', '600.00', 'USD 500.00', 'USD 500.00'], ['low', '1.00', 'USD 5.00', 'USD 5.00'], ['within', '42.00', 'USD 42.00', 'USD 42.00'],
    ]);
  });

  it('currency account: a EUR product\'s 50 is USD 50.00, issued as EUR 46.25; a USD product reads the same', async () => {
    h = await startSimulator({ dialect: { customAmountCurrency: 'account' } });
    expect((await ask('de-range-eur', 50, 'eur')).status).toBe(200);
    expect((await ask('us-range', 50, 'usd')).status).toBe(200);
    // KRW 5,000 is the product's minimum: USD 3 is KRW 4,050.
    const low = await ask('kr-range-krw', 3, 'krw');
    expect(await json(low)).toMatchObject({ error: { code: 'AMOUNT_OUT_OF_RANGE', message: expect.stringContaining('custom_amount 3 (read as KRW 4050) is below') } });
    // 46.25 × 1.08 × 1.02 = 50.949 → USD 50.95.
    expect(audited()).toEqual([['eur', '50.00', 'EUR 46.25', 'USD 50.95'], ['usd', '50.00', 'USD 50.00', 'USD 50.00']]);
  });

  it('refuses a value it does not know', async () => {
    await expect(startSimulator({ dialect: { customAmountUnits: 'cents' as never } })).rejects.toThrow(/customAmountUnits must be one of major, minor/);
    await expect(startSimulator({ dialect: { customAmountBounds: 'round' as never } })).rejects.toThrow(/customAmountBounds must be one of refuse, clamp/);
    await expect(startSimulator({ dialect: { customAmountCurrency: 'USD' as never } })).rejects.toThrow(/customAmountCurrency must be one of product, account/);
    h = await startSimulator();
  });
});

describe('dialect: listEnvelope', () => {
  it.each([
    ['data', 'data'],
    ['items', 'items'],
  ] as const)('%s: {%s: [...], page} for products and orders', async (envelope, field) => {
    h = await startSimulator({ dialect: { listEnvelope: envelope } });
    await h.order('k', { external_reference_id: 'one' });
    const p = await json(await h.get('k', '/v1/products?country_code=US'));
    expect(Object.keys(p).sort()).toEqual([field, 'page'].sort());
    expect((p[field] as unknown[]).length).toBeGreaterThan(0);
    const o = await json(await h.get('k', ordersQuery));
    expect(Object.keys(o).sort()).toEqual([field, 'page'].sort());
    expect((o[field] as { external_reference_id: string }[]).map((x) => x.external_reference_id)).toEqual(['one']);
    expect(o['page']).toMatchObject({ total_size: 1, result_size: 1 });
  });

  it('bare: a top-level JSON array, no page object', async () => {
    h = await startSimulator({ dialect: { listEnvelope: 'bare' } });
    await h.order('k', { external_reference_id: 'one' });
    const p = (await (await h.get('k', '/v1/products?country_code=US')).json()) as unknown;
    expect(Array.isArray(p)).toBe(true);
    const o = (await (await h.get('k', ordersQuery)).json()) as { external_reference_id: string }[];
    expect(Array.isArray(o)).toBe(true);
    expect(o.map((x) => x.external_reference_id)).toEqual(['one']);
  });
});

describe('dialect: errorBody', () => {
  it('flat: {code, message} on 4xx and 5xx', async () => {
    h = await startSimulator({ dialect: { errorBody: 'flat' }, faults: { error500BeforeCommit: 1 } });
    const missing = await json(await h.get('k', '/v1/products/5/availability'));
    expect(Object.keys(missing).sort()).toEqual(['code', 'message']);
    expect(missing['code']).toBe('PRODUCT_NOT_FOUND');
    expect(await json(await h.get(null, '/v1/products'))).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await json(await h.order('k'))).toMatchObject({ code: 'INTERNAL' });
  });

  it('text: text/plain "CODE: message", not JSON', async () => {
    h = await startSimulator({ dialect: { errorBody: 'text' }, rateLimit: 1, rateBurst: 1, now: () => 0 });
    const res = await h.get('k', '/v1/products/5/availability');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toMatch(/^PRODUCT_NOT_FOUND: no product 5 /);
    const limited = await h.get('k', '/v1/products');
    expect(limited.status).toBe(429);
    expect(await limited.text()).toMatch(/^RATE_LIMITED: /);
  });

  it('the test endpoints keep the nested shape whatever the dialect', async () => {
    h = await startSimulator({ dialect: { errorBody: 'text' } });
    const res = await h.post(null, '/__control/accept', { key: 'k', orderId: 1 });
    expect(res.status).toBe(409);
    expect(await errorCode(res)).toBe('CONTROL_REFUSED');
  });
});

describe('dialect: availabilityBody', () => {
  const availability = async (slug: string): Promise<unknown> =>
    (await h.get('k', `/v1/products/${productIdFor('k', slug)}/availability`)).json();

  it('status-word: {status} only, one of IN_STOCK, OUT_OF_STOCK, NOT_ON_SALE', async () => {
    h = await startSimulator({ dialect: { availabilityBody: 'status-word' } });
    expect(await availability('us-fixed-25')).toEqual({ status: 'IN_STOCK' });
    expect(await availability('us-out-of-stock')).toEqual({ status: 'OUT_OF_STOCK' });
    expect(await availability('us-not-on-sale')).toEqual({ status: 'NOT_ON_SALE' });
  });

  it('quantity: {product: {id}, stock: {quantity}}, 0 when it cannot be delivered', async () => {
    h = await startSimulator({ dialect: { availabilityBody: 'quantity' } });
    const id = productIdFor('k', 'us-fixed-25');
    expect(await availability('us-fixed-25')).toEqual({ product: { id }, stock: { quantity: 1000 } });
    expect(await availability('us-out-of-stock')).toMatchObject({ stock: { quantity: 0 } });
    expect(await availability('us-discontinued')).toMatchObject({ stock: { quantity: 0 } });
  });
});

describe('dialect: retryAfter', () => {
  it('false: 429 and 503 carry no Retry-After header', async () => {
    h = await startSimulator({ dialect: { retryAfter: false }, rateLimit: 1, rateBurst: 1, now: () => 0, faults: { error503: 1 } });
    const unavailable = await h.order('k');
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.has('retry-after')).toBe(false);
    const limited = await h.get('k', '/v1/products');
    expect(limited.status).toBe(429);
    expect(limited.headers.has('retry-after')).toBe(false);
    expect(await errorCode(limited)).toBe('RATE_LIMITED');
  });
});

describe('dialect: listLagMs', () => {
  it('a new order is missing from every list until the lag has passed, yet found by id and by a retry at once', async () => {
    const clock = manualClock();
    h = await startSimulator({ dialect: { listLagMs: 3000 }, now: clock.now });
    const body = orderBody('k', { external_reference_id: 'lagging' });
    const created = (await (await h.post('k', '/v1/orders', body)).json()) as { id: number };
    const refs = async (query: string): Promise<string[]> =>
      ((await json(await h.get('k', `${ordersQuery}${query}`)))['orders'] as { external_reference_id: string }[])
        .map((o) => o.external_reference_id);

    clock.advance(2999);
    expect(await refs('')).toEqual([]);
    expect(await refs('&external_reference_id=lagging')).toEqual([]);
    expect(await refs('&order_item_status=COMPLETED')).toEqual([]);
    expect((await h.get('k', `/v1/orders/${created.id}`)).status).toBe(200);
    const retry = await h.post('k', '/v1/orders', body);
    expect(retry.status).toBe(200);
    expect(((await retry.json()) as { id: number }).id).toBe(created.id);

    clock.advance(1);
    expect(await refs('')).toEqual(['lagging']);
    expect(await refs('&external_reference_id=lagging')).toEqual(['lagging']);
    expect(h.sim.audit().accounts['k']?.orders).toHaveLength(1);
  });
});

describe('fault: error503AfterCommit', () => {
  it('the order is committed, the client sees 503 with Retry-After, and a retry with the same key gets it with 200', async () => {
    h = await startSimulator({ faults: { error503AfterCommit: 1 } });
    const body = orderBody('k', { external_reference_id: 'after-commit' });
    const first = await h.post('k', '/v1/orders', body);
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('1');
    expect(await errorCode(first)).toBe('UNAVAILABLE');
    const audit = h.sim.audit().accounts['k'];
    expect(audit?.orders.map((o) => o.externalReferenceId)).toEqual(['after-commit']);
    expect(audit?.faults.error503AfterCommit).toBe(1);

    h.sim.setFaults({ error503AfterCommit: 0 });
    const retry = await h.post('k', '/v1/orders', body);
    expect(retry.status).toBe(200);
    expect(((await retry.json()) as { id: number }).id).toBe(audit?.orders[0]?.id);
    expect(h.sim.audit().accounts['k']?.orders).toHaveLength(1);
    expect(h.sim.audit().accounts['k']?.duplicates).toEqual([]);
  });

  it('with retryAfter false the 503 carries no Retry-After', async () => {
    h = await startSimulator({ faults: { error503AfterCommit: 1 }, dialect: { retryAfter: false } });
    const res = await h.order('k');
    expect(res.status).toBe(503);
    expect(res.headers.has('retry-after')).toBe(false);
    expect(h.sim.audit().accounts['k']?.orders).toHaveLength(1);
  });
});

describe('fault: gatewayTimeoutWhileProcessing', () => {
  it("the client gets a gateway's 504 at once; the service goes on and commits the order racyKeyCheckMs later", async () => {
    h = await startSimulator({ faults: { gatewayTimeoutWhileProcessing: 1 }, dialect: { racyKeyCheckMs: 300 } });
    const body = orderBody('k', { external_reference_id: 'while-processing' });
    const started = Date.now();
    const first = await h.post('k', '/v1/orders', body);
    expect(first.status).toBe(504);
    expect(Date.now() - started).toBeLessThan(250);
    expect(await first.text()).toContain('504 Gateway Time-out');
    expect(h.sim.audit().accounts['k']?.orders).toEqual([]);
    expect(h.sim.audit().accounts['k']?.faults.gatewayTimeoutWhileProcessing).toBe(1);

    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(h.sim.audit().accounts['k']?.orders.map((o) => o.externalReferenceId)).toEqual(['while-processing']);
  });
});
