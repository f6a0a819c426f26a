import { afterEach, describe, expect, it } from 'vitest';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { errorCode, item, json, orderBody, startSimulator, type Harness } from '../../support/simulator-http.ts';

let h: Harness;
afterEach(async () => { await h.sim.stop(); });

interface OrderJson {
  id: number;
  status: string;
  external_reference_id: string | null;
  order_item: { id: number; status: string; product_id: number; price: { amount: number; currency: string }; transaction_fee_rate: number };
  total_price_charged: { amount: number; currency: string; applied_exchange_rate: { rate: number; currency: { from: string; to: string } } };
  delivery: { method: string; recipient: { name: string; email: string; acceptance?: { expiry_date: string } }; sender?: { name: string } };
  message?: string;
}

describe('simulator POST /v1/orders', () => {
  it('creates an order: 200, order COMPLETED, item PENDING, charged from the balance', async () => {
    h = await startSimulator();
    const res = await h.order('k', { external_reference_id: 'row-1' });
    expect(res.status).toBe(200);
    const o = (await res.json()) as OrderJson;
    expect(o).toMatchObject({
      status: 'COMPLETED',
      external_reference_id: 'row-1',
      order_item: { status: 'PENDING', product_id: productIdFor('k', 'us-fixed-25'), price: { amount: 25, currency: 'USD' }, transaction_fee_rate: 0 },
      total_price_charged: { amount: 25, currency: 'USD', applied_exchange_rate: { rate: 1, currency: { from: 'USD', to: 'USD' } } },
      delivery: { method: 'EMAIL', recipient: { name: 'Ada Lovelace', email: 'ada@example.com' }, sender: { name: 'Events Team' } },
      message: 'Thank you for coming!',
    });
    expect(o.delivery.recipient.acceptance).toBeUndefined();
    expect(h.sim.audit().accounts['k']?.balance).toEqual({ amount: '999975.00', minor: 99997500, currency: 'USD' });
  });

  it('the same external_reference_id twice returns the same order and charges once', async () => {
    h = await startSimulator();
    const body = orderBody('k', { external_reference_id: 'same-key' });
    const first = (await (await h.post('k', '/v1/orders', body)).json()) as OrderJson;
    const second = await h.post('k', '/v1/orders', body);
    expect(second.status).toBe(200);
    expect(((await second.json()) as OrderJson).id).toBe(first.id);
    const audit = h.sim.audit().accounts['k'];
    expect(audit?.orders).toHaveLength(1);
    expect(audit?.duplicates).toEqual([]);
    expect(audit?.conflictingRetries).toEqual([]);
    expect(audit?.chargedTotals).toEqual([{ amount: '25.00', minor: 2500, currency: 'USD' }]);
    expect(audit?.balance.minor).toBe(100_000_000 - 2500);
  });

  it('a retry whose body differs still returns the existing order, and is recorded as a conflicting retry', async () => {
    h = await startSimulator();
    const first = (await (await h.order('k', { external_reference_id: 'x' })).json()) as OrderJson;
    const res = await h.post('k', '/v1/orders', { ...orderBody('k', { external_reference_id: 'x' }), ...item('k', 'us-fixed-50') });
    expect(res.status).toBe(200);
    expect(((await res.json()) as OrderJson).id).toBe(first.id);
    const audit = h.sim.audit().accounts['k'];
    expect(audit?.orders).toHaveLength(1);
    expect(audit?.conflictingRetries).toMatchObject([{ externalReferenceId: 'x', orderId: first.id }]);
  });

  it('a retry with keys in another order is not a conflict', async () => {
    h = await startSimulator();
    const body = orderBody('k', { external_reference_id: 'ordered' });
    await h.post('k', '/v1/orders', body);
    const reversed = Object.fromEntries(Object.entries(body).reverse());
    await h.post('k', '/v1/orders', reversed);
    expect(h.sim.audit().accounts['k']?.conflictingRetries).toEqual([]);
  });

  it('idempotency is per key: two accounts may use the same external_reference_id', async () => {
    h = await startSimulator();
    const a = (await (await h.order('a', { external_reference_id: 'shared' })).json()) as OrderJson;
    const b = (await (await h.order('b', { external_reference_id: 'shared' })).json()) as OrderJson;
    expect(a.id).not.toBe(b.id);
  });

  it('accepts an order without external_reference_id but records it', async () => {
    h = await startSimulator();
    const body = orderBody('k');
    delete body['external_reference_id'];
    const res = await h.post('k', '/v1/orders', body);
    expect(res.status).toBe(200);
    const o = (await res.json()) as OrderJson;
    expect(h.sim.audit().accounts['k']?.withoutExternalReferenceId).toEqual([o.id]);
  });

  it('a range product takes custom_amount at the top level or in item', async () => {
    h = await startSimulator();
    const top = (await (await h.order('k', { ...item('k', 'us-range'), custom_amount: 42.5 })).json()) as OrderJson;
    expect(top.order_item.price).toEqual({ amount: 42.5, currency: 'USD' });
    const inItem = (await (await h.order('k', item('k', 'us-range', { custom_amount: 5 }))).json()) as OrderJson;
    expect(inItem.total_price_charged.amount).toBe(5);
  });

  it('a KRW product is charged in USD at the reported rate plus fee, exact to the cent', async () => {
    h = await startSimulator();
    const o = (await (await h.order('k', { ...item('k', 'kr-range-krw'), custom_amount: 12345 })).json()) as OrderJson;
    expect(o.order_item.price).toEqual({ amount: 12345, currency: 'KRW' });
    expect(o.order_item.transaction_fee_rate).toBe(0.02);
    expect(o.total_price_charged).toEqual({
      amount: 9.44, currency: 'USD', applied_exchange_rate: { rate: 0.00075, currency: { from: 'KRW', to: 'USD' } },
    });
    const audit = h.sim.audit().accounts['k'];
    expect(audit?.orders[0]?.charged).toEqual({ amount: '9.44', minor: 944, currency: 'USD', rate: '0.00075', feeRate: '0.02' });
    expect(audit?.balance.amount).toBe('999990.56');
  });

  it('a EUR account pays a JPY product at the cross rate', async () => {
    h = await startSimulator({ accounts: { eur: { currency: 'EUR', balance: '500.00' } } });
    const o = (await (await h.order('eur', item('eur', 'jp-fixed-jpy'))).json()) as OrderJson;
    // 3000 × (0.0067 × 0.925 = 0.0061975) × 1.02 = 18.964350 → 18.96
    expect(o.total_price_charged).toEqual({
      amount: 18.96, currency: 'EUR', applied_exchange_rate: { rate: 0.0061975, currency: { from: 'JPY', to: 'EUR' } },
    });
  });

  it('402 INSUFFICIENT_BALANCE when the balance is too low, and nothing is charged', async () => {
    h = await startSimulator({ defaultAccount: { currency: 'USD', balance: '30.00' } });
    expect((await h.order('k')).status).toBe(200);
    const res = await h.order('k');
    expect(res.status).toBe(402);
    expect(await errorCode(res)).toBe('INSUFFICIENT_BALANCE');
    const audit = h.sim.audit().accounts['k'];
    expect(audit?.orders).toHaveLength(1);
    expect(audit?.balance.amount).toBe('5.00');
    h.sim.setAccount('k', { balance: '100.00' });
    expect((await h.order('k')).status).toBe(200);
  });

  it('with keys set, other keys get 401', async () => {
    h = await startSimulator({ keys: ['good'] });
    expect((await h.order('good')).status).toBe(200);
    const res = await h.order('bad');
    expect(res.status).toBe(401);
    expect(await errorCode(res)).toBe('UNAUTHORIZED');
    expect(h.sim.audit().accounts['bad']).toBeUndefined();
  });

  it('a missing key is 401', async () => {
    h = await startSimulator();
    expect((await h.post(null, '/v1/orders', orderBody('k'))).status).toBe(401);
  });
});

describe('simulator POST /v1/orders validation (nothing is committed)', () => {
  const cases: [string, (key: string) => Record<string, unknown>, number, string][] = [
    ['custom_amount above max_amount', (k) => ({ ...item(k, 'us-range'), custom_amount: 600 }), 422, 'AMOUNT_OUT_OF_RANGE'],
    ['custom_amount below min_amount', (k) => ({ ...item(k, 'us-range'), custom_amount: 4.99 }), 422, 'AMOUNT_OUT_OF_RANGE'],
    ['custom_amount on a fixed product', (k) => ({ ...item(k, 'us-fixed-10'), custom_amount: 10 }), 422, 'AMOUNT_NOT_ALLOWED'],
    ['range product without custom_amount', (k) => item(k, 'us-range'), 422, 'AMOUNT_REQUIRED'],
    ['custom_amount with more decimals than the currency has', (k) => ({ ...item(k, 'us-range'), custom_amount: 10.005 }), 422, 'INVALID_REQUEST'],
    ['KRW custom_amount with decimals', (k) => ({ ...item(k, 'kr-range-krw'), custom_amount: 10000.5 }), 422, 'INVALID_REQUEST'],
    ['custom_amount as a string', (k) => ({ ...item(k, 'us-range'), custom_amount: '25' }), 422, 'INVALID_REQUEST'],
    ['unknown product', () => ({ item: { id: 1 } }), 404, 'PRODUCT_NOT_FOUND'],
    ["another key's product id", () => item('someone-else', 'us-fixed-10'), 404, 'PRODUCT_NOT_FOUND'],
    ['missing item.id', () => ({ item: {} }), 422, 'INVALID_REQUEST'],
    ['product SOLD_OUT', (k) => item(k, 'us-not-on-sale'), 422, 'PRODUCT_NOT_ON_SALE'],
    ['product DISCONTINUED', (k) => item(k, 'us-discontinued'), 422, 'PRODUCT_NOT_ON_SALE'],
    ['product without EMAIL delivery', (k) => item(k, 'us-no-email'), 422, 'DELIVERY_METHOD_NOT_AVAILABLE'],
    ['delivery method SMS', () => ({ delivery: { method: 'SMS', recipient: { name: 'A', email: 'a@example.com' } } }), 422, 'DELIVERY_METHOD_NOT_AVAILABLE'],
    ['bad e-mail', () => ({ delivery: { method: 'EMAIL', recipient: { name: 'A', email: 'not-an-email' } } }), 422, 'INVALID_EMAIL'],
    ['missing e-mail', () => ({ delivery: { method: 'EMAIL', recipient: { name: 'A' } } }), 422, 'INVALID_EMAIL'],
    ['missing recipient name', () => ({ delivery: { method: 'EMAIL', recipient: { email: 'a@example.com' } } }), 422, 'INVALID_RECIPIENT'],
    ['blank recipient name', () => ({ delivery: { method: 'EMAIL', recipient: { name: '  ', email: 'a@example.com' } } }), 422, 'INVALID_RECIPIENT'],
    ['external_reference_id too long', () => ({ external_reference_id: 'x'.repeat(256) }), 422, 'INVALID_REQUEST'],
    ['external_reference_id not a string', () => ({ external_reference_id: 12 }), 422, 'INVALID_REQUEST'],
  ];

  it.each(cases)('%s → %i %s', async (_name, patch, status, code) => {
    h = await startSimulator();
    const res = await h.order('k', patch('k'));
    expect(res.status).toBe(status);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe(code);
    expect(body.error.message.length).toBeGreaterThan(10);
    const audit = h.sim.audit().accounts['k'];
    expect(audit?.orders).toEqual([]);
    expect(audit?.balance.amount).toBe('1000000.00');
  });

  it('malformed JSON is 400 with a clear message', async () => {
    h = await startSimulator();
    const res = await h.post('k', '/v1/orders', '{"item": {');
    expect(res.status).toBe(400);
    expect(((await json(res))['error'] as { message: string }).message).toMatch(/not valid JSON/);
  });

  it('a JSON body that is not an object is 400', async () => {
    h = await startSimulator();
    for (const body of ['[]', '42', 'null', '']) {
      const res = await h.post('k', '/v1/orders', body);
      expect(res.status, body).toBe(400);
      expect(await errorCode(res)).toBe('BAD_REQUEST');
    }
  });

  it('a body over 1 MiB is 413', async () => {
    h = await startSimulator();
    const res = await h.post('k', '/v1/orders', { ...orderBody('k'), message: 'x'.repeat(1024 * 1024 + 10) });
    expect(res.status).toBe(413);
    expect((await h.get('k', '/v1/products')).status).toBe(200);
  });
});
