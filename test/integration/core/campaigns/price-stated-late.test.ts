// Gap #16: a service that issues asynchronously may answer POST /v1/orders without order_item.price
// and the charge, and state them later in the order's own record (the simulator's priceLagMs). An
// answer that lacks the price but contradicts nothing is recorded as ordered; the price is confirmed
// from GET /v1/orders/{id} before the product's next order goes, and the charge is filled in from it.
// A record that still lacks it after a bounded wait pauses; one that states another price is a
// mismatch as before. Real parts: the send queue on a real SQLite file, the simulator over HTTP;
// time is virtual.

import { describe, expect, it } from 'vitest';
import { pollRound } from '../../../../electron/core/campaigns/poller.ts';
import type { Dialect } from '../../../../electron/simulator/index.ts';
import { createSendQueue } from '../../../../electron/core/campaigns/send-queue.ts';
import { orderBodyFor } from '../../../../electron/core/campaigns/order-body.ts';
import { markSending } from '../../../../electron/core/db/repos/recipient-transitions.ts';
import { getRecipient } from '../../../../electron/core/db/repos/recipients.ts';
import { expectOneOrderPerRow, fakeClock, makeCampaign, startSimulator, tempDb } from '../../../support/index.ts';

const requests = (account: { requests: Record<string, Record<string, number>> }, label: string): number =>
  Object.values(account.requests[label] ?? {}).reduce((n, k) => n + k, 0);

describe('an order answer without the item price', () => {
  it('is recorded, its price confirmed from the order record before the next order, and every charge equals the service', async () => {
    const clock = fakeClock(Date.now());
    const service = await startSimulator({ now: clock.now, dialect: { priceLagMs: 5_000 } }, { clock });
    const { db } = tempDb();
    const { campaign, rowIds } = makeCampaign(db, { rows: 4, productSlug: 'us-fixed-cents', key: service.key, baseUrl: service.url });
    const queue = createSendQueue({ db, client: service.client, clock, concurrency: 2, backoff: { baseMs: 1, capMs: 2 } });

    const result = await queue.run(campaign.id);
    const account = service.account();
    expect(result.stoppedBy).toBe('done');
    expect(result.message).not.toMatch(/paused/i);
    expectOneOrderPerRow(db, campaign.id, account);
    for (const id of rowIds) expect(getRecipient(db, id)).toMatchObject({ state: 'ordered', findings: [], charged: { minor: 1250, currency: 'USD' } });
    // The second order left only once the first one's record stated its price (5 s after it was made).
    const created = account.orders.map((o) => Date.parse(o.createdAt));
    expect(created[1]! - created[0]!).toBeGreaterThanOrEqual(5_000);
    expect(requests(account, 'GET /v1/orders/:id')).toBeGreaterThanOrEqual(4);
  });

  it('found by key at a resume (a crash between the POST and its commit) while the price still lags: recorded and confirmed, no pause, one order', async () => {
    const clock = fakeClock(Date.now());
    const service = await startSimulator({ now: clock.now, dialect: { priceLagMs: 5_000 } }, { clock });
    const { db } = tempDb();
    const { campaign, rowIds } = makeCampaign(db, { rows: 3, productSlug: 'us-fixed-cents', key: service.key, baseUrl: service.url });
    // The first row's intent was committed and its POST made; the process died before the answer was recorded.
    const first = getRecipient(db, rowIds[0]!);
    if (!first || !markSending(db, first.id, orderBodyFor(campaign, first), clock.now())) throw new Error('the first row should be ready');
    expect((await service.client.createOrder(getRecipient(db, first.id)?.requestBody ?? '')).kind).toBe('ok');

    const queue = createSendQueue({ db, client: service.client, clock, concurrency: 2, backoff: { baseMs: 1, capMs: 2 } });
    const result = await queue.run(campaign.id);
    const account = service.account();
    expect(result.stoppedBy).toBe('done');
    expect(result.message).not.toMatch(/paused/i);
    expect(result.reconciliation).toMatchObject({ ordered: 1, mismatched: [] });
    expectOneOrderPerRow(db, campaign.id, account);
    expect(account.requests['POST /v1/orders']?.['200']).toBe(3);
    for (const id of rowIds) expect(getRecipient(db, id)).toMatchObject({ state: 'ordered', findings: [], charged: { minor: 1250, currency: 'USD' } });
    // The product's next order left only once the found order's record stated its price.
    const created = account.orders.map((o) => Date.parse(o.createdAt));
    expect(created[1]! - created[0]!).toBeGreaterThanOrEqual(5_000);
  });

  it('pauses after the first order, with a clear message, when its record still lacks the price after the wait', async () => {
    const clock = fakeClock(Date.now());
    const service = await startSimulator({ now: clock.now, dialect: { priceLagMs: 3_600_000 } }, { clock });
    const { db } = tempDb();
    const { campaign, rowIds } = makeCampaign(db, { rows: 3, key: service.key, baseUrl: service.url });
    const queue = createSendQueue({ db, client: service.client, clock, concurrency: 2, backoff: { baseMs: 1, capMs: 2 } });

    const result = await queue.run(campaign.id);
    expect(result.stoppedBy).toBe('mismatch');
    expect(result.message).toMatch(/Line 2, order \d+: the service has not stated what it issued for a USD 25\.00 gift/);
    expect(service.account().orders).toHaveLength(1);
    expect(getRecipient(db, rowIds[0]!)).toMatchObject({ state: 'ordered', orderId: service.account().orders[0]?.id });
    expect(getRecipient(db, rowIds[0]!)?.findings[0]).toMatchObject({ kind: 'mismatch', field: 'amount', stated: 'nothing' });
    expect(getRecipient(db, rowIds[1]!)?.state).toBe('ready');
  });

  it('is a mismatch when the record later states another price (a custom amount the service did not read)', async () => {
    const clock = fakeClock(Date.now());
    const service = await startSimulator({ now: clock.now, dialect: { priceLagMs: 5_000, customAmount: 'item-or-minimum' } }, { clock });
    const { db } = tempDb();
    const { campaign, rowIds } = makeCampaign(db, { rows: 3, productSlug: 'us-range', amountMinor: 1_150, key: service.key, baseUrl: service.url });
    const queue = createSendQueue({ db, client: service.client, clock, concurrency: 2, backoff: { baseMs: 1, capMs: 2 } });

    const result = await queue.run(campaign.id);
    expect(result.stoppedBy).toBe('mismatch');
    expect(result.message).toContain('the service issued USD 5.00 for a USD 11.50 gift');
    const account = service.account();
    expect(account.orders).toHaveLength(1);
    expect(getRecipient(db, rowIds[0]!)).toMatchObject({ state: 'ordered', charged: { minor: 500, currency: 'USD' } });
    expect(getRecipient(db, rowIds[1]!)?.state).toBe('ready');
  });

  // A pause while the first order's price is being confirmed leaves it ordered without its charge;
  // the poller reads its record (a GET by id: these lists are summaries) and fills it in.
  const pausedWhileConfirming = async (dialect: Partial<Dialect>, productSlug: string, amountMinor?: number) => {
    const clock = fakeClock(Date.now());
    const service = await startSimulator({ now: clock.now, dialect }, { clock });
    const { db } = tempDb();
    const { campaign, rowIds } = makeCampaign(db, { rows: 3, productSlug, key: service.key, baseUrl: service.url, ...(amountMinor ? { amountMinor } : {}) });
    const pause = new AbortController();
    const log = (entry: { message: string }) => {
      if (entry.message.includes('no item price in the answer yet')) pause.abort();
    };
    const result = await createSendQueue({ db, client: service.client, clock, concurrency: 2, log }).run(campaign.id, { signal: pause.signal });
    expect(result.stoppedBy).toBe('user');
    expect(service.account().orders).toHaveLength(1);
    expect(getRecipient(db, rowIds[0]!)).toMatchObject({ state: 'ordered', charged: null, issued: null });
    clock.advance(10_000);
    const poll = () => pollRound({ db, client: service.client, clock }, { environment: campaign.environment, baseUrl: service.url });
    return { service, db, rowIds, poll, gets: () => requests(service.account(), 'GET /v1/orders/:id') };
  };

  it('cut short by a pause: a later poll round reads the record and records the price and the charge (summary lists: by id)', async () => {
    const { service, db, rowIds, poll, gets } = await pausedWhileConfirming({ priceLagMs: 5_000, listEntries: 'summary' }, 'us-fixed-cents');
    const before = gets();
    const round = await poll();
    expect(round.error).toBeUndefined();
    expect(gets() - before).toBe(1);
    expect(getRecipient(db, rowIds[0]!)).toMatchObject({
      state: 'ordered',
      findings: [],
      charged: { minor: service.account().orders[0]!.charged.minor, currency: 'USD' },
      issued: { currency: 'USD' },
    });
    expect(service.account().orders[0]!.charged.minor).toBe(1_250);
    // The row has its charge: the next round reads no record for it (the PENDING page only).
    const again = gets();
    await poll();
    expect(gets()).toBe(again);
  });

  it('cut short by a pause: a record that then states another price flags the row at the next poll, with the charge stated', async () => {
    const { db, rowIds, poll } = await pausedWhileConfirming({ priceLagMs: 5_000, customAmount: 'item-or-minimum' }, 'us-range', 1_150);
    await poll();
    const row = getRecipient(db, rowIds[0]!);
    expect(row).toMatchObject({ state: 'ordered', charged: { minor: 500, currency: 'USD' } });
    expect(row?.findings).toEqual([expect.objectContaining({ kind: 'mismatch', field: 'amount', stated: 'USD 5.00' })]);
  });
});
