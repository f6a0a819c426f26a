import { afterEach, describe, expect, it } from 'vitest';
import { errorCode, item, manualClock, startSimulator, type Harness } from '../../support/simulator-http.ts';

let h: Harness;
afterEach(async () => { await h.sim.stop(); });

interface OrderJson {
  id: number;
  status: string;
  order_item: { status: string };
  delivery: { recipient: { acceptance?: { expiry_date: string } } };
}

async function create(key: string, patch: Record<string, unknown> = {}): Promise<OrderJson> {
  const res = await h.order(key, patch);
  expect(res.status).toBe(200);
  return (await res.json()) as OrderJson;
}

async function read(key: string, id: number): Promise<OrderJson> {
  const res = await h.get(key, `/v1/orders/${id}`);
  expect(res.status).toBe(200);
  return (await res.json()) as OrderJson;
}

describe('simulator item life cycle (injected clock)', () => {
  it('an item goes PENDING → COMPLETED once itemDelayMs has passed', async () => {
    const clock = manualClock();
    h = await startSimulator({ now: clock.now, itemDelayMs: 3000 });
    const o = await create('k');
    expect(o.order_item.status).toBe('PENDING');
    clock.advance(2999);
    expect((await read('k', o.id)).order_item.status).toBe('PENDING');
    clock.advance(1);
    const later = await read('k', o.id);
    expect(later).toMatchObject({ status: 'COMPLETED', order_item: { status: 'COMPLETED' } });
  });

  it('defaults itemDelayMs to 3000', async () => {
    const clock = manualClock();
    h = await startSimulator({ now: clock.now });
    const o = await create('k');
    clock.advance(2999);
    expect((await read('k', o.id)).order_item.status).toBe('PENDING');
    clock.advance(1);
    expect((await read('k', o.id)).order_item.status).toBe('COMPLETED');
  });

  it('an out-of-stock item is accepted with 200 and stays PENDING forever', async () => {
    const clock = manualClock();
    h = await startSimulator({ now: clock.now });
    const o = await create('k', item('k', 'us-out-of-stock'));
    clock.advance(365 * 24 * 3600 * 1000);
    expect((await read('k', o.id)).order_item.status).toBe('PENDING');
  });

  it('a recipient-details order carries acceptance.expiry_date (7 days by default) and stays PENDING until accepted', async () => {
    const clock = manualClock();
    h = await startSimulator({ now: clock.now });
    const o = await create('k', item('k', 'us-recipient-details'));
    expect(o.delivery.recipient.acceptance?.expiry_date).toBe(new Date(clock.now() + 7 * 86_400_000).toISOString());
    clock.advance(3 * 86_400_000);
    expect((await read('k', o.id)).order_item.status).toBe('PENDING');
    h.sim.acceptRecipient('k', o.id);
    expect((await read('k', o.id)).order_item.status).toBe('COMPLETED');
  });

  it('after the link expires the item stays PENDING and can no longer be accepted', async () => {
    const clock = manualClock();
    h = await startSimulator({ now: clock.now, recipientExpiryMs: 60_000 });
    const o = await create('k', item('k', 'us-recipient-details'));
    expect(Date.parse(o.delivery.recipient.acceptance?.expiry_date ?? '')).toBe(clock.now() + 60_000);
    clock.advance(60_000);
    expect(() => h.sim.acceptRecipient('k', o.id)).toThrow(/expired/);
    const res = await h.post(null, '/__control/accept', { key: 'k', orderId: o.id });
    expect(res.status).toBe(409);
    expect(await errorCode(res)).toBe('CONTROL_REFUSED');
    expect((await read('k', o.id)).order_item.status).toBe('PENDING');
  });

  it('the control endpoint accepts a recipient item', async () => {
    const clock = manualClock();
    h = await startSimulator({ now: clock.now });
    const o = await create('k', item('k', 'us-recipient-details'));
    const res = await h.post(null, '/__control/accept', { key: 'k', orderId: o.id });
    expect(res.status).toBe(200);
    expect((await read('k', o.id)).order_item.status).toBe('COMPLETED');
  });

  it('accepting an ordinary order is refused', async () => {
    h = await startSimulator();
    const o = await create('k');
    expect(() => h.sim.acceptRecipient('k', o.id)).toThrow(/not a recipient-enters-details order/);
    expect(() => h.sim.acceptRecipient('other', o.id)).toThrow(/no order/);
  });

  it.each(['PAYMENT_PENDING', 'PAYMENT_EXPIRED'] as const)('forcing an order into %s keeps its item PENDING', async (status) => {
    const clock = manualClock();
    h = await startSimulator({ now: clock.now });
    const o = await create('k');
    h.sim.forceStatus('k', o.id, { orderStatus: status });
    clock.advance(10_000);
    expect(await read('k', o.id)).toMatchObject({ status, order_item: { status: 'PENDING' } });
  });

  it('forcing an order CANCELLED cancels its item too; an item can be cancelled alone', async () => {
    h = await startSimulator();
    const a = await create('k');
    const b = await create('k');
    h.sim.forceStatus('k', a.id, { orderStatus: 'CANCELLED' });
    expect(await read('k', a.id)).toMatchObject({ status: 'CANCELLED', order_item: { status: 'CANCELLED' } });
    const res = await h.post(null, '/__control/force-status', { key: 'k', orderId: b.id, itemStatus: 'CANCELLED' });
    expect(res.status).toBe(200);
    expect(await read('k', b.id)).toMatchObject({ status: 'COMPLETED', order_item: { status: 'CANCELLED' } });
    const cancelled = (await (await h.get('k', '/v1/orders?page=0&element_size=10&order_item_status=CANCELLED')).json()) as { orders: unknown[] };
    expect(cancelled.orders).toHaveLength(2);
  });

  it('the control endpoint refuses an unknown status with 400', async () => {
    h = await startSimulator();
    const o = await create('k');
    const res = await h.post(null, '/__control/force-status', { key: 'k', orderId: o.id, orderStatus: 'REFUNDED' });
    expect(res.status).toBe(400);
  });
});
