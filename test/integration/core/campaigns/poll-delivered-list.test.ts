// A poll round after a wave of deliveries: the rows that left the PENDING list are looked for in
// the COMPLETED list, 500 to a request, instead of one GET each; the rest are fetched one by one.
// Which end of the list holds the newest order is "not shown": the simulator's listOrder switch
// runs both, with and without an older history in the account. Real simulator over HTTP, real
// SQLite file; a client wrapper only to inject a failing page or another story.

import { describe, expect, it } from 'vitest';
import { LIST_PASS_FROM, pollRound } from '../../../../electron/core/campaigns/poller.ts';
import { createSendQueue } from '../../../../electron/core/campaigns/send-queue.ts';
import type { Order, ServiceClient } from '../../../../electron/core/service/index.ts';
import type { Dialect } from '../../../../electron/simulator/index.ts';
import { allRows, makeCampaign, startSimulator, tempDb } from '../../../support/index.ts';

type ListOrder = Dialect['listOrder'];

async function service(listOrder: ListOrder, envelope: Dialect['listEnvelope'] = 'products-orders') {
  const endpoints: string[] = [];
  const t = await startSimulator({ dialect: { listOrder, listEnvelope: envelope } });
  const recorded = t.makeClient({ onAttempt: (event) => endpoints.push(`${event.method} ${event.endpoint}`) }).client;
  const store = tempDb();
  return { ...t, ...store, recorded, endpoints };
}

type Service = Awaited<ReturnType<typeof service>>;

/** A campaign of `rows` orders made through the send queue (items stay PENDING at the service). */
async function sentCampaign(s: Service, rows: number, name: string) {
  const made = makeCampaign(s.db, { rows, key: s.key, baseUrl: s.url, name, row: (i) => ({ email: `${name.toLowerCase()}-${i}@example.com` }) });
  const result = await createSendQueue({ db: s.db, client: s.client, concurrency: 8 }).run(made.campaign.id);
  expect(result.stoppedBy).toBe('done');
  return { id: made.campaign.id, orderIds: allRows(s.db, made.campaign.id).map((r) => r.orderId!) };
}

function round(s: Service, client: ServiceClient = s.recorded, campaignId?: string) {
  s.endpoints.length = 0;
  return pollRound({ db: s.db, client, clock: { now: () => Date.now(), sleep: async () => undefined } }, {
    environment: 'simulator',
    baseUrl: s.url,
    ...(campaignId ? { campaignId } : {}),
  });
}

const counts = (s: Service) => ({
  pending: s.endpoints.filter((e) => e.includes('order_item_status=PENDING')).length,
  completed: s.endpoints.filter((e) => e.includes('order_item_status=COMPLETED')).length,
  single: s.endpoints.filter((e) => /^GET \/v1\/orders\/\d+$/.test(e)).length,
});

const states = (s: Service, id: string) => {
  const out: Record<string, number> = {};
  for (const row of allRows(s.db, id)) out[row.state] = (out[row.state] ?? 0) + 1;
  return out;
};

describe('a poll round finds a wave of deliveries in the COMPLETED list', () => {
  it.each<ListOrder>(['oldest-first', 'newest-first'])('1,200 orders, 1,150 delivered and 30 cancelled (%s): 3 list pages and 30 fetches instead of 1,180', async (listOrder) => {
    const s = await service(listOrder);
    const { id, orderIds } = await sentCampaign(s, 1_200, 'Wave');
    orderIds.slice(0, 1_150).forEach((orderId) => s.sim.forceStatus(s.key, orderId, { itemStatus: 'COMPLETED' }));
    orderIds.slice(1_150, 1_180).forEach((orderId) => s.sim.forceStatus(s.key, orderId, { orderStatus: 'CANCELLED' }));

    const result = await round(s);

    expect(result).toMatchObject({ tracked: 1_200, settled: 1_180, waiting: 20 });
    expect(result.error).toBeUndefined();
    // PENDING: one page of 20. COMPLETED: 500 + 500 + 150 (a short page ends it). The cancelled: one by one.
    expect(counts(s)).toEqual({ pending: 1, completed: 3, single: 30 });
    expect(result.requests).toBe(34);
    expect(states(s, id)).toEqual({ delivered: 1_150, cancelled: 30, ordered: 20 });
    // Each row took its own order's statuses; no finding (each order matched its request).
    const rows = allRows(s.db, id);
    expect(rows.slice(0, 1_150).every((r) => r.itemStatus === 'COMPLETED' && r.orderStatus === 'COMPLETED' && r.findings.length === 0)).toBe(true);
    expect(rows.slice(1_150, 1_180).every((r) => r.orderStatus === 'CANCELLED')).toBe(true);
  }, 60_000);

  it.each<[ListOrder, number]>([
    ['oldest-first', 3], // page 0 (all older), then the last page (100 of ours) and the one before it (500)
    ['newest-first', 2], // page 0 (500 of ours), page 1 (100 of ours, then older ones)
  ])('an account with 1,500 older deliveries (%s): the new campaign\'s 600 are found in %i pages, not 600 fetches', async (listOrder, pages) => {
    const s = await service(listOrder);
    const older = await sentCampaign(s, 1_500, 'Older');
    older.orderIds.forEach((orderId) => s.sim.forceStatus(s.key, orderId, { itemStatus: 'COMPLETED' }));
    await round(s); // the older campaign settles: it is history now
    expect(states(s, older.id)).toEqual({ delivered: 1_500 });

    const wave = await sentCampaign(s, 600, 'Newer');
    wave.orderIds.forEach((orderId) => s.sim.forceStatus(s.key, orderId, { itemStatus: 'COMPLETED' }));
    const result = await round(s);

    expect(result).toMatchObject({ tracked: 600, settled: 600, waiting: 0 });
    expect(counts(s)).toEqual({ pending: 1, completed: pages, single: 0 });
    expect(states(s, wave.id)).toEqual({ delivered: 600 });
  }, 90_000);

  it('no page object to say where the list ends (bare lists), oldest first: the pass costs one page, every order is still fetched', async () => {
    const s = await service('oldest-first', 'bare');
    const older = await sentCampaign(s, 600, 'Older');
    older.orderIds.forEach((orderId) => s.sim.forceStatus(s.key, orderId, { itemStatus: 'COMPLETED' }));
    await round(s);
    const wave = await sentCampaign(s, 40, 'Newer');
    wave.orderIds.forEach((orderId) => s.sim.forceStatus(s.key, orderId, { itemStatus: 'COMPLETED' }));

    const result = await round(s);

    expect(result).toMatchObject({ tracked: 40, settled: 40 });
    // One request more than the fetches alone: never more.
    expect(counts(s)).toEqual({ pending: 1, completed: 1, single: 40 });
    expect(states(s, wave.id)).toEqual({ delivered: 40 });
  }, 60_000);

  it(`fewer than ${LIST_PASS_FROM} rows gone from the PENDING list are fetched one by one, no list page`, async () => {
    const s = await service('oldest-first');
    const { id, orderIds } = await sentCampaign(s, 30, 'Few');
    orderIds.slice(0, LIST_PASS_FROM - 1).forEach((orderId) => s.sim.forceStatus(s.key, orderId, { itemStatus: 'COMPLETED' }));
    const result = await round(s);
    expect(result.settled).toBe(LIST_PASS_FROM - 1);
    expect(counts(s)).toEqual({ pending: 1, completed: 0, single: LIST_PASS_FROM - 1 });
    expect(states(s, id)).toMatchObject({ delivered: LIST_PASS_FROM - 1 });
  }, 60_000);

  it('a COMPLETED page that fails (a 500) ends the pass quietly: the rest are fetched one by one and the round reports no error', async () => {
    const s = await service('oldest-first');
    const { id, orderIds } = await sentCampaign(s, 50, 'Failing');
    orderIds.forEach((orderId) => s.sim.forceStatus(s.key, orderId, { itemStatus: 'COMPLETED' }));
    const failing: ServiceClient = {
      ...s.recorded,
      listOrders: async (query, opts) =>
        query.itemStatus === 'COMPLETED'
          ? { kind: 'ambiguous', reason: 'server-error', status: 500, endpoint: 'GET /v1/orders?order_item_status=COMPLETED', message: 'GET /v1/orders: 500' }
          : s.recorded.listOrders(query, opts),
    };
    const result = await round(s, failing);
    expect(result.error).toBeUndefined();
    expect(result).toMatchObject({ settled: 50, requests: 1 + 1 + 50 });
    expect(counts(s)).toEqual({ pending: 1, completed: 0, single: 50 });
    expect(states(s, id)).toEqual({ delivered: 50 });
  }, 60_000);

  it('an order found in the COMPLETED list is checked against its request like any answer: another price is flagged on its row', async () => {
    const s = await service('oldest-first');
    const { id, orderIds } = await sentCampaign(s, 20, 'Checked');
    orderIds.forEach((orderId) => s.sim.forceStatus(s.key, orderId, { itemStatus: 'COMPLETED' }));
    const target = orderIds[3]!;
    const change = (o: Order): Order => (o.id === target ? { ...o, item: { ...o.item, price: { text: '99', currency: 'USD', money: { minor: 9900, currency: 'USD' } } } } : o);
    const otherStory: ServiceClient = {
      ...s.recorded,
      listOrders: async (query, opts) => {
        const page = await s.recorded.listOrders(query, opts);
        return page.kind === 'ok' ? { ...page, value: { ...page.value, orders: page.value.orders.map(change) } } : page;
      },
    };
    await round(s, otherStory);
    expect(counts(s)).toEqual({ pending: 1, completed: 1, single: 0 });
    const flagged = allRows(s.db, id).filter((r) => r.findings.length > 0);
    expect(flagged.map((r) => r.orderId)).toEqual([target]);
    expect(flagged[0]?.findings).toEqual([expect.objectContaining({ kind: 'mismatch', field: 'amount', asked: 'USD 25.00', stated: 'USD 99.00' })]);
  }, 60_000);
});
