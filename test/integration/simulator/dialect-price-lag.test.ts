// The dialect switch priceLagMs: a service that issues asynchronously and whose order record lacks
// the item's price and the charge for a while ("Other fields of the … order and order item records:
// not shown"; nothing says the POST answer is complete).
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator } from '../../../electron/simulator/index.ts';
import { json, manualClock, orderBody, startSimulator, type Harness } from '../../support/simulator-http.ts';

let h: Harness;
afterEach(async () => { await h.sim.stop(); });

describe('dialect: priceLagMs', () => {
  it('default 0: the POST answer states the price and the charge', async () => {
    h = await startSimulator();
    const order = await json(await h.order('k'));
    expect((order['order_item'] as Record<string, unknown>)['price']).toEqual({ amount: 25, currency: 'USD' });
    expect(order['total_price_charged']).toMatchObject({ amount: 25, currency: 'USD' });
  });

  it('N ms: the record has neither for N ms (POST, GET, list, retry), then both; charged at once', async () => {
    const clock = manualClock();
    h = await startSimulator({ now: clock.now, dialect: { priceLagMs: 5_000 } });
    const body = orderBody('k', { external_reference_id: 'late-price' });
    const posted = await json(await h.post('k', '/v1/orders', body));
    const unpriced = (o: Record<string, unknown>) => {
      expect((o['order_item'] as Record<string, unknown>)['price']).toBeUndefined();
      expect(o['total_price_charged']).toBeUndefined();
      expect((o['order_item'] as Record<string, unknown>)['id']).toBeTypeOf('number');
    };
    unpriced(posted);
    expect(h.sim.audit().accounts['k']?.balance.amount).toBe('999975.00');
    clock.advance(4_999);
    unpriced(await json(await h.get('k', `/v1/orders/${String(posted['id'])}`)));
    unpriced(await json(await h.post('k', '/v1/orders', body)));
    const listed = (await json(await h.get('k', '/v1/orders?page=0&element_size=10&external_reference_id=late-price')))['orders'] as Record<string, unknown>[];
    unpriced(listed[0]!);
    clock.advance(1);
    const later = await json(await h.get('k', `/v1/orders/${String(posted['id'])}`));
    expect((later['order_item'] as Record<string, unknown>)['price']).toEqual({ amount: 25, currency: 'USD' });
    expect(later['total_price_charged']).toMatchObject({ amount: 25, currency: 'USD' });
  });

  it('refuses a negative value', () => {
    expect(() => createSimulator({ dialect: { priceLagMs: -1 } })).toThrow(/priceLagMs must be a non-negative number/);
    h = { sim: createSimulator() } as Harness;
  });
});
