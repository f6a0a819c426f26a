import { afterEach, describe, expect, it } from 'vitest';
import type { AuditReport } from '../../../electron/simulator/index.ts';
import { item, startSimulator, type Harness } from '../../support/simulator-http.ts';

let h: Harness;
afterEach(async () => { await h.sim.stop(); });

describe('simulator audit and control endpoints', () => {
  it('GET /__audit needs no key and matches sim.audit()', async () => {
    h = await startSimulator();
    await h.order('k', { external_reference_id: 'one' });
    const res = await h.get(null, '/__audit');
    expect(res.status).toBe(200);
    const audit = (await res.json()) as AuditReport;
    expect(audit).toEqual(JSON.parse(JSON.stringify(h.sim.audit())));
    expect(audit.accounts['k']?.orders[0]).toMatchObject({ externalReferenceId: 'one', productSlug: 'us-fixed-25', status: 'COMPLETED', itemStatus: 'PENDING' });
  });

  it('counts requests by route and status, per key and for refused keys', async () => {
    h = await startSimulator();
    await h.get('k', '/v1/products');
    await h.get('k', '/v1/products');
    await h.get('k', '/v1/orders?page=0');
    await h.get(null, '/v1/products');
    const audit = h.sim.audit();
    expect(audit.accounts['k']?.requests).toEqual({ 'GET /v1/products': { '200': 2 }, 'GET /v1/orders': { '400': 1 } });
    expect(audit.unauthenticatedRequests).toEqual({ 'GET /v1/products': { '401': 1 } });
  });

  it('charged totals are kept per currency, in decimal text and minor units', async () => {
    h = await startSimulator({ accounts: { krw: { currency: 'KRW', balance: '10000000' } } });
    await h.order('krw', item('krw', 'us-fixed-10'));
    h.sim.setAccount('krw', { currency: 'USD', balance: '100.00' });
    await h.order('krw', item('krw', 'us-fixed-10'));
    // 10 USD × 1350 × 1.02 = 13770 KRW, then 10.00 USD
    expect(h.sim.audit().accounts['krw']?.chargedTotals).toEqual([
      { amount: '13770', minor: 13770, currency: 'KRW' },
      { amount: '10.00', minor: 1000, currency: 'USD' },
    ]);
    expect(h.sim.audit().accounts['krw']?.balance).toEqual({ amount: '90.00', minor: 9000, currency: 'USD' });
  });

  it('POST /__control/account sets balance and currency', async () => {
    h = await startSimulator();
    const res = await h.post(null, '/__control/account', { key: 'k', currency: 'EUR', balance: '12.34' });
    expect(res.status).toBe(200);
    expect(h.sim.audit().accounts['k']).toMatchObject({ currency: 'EUR', balance: { amount: '12.34', minor: 1234 } });
    const bad = await h.post(null, '/__control/account', { key: 'k', currency: 'XYZ', balance: '1' });
    expect(bad.status).toBe(409);
  });

  it('POST /__control/faults changes faults at run time; GET shows them', async () => {
    h = await startSimulator();
    const res = await h.post(null, '/__control/faults', { error503: 1 });
    expect(res.status).toBe(200);
    expect((await h.order('k')).status).toBe(503);
    await h.post(null, '/__control/faults', { error503: 0 });
    expect((await h.order('k')).status).toBe(200);
    const got = (await (await h.get(null, '/__control/faults')).json()) as { faults: { error503: number } };
    expect(got.faults.error503).toBe(0);
    expect((await h.post(null, '/__control/faults', { error503: 2 })).status).toBe(400);
    expect((await h.post(null, '/__control/faults', { bogus: 1 })).status).toBe(400);
  });

  it('testEndpoints: false hides /__audit and /__control', async () => {
    h = await startSimulator({ testEndpoints: false });
    expect((await h.get(null, '/__audit')).status).toBe(404);
    expect((await h.post(null, '/__control/faults', { error503: 1 })).status).toBe(404);
  });
});
