// The entries of GET /v1/orders are "not shown": a service may list each order as a summary (id,
// statuses, key) without what was issued, charged or to whom. The simulator's listEntries switch
// ('summary') gives such lists; our client must neither flag nor pause on what a summary leaves
// out, nor record a gift without its charge. A list entry stands for the order only when it agrees
// with the row's request (entryAgrees); otherwise the order's own record decides, except for a
// PENDING entry that says nothing new. Real simulator over HTTP, real SQLite file; client wrappers
// only to lose an answer or to make a list tell another story.

import { describe, expect, it } from 'vitest';
import { pollRound } from '../../../../electron/core/campaigns/poller.ts';
import { reconcile } from '../../../../electron/core/campaigns/reconcile.ts';
import { createSendQueue } from '../../../../electron/core/campaigns/send-queue.ts';
import { pauseInterrupted } from '../../../../electron/core/db/repos/campaigns.ts';
import { getRecipient } from '../../../../electron/core/db/repos/recipients.ts';
import type { Order, Outcome, ServiceClient } from '../../../../electron/core/service/index.ts';
import type { Dialect } from '../../../../electron/simulator/index.ts';
import { allRows, fakeClock, makeCampaign, startSimulator, tempDb, T0 } from '../../../support/index.ts';

async function service(listEntries: Dialect['listEntries'] = 'summary') {
  const endpoints: string[] = [];
  const t = await startSimulator({ dialect: { listEntries } });
  const recorded = t.makeClient({ onAttempt: (event) => endpoints.push(`${event.method} ${event.endpoint}`) }).client;
  return { ...t, ...tempDb(), recorded, endpoints };
}
type Service = Awaited<ReturnType<typeof service>>;

async function sentCampaign(s: Service, rows: number) {
  const made = makeCampaign(s.db, { rows, key: s.key, baseUrl: s.url, row: (i) => ({ email: `guest-${i}@example.com` }) });
  const result = await createSendQueue({ db: s.db, client: s.client, concurrency: 8 }).run(made.campaign.id);
  expect(result.stoppedBy).toBe('done');
  return { id: made.campaign.id, orderIds: allRows(s.db, made.campaign.id).map((r) => r.orderId!) };
}

function round(s: Service, client: ServiceClient = s.recorded) {
  s.endpoints.length = 0;
  return pollRound({ db: s.db, client, clock: { now: () => Date.now(), sleep: async () => undefined } }, { environment: 'simulator', baseUrl: s.url });
}

const singles = (s: Service) => s.endpoints.filter((e) => /^GET \/v1\/orders\/\d+$/.test(e)).length;

/** Each row's charge as the service's own records state it, by order id. */
const chargedAtService = (s: Service) => new Map(s.account().orders.map((o) => [o.id, o.charged.amount]));

describe('lists of summaries: a poll round', () => {
  it('30 orders still pending, listed as summaries: nothing flagged, nothing fetched, every row still waiting', async () => {
    const s = await service();
    const { id } = await sentCampaign(s, 30);

    const result = await round(s);

    expect(result).toMatchObject({ tracked: 30, settled: 0, waiting: 30 });
    expect(result.error).toBeUndefined();
    // The row was checked against its order's full answer when it was ordered; a summary that says
    // "still pending" is no reason to fetch it again, and its missing price is no difference.
    expect(singles(s)).toBe(0);
    expect(result.requests).toBe(1);
    expect(allRows(s.db, id).filter((r) => r.findings.length > 0)).toEqual([]);
  }, 30_000);

  it('a wave of 40 deliveries and 5 cancellations among 60, listed as summaries: each settles from its own record, with its charge kept and nothing flagged', async () => {
    const s = await service();
    const { id, orderIds } = await sentCampaign(s, 60);
    orderIds.slice(0, 40).forEach((orderId) => s.sim.forceStatus(s.key, orderId, { itemStatus: 'COMPLETED' }));
    orderIds.slice(40, 45).forEach((orderId) => s.sim.forceStatus(s.key, orderId, { orderStatus: 'CANCELLED' }));

    const result = await round(s);

    expect(result).toMatchObject({ tracked: 60, settled: 45, waiting: 15 });
    // The COMPLETED list's summaries are no record: the 45 are fetched one by one (as without the list).
    expect(singles(s)).toBe(45);
    const rows = allRows(s.db, id);
    expect(rows.filter((r) => r.state === 'delivered')).toHaveLength(40);
    expect(rows.filter((r) => r.state === 'cancelled')).toHaveLength(5);
    expect(rows.filter((r) => r.findings.length > 0)).toEqual([]);
    const charged = chargedAtService(s);
    expect(rows.every((r) => Number(r.chargedText) === Number(charged.get(r.orderId!)))).toBe(true);
  }, 30_000);

  it('a full PENDING entry that tells another story is not the record: the order\'s own record decides (it agrees: nothing flagged)', async () => {
    const s = await service('full');
    const { id, orderIds } = await sentCampaign(s, 12);
    const told = orderIds[3]!;
    // A list that states another price for one order; its own record (GET by id) states the true one.
    const misleading: ServiceClient = {
      ...s.recorded,
      async *orderPages(filter, opts) {
        for await (const page of s.recorded.orderPages(filter, opts)) {
          if (page.kind !== 'ok') {
            yield page;
            continue;
          }
          const orders = page.value.orders.map((o): Order => (o.id === told && o.item.price ? { ...o, item: { ...o.item, price: { ...o.item.price, money: { ...o.item.price.money!, minor: o.item.price.money!.minor + 100 }, text: 'other' } } } : o));
          yield { ...page, value: { ...page.value, orders } };
        }
      },
    };

    const result = await round(s, misleading);

    expect(result).toMatchObject({ tracked: 12, settled: 0, waiting: 12 });
    expect(s.endpoints).toContain(`GET /v1/orders/${told}`);
    expect(singles(s)).toBe(1);
    expect(allRows(s.db, id).filter((r) => r.findings.length > 0)).toEqual([]);
  }, 30_000);
});

describe('lists of summaries: an order looked up by its key', () => {
  it('a crash between the POST and its commit: reconciliation records the order from its own record, with its charge, and flags nothing', async () => {
    const s = await service();
    const { campaign } = makeCampaign(s.db, { rows: 4, key: s.key, baseUrl: s.url });
    let calls = 0;
    const crashing: ServiceClient = {
      ...s.client,
      async createOrder(request, opts) {
        const outcome = await s.client.createOrder(request, opts);
        if (++calls === 2) throw new Error('killed after the POST, before its commit');
        return outcome;
      },
    };
    await expect(createSendQueue({ db: s.db, client: crashing, concurrency: 1 }).run(campaign.id)).rejects.toThrow('killed');
    const db = s.reopen();
    pauseInterrupted(db, T0);
    const crashed = allRows(db, campaign.id).find((r) => r.state === 'sending')!;

    const result = await reconcile(db, s.recorded, { campaignId: campaign.id });

    expect(result).toMatchObject({ checked: 1, ordered: 1, unknown: 0 });
    const row = getRecipient(db, crashed.id)!;
    const order = s.account().orders.find((o) => o.externalReferenceId === crashed.externalReferenceId)!;
    expect(row).toMatchObject({ state: 'ordered', orderId: order.id, findings: [] });
    expect(Number(row.chargedText)).toBe(Number(order.charged.amount));
    expect(s.endpoints).toContain(`GET /v1/orders/${order.id}`);
    // Resumed: the rest go out and no row has a second order.
    expect((await createSendQueue({ db, client: s.client }).run(campaign.id)).stoppedBy).toBe('done');
    expect(s.account().orders).toHaveLength(4);
    expect(s.account().duplicates).toEqual([]);
  }, 30_000);

  it('an answer lost, then a 4xx: the lookup finds the order and the send records it with its charge and goes on, not paused on a summary', async () => {
    const clock = fakeClock(Date.now());
    const s = await startSimulator({ now: clock.now, dialect: { listEntries: 'summary' } }, { clock });
    const { db } = tempDb();
    const { campaign, rowIds } = makeCampaign(db, { rows: 3, key: s.key, baseUrl: s.url });
    let calls = 0;
    const client: ServiceClient = {
      ...s.client,
      createOrder: async (request, opts): Promise<Outcome<Order>> => {
        calls++;
        if (calls === 1) {
          await s.client.createOrder(request, opts);
          return { kind: 'ambiguous', reason: 'connection', status: undefined, endpoint: 'POST /v1/orders', message: 'connection reset' };
        }
        if (calls === 2) return { kind: 'rejected', status: 402, code: 'INSUFFICIENT_BALANCE', message: 'the balance is too low', body: '{}', endpoint: 'POST /v1/orders' };
        return s.client.createOrder(request, opts);
      },
    };

    const result = await createSendQueue({ db, client, clock, concurrency: 1, backoff: { baseMs: 1, capMs: 2 } }).run(campaign.id);

    expect(result.stoppedBy).toBe('done');
    const first = getRecipient(db, rowIds[0]!)!;
    const order = s.account().orders.find((o) => o.externalReferenceId === first.externalReferenceId)!;
    expect(first).toMatchObject({ state: 'ordered', orderId: order.id, findings: [] });
    expect(Number(first.chargedText)).toBe(Number(order.charged.amount));
    expect(s.account().orders).toHaveLength(3);
    expect(s.account().duplicates).toEqual([]);
  }, 30_000);
});
