import { afterEach, describe, expect, it } from 'vitest';
import { errorCode, item, manualClock, startSimulator, type Harness } from '../../support/simulator-http.ts';

let h: Harness;
afterEach(async () => { await h.sim.stop(); });

interface ListJson {
  orders: { id: number; external_reference_id: string; order_item: { status: string } }[];
  page: { index: number; size: number; total_size: number; result_size: number };
}

async function list(key: string, query: string): Promise<ListJson> {
  const res = await h.get(key, `/v1/orders?${query}`);
  expect(res.status, query).toBe(200);
  return (await res.json()) as ListJson;
}

describe('simulator GET /v1/orders', () => {
  it('total_size ignores order_item_status, result_size reflects it', async () => {
    const clock = manualClock();
    h = await startSimulator({ now: clock.now, itemDelayMs: 1000 });
    for (let i = 0; i < 3; i++) await h.order('k', { external_reference_id: `done-${i}` });
    clock.advance(1000);
    for (let i = 0; i < 2; i++) await h.order('k', { ...item('k', 'us-out-of-stock'), external_reference_id: `stuck-${i}` });
    const pending = await list('k', 'page=0&element_size=500&order_item_status=PENDING');
    expect(pending.orders.map((o) => o.external_reference_id)).toEqual(['stuck-0', 'stuck-1']);
    expect(pending.page).toEqual({ index: 0, size: 500, total_size: 5, result_size: 2 });
    const completed = await list('k', 'page=0&element_size=500&order_item_status=COMPLETED');
    expect(completed.page).toMatchObject({ total_size: 5, result_size: 3 });
  });

  it('pages by id ascending; the last page holds fewer than element_size rows', async () => {
    h = await startSimulator();
    for (let i = 0; i < 7; i++) await h.order('k', { external_reference_id: `r${i}` });
    const ids: number[] = [];
    let page = 0;
    for (;;) {
      const p = await list('k', `page=${page}&element_size=3`);
      ids.push(...p.orders.map((o) => o.id));
      if (p.orders.length < 3) break;
      page++;
    }
    expect(page).toBe(2);
    expect(ids).toHaveLength(7);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect((await list('k', 'page=5&element_size=3')).orders).toEqual([]);
  });

  it('the newest-first dialect pages from the newest order down, under a status filter too', async () => {
    const clock = manualClock();
    h = await startSimulator({ now: clock.now, itemDelayMs: 1000, dialect: { listOrder: 'newest-first' } });
    for (let i = 0; i < 5; i++) await h.order('k', { external_reference_id: `r${i}` });
    await h.order('k', { ...item('k', 'us-out-of-stock'), external_reference_id: 'stuck' });
    clock.advance(1000);
    const refs = async (query: string) => (await list('k', query)).orders.map((o) => o.external_reference_id);
    expect(await refs('page=0&element_size=4')).toEqual(['stuck', 'r4', 'r3', 'r2']);
    expect(await refs('page=1&element_size=4')).toEqual(['r1', 'r0']);
    expect(await refs('page=0&element_size=3&order_item_status=COMPLETED')).toEqual(['r4', 'r3', 'r2']);
    expect((await list('k', 'page=1&element_size=3&order_item_status=COMPLETED')).page).toMatchObject({ total_size: 6, result_size: 5 });
  });

  it('filters by external_reference_id (with total_size counting only that key)', async () => {
    h = await startSimulator();
    await h.order('k', { external_reference_id: 'a' });
    await h.order('k', { external_reference_id: 'b' });
    const p = await list('k', 'page=0&element_size=10&external_reference_id=b');
    expect(p.orders.map((o) => o.external_reference_id)).toEqual(['b']);
    expect(p.page).toMatchObject({ total_size: 1, result_size: 1 });
    expect((await list('k', 'page=0&element_size=10&external_reference_id=zzz')).orders).toEqual([]);
  });

  it('filters by created_from / created_to (both inclusive)', async () => {
    const clock = manualClock(Date.parse('2025-01-01T00:00:00Z'));
    h = await startSimulator({ now: clock.now });
    for (const day of ['01', '02', '03']) {
      clock.set(Date.parse(`2025-01-${day}T12:00:00Z`));
      await h.order('k', { external_reference_id: `day-${day}` });
    }
    const p = await list('k', 'page=0&element_size=10&created_from=2025-01-02T00:00:00Z&created_to=2025-01-03T12:00:00Z');
    expect(p.orders.map((o) => o.external_reference_id)).toEqual(['day-02', 'day-03']);
    expect(p.page.total_size).toBe(2);
    const before = await list('k', 'page=0&element_size=10&created_to=2025-01-01T23:59:59Z');
    expect(before.orders.map((o) => o.external_reference_id)).toEqual(['day-01']);
  });

  it("lists only the key's own orders", async () => {
    h = await startSimulator();
    await h.order('a', { external_reference_id: 'mine' });
    await h.order('b', { external_reference_id: 'theirs' });
    expect((await list('a', 'page=0&element_size=10')).orders.map((o) => o.external_reference_id)).toEqual(['mine']);
  });

  it.each([
    ['element_size missing', 'page=0'],
    ['page missing', 'element_size=10'],
    ['element_size over 500', 'page=0&element_size=501'],
    ['element_size 0', 'page=0&element_size=0'],
    ['page negative', 'page=-1&element_size=10'],
    ['unknown order_item_status', 'page=0&element_size=10&order_item_status=LOST'],
    ['unparseable created_from', 'page=0&element_size=10&created_from=yesterday'],
  ])('%s → 400 BAD_REQUEST', async (_name, query) => {
    h = await startSimulator();
    const res = await h.get('k', `/v1/orders?${query}`);
    expect(res.status).toBe(400);
    expect(await errorCode(res)).toBe('BAD_REQUEST');
  });

  it('element_size 500 is allowed', async () => {
    h = await startSimulator();
    expect((await list('k', 'page=0&element_size=500')).page.size).toBe(500);
  });

  it('a 10,000-order account pages PENDING orders correctly', async () => {
    const clock = manualClock();
    h = await startSimulator({ now: clock.now, itemDelayMs: 1000 });
    // Every other batch of 500 is out of stock, so exactly half the orders stay PENDING.
    const batch = async (from: number, to: number, slug: string): Promise<void> => {
      const jobs: Promise<Response>[] = [];
      for (let i = from; i < to; i++) jobs.push(h.order('big', { ...item('big', slug), external_reference_id: `big-${i}` }));
      for (const r of await Promise.all(jobs)) expect(r.status).toBe(200);
    };
    for (let i = 0; i < 10_000; i += 500) await batch(i, i + 500, i % 1000 === 0 ? 'us-out-of-stock' : 'us-fixed-10');
    clock.advance(1000);
    let page = 0;
    let seen = 0;
    for (;;) {
      const p = await list('big', `page=${page}&element_size=500&order_item_status=PENDING`);
      seen += p.orders.length;
      expect(p.page.total_size).toBe(10_000);
      expect(p.page.result_size).toBe(5_000);
      if (p.orders.length < 500) break;
      page++;
    }
    expect(seen).toBe(5_000);
  });
});

describe('simulator GET /v1/orders/{id}', () => {
  it("returns the key's order and 404 ORDER_NOT_FOUND for another key's order", async () => {
    h = await startSimulator();
    const o = (await (await h.order('a')).json()) as { id: number };
    const mine = await h.get('a', `/v1/orders/${o.id}`);
    expect(mine.status).toBe(200);
    expect(((await mine.json()) as { id: number }).id).toBe(o.id);
    const theirs = await h.get('b', `/v1/orders/${o.id}`);
    expect(theirs.status).toBe(404);
    expect(await errorCode(theirs)).toBe('ORDER_NOT_FOUND');
    expect((await h.get('a', '/v1/orders/abc')).status).toBe(404);
  });
});
