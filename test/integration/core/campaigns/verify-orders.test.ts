// Issue 9: every order answer is checked against what its row asked, and the first surprise stops
// the run. Against the real simulator over HTTP, in dialects set unlike our guesses, and a real
// SQLite file.

import { describe, expect, it } from 'vitest';
import { createSendQueue } from '../../../../electron/core/campaigns/send-queue.ts';
import { orderBodyFor } from '../../../../electron/core/campaigns/order-body.ts';
import { pollRound } from '../../../../electron/core/campaigns/poller.ts';
import { getCampaign, setSendState } from '../../../../electron/core/db/repos/campaigns.ts';
import { markSending } from '../../../../electron/core/db/repos/recipient-transitions.ts';
import { chargedTotals, getRecipient } from '../../../../electron/core/db/repos/recipients.ts';
import type { Outcome, ServiceClient } from '../../../../electron/core/service/index.ts';
import type { Order } from '../../../../electron/core/service/types.ts';
import { DIALECTS, type SimulatorOptions } from '../../../../electron/simulator/index.ts';
import { allRows, makeCampaign, startSimulator, tempDb, T0 } from '../../../support/index.ts';

async function setup(opts: { sim?: SimulatorOptions; rows?: number; wrap?: (client: ServiceClient) => ServiceClient; concurrency?: number } = {}) {
  const service = await startSimulator(opts.sim ?? {});
  const store = tempDb();
  // USD 11.50, 12.50, … 30.50 on the USD 5–500 range product, as the campaign.
  const made = makeCampaign(store.db, { rows: opts.rows ?? 20, key: service.key, baseUrl: service.url, productSlug: 'us-range', amountMinor: (i) => 1150 + i * 100 });
  const client = opts.wrap ? opts.wrap(service.client) : service.client;
  const queue = createSendQueue({ db: store.db, client, concurrency: opts.concurrency ?? 4, backoff: { baseMs: 5, capMs: 40 } });
  return { ...service, ...store, ...made, queue, campaignId: made.campaign.id };
}

function mapOrders(inner: ServiceClient, change: (order: Order) => Order): ServiceClient {
  const mapped = (outcome: Outcome<Order>): Outcome<Order> => (outcome.kind === 'ok' ? { ...outcome, value: change(outcome.value) } : outcome);
  return {
    ...inner,
    createOrder: async (request, opts) => mapped(await inner.createOrder(request, opts)),
  };
}

describe('every order is checked against its request', () => {
  it('a service that reads custom_amount from item and issues the minimum costs one wrong gift: the run pauses naming the difference', async () => {
    const t = await setup({ sim: { dialect: DIALECTS['item-custom-amount'] } });
    const result = await t.queue.run(t.campaignId);

    expect(result.stoppedBy).toBe('mismatch');
    expect(result.sendState).toBe('paused');
    expect(result.pausedReason).toBe('mismatch');
    expect(result.message).toContain('the service issued USD 5.00 for a USD 11.50 gift');
    // One order at the service, issued at the minimum; every other row untouched.
    const orders = t.account().orders;
    expect(orders).toHaveLength(1);
    expect(orders[0]?.price).toMatchObject({ amount: '5.00', currency: 'USD' });
    const rows = allRows(t.db, t.campaignId);
    expect(rows.filter((r) => r.state === 'ready')).toHaveLength(19);
    // The flagged row keeps both values: what it asked and what the service says it issued and charged.
    const flagged = rows.find((r) => r.state === 'ordered');
    expect(flagged?.amountMinor).toBe(1150);
    expect(flagged?.issued).toEqual({ text: '5', currency: 'USD' });
    expect(flagged?.findings).toEqual([
      { kind: 'mismatch', field: 'amount', asked: 'USD 11.50', stated: 'USD 5.00', message: 'the service issued USD 5.00 for a USD 11.50 gift' },
    ]);
    expect(chargedTotals(t.db, t.campaignId)).toEqual([{ currency: 'USD', amount: '5.00' }]);

    // The reason survives (it is in the database), and a resume again risks one order only.
    expect(getCampaign(t.db, t.campaignId)).toMatchObject({ pausedReason: 'mismatch', pausedDetail: expect.stringContaining('USD 11.50') });
    const again = await t.queue.run(t.campaignId);
    expect(again.stoppedBy).toBe('mismatch');
    expect(again.message).toContain('the service issued USD 5.00 for a USD 12.50 gift');
    expect(t.account().orders).toHaveLength(2);
  });

  it('the first order of a run goes alone: no second POST leaves before its answer is checked', async () => {
    let inFlight = 0;
    let answered = 0;
    const startedWhile: number[] = [];
    const t = await setup({
      concurrency: 8,
      wrap: (inner) => ({
        ...inner,
        createOrder: async (request, opts) => {
          startedWhile.push(answered);
          inFlight++;
          try {
            return await inner.createOrder(request, opts);
          } finally {
            inFlight--;
            answered++;
          }
        },
      }),
    });
    const result = await t.queue.run(t.campaignId);
    expect(result.stoppedBy).toBe('done');
    expect(startedWhile[0]).toBe(0);
    // Every later POST started after the first answer came back.
    expect(startedWhile.slice(1).every((n) => n >= 1)).toBe(true);
    expect(inFlight).toBe(0);
    expect(t.account().orders).toHaveLength(20);
  });

  it('an answer that does not echo our key, or names another recipient, pauses the run with the difference', async () => {
    const noEcho = await setup({ wrap: (inner) => mapOrders(inner, (o) => ({ ...o, externalReferenceId: undefined })) });
    const r1 = await noEcho.queue.run(noEcho.campaignId);
    expect(r1.stoppedBy).toBe('mismatch');
    expect(r1.message).toMatch(/echoes the key of no order/);
    expect(noEcho.account().orders).toHaveLength(1);

    const other = await setup({ wrap: (inner) => mapOrders(inner, (o) => ({ ...o, recipientEmail: 'someone.else@example.com' })) });
    const r2 = await other.queue.run(other.campaignId);
    expect(r2.stoppedBy).toBe('mismatch');
    expect(r2.message).toContain('addressed the gift to someone.else@example.com instead of r0@example.com');
  });

  it('an answer in another currency than the row pauses the run (the first order confirms a currency the service did not state)', async () => {
    const t = await setup({ wrap: (inner) => mapOrders(inner, (o) => ({ ...o, item: { ...o.item, price: { text: '11.5', currency: 'EUR', money: { minor: 1150, currency: 'EUR' } } } })) });
    const result = await t.queue.run(t.campaignId);
    expect(result.stoppedBy).toBe('mismatch');
    expect(result.message).toContain('the service issued EUR 11.50 for a USD 11.50 gift (another currency)');
  });

  it('odd values in an answer are kept and flagged without pausing, and never leave the row sending', async () => {
    const t = await setup({ rows: 3, wrap: (inner) => mapOrders(inner, (o) => ({ ...o, anomalies: ['order.order_item.transaction_fee_rate: expected a decimal number, received "two percent"'] })) });
    const result = await t.queue.run(t.campaignId);
    expect(result.stoppedBy).toBe('done');
    const rows = allRows(t.db, t.campaignId);
    expect(rows.map((r) => r.state)).toEqual(['ordered', 'ordered', 'ordered']);
    expect(rows[0]?.findings[0]).toMatchObject({ kind: 'unreadable', field: 'record' });
  });

  it('reconciliation checks the order it finds by key: a wrong one is recorded, flagged, and nothing new is sent', async () => {
    const t = await setup({ sim: { dialect: DIALECTS['item-custom-amount'] } });
    // A previous run committed the intent and its POST reached the service, then the process died.
    const row = allRows(t.db, t.campaignId)[0]!;
    const body = orderBodyFor(t.campaign, row);
    markSending(t.db, row.id, body, T0);
    const posted = await t.client.createOrder(body);
    expect(posted.kind).toBe('ok');

    const result = await t.queue.run(t.campaignId);
    expect(result.stoppedBy).toBe('mismatch');
    expect(result.reconciliation.mismatched).toHaveLength(1);
    expect(result.stats.attempts).toBe(0);
    expect(t.account().orders).toHaveLength(1);
    expect(getRecipient(t.db, row.id)).toMatchObject({ state: 'ordered', issued: { text: '5', currency: 'USD' } });
  });
});

describe('a poll answer is checked too', () => {
  async function orderedCampaign() {
    const t = await setup({ rows: 3 });
    const result = await t.queue.run(t.campaignId);
    expect(result.stoppedBy).toBe('done');
    return t;
  }
  /** The service now tells another story about the first order: another price. */
  const changedPrice = (inner: ServiceClient, orderId: number): ServiceClient => {
    const change = (o: Order): Order => (o.id === orderId ? { ...o, item: { ...o.item, price: { text: '99', currency: 'USD', money: { minor: 9900, currency: 'USD' } } } } : o);
    return {
      ...inner,
      async *orderPages(filter, opts) {
        for await (const page of inner.orderPages(filter, opts)) yield page.kind === 'ok' ? { ...page, value: { ...page.value, orders: page.value.orders.map(change) } } : page;
      },
      getOrder: async (id, opts) => {
        const outcome = await inner.getOrder(id, opts);
        return outcome.kind === 'ok' ? { ...outcome, value: change(outcome.value) } : outcome;
      },
    };
  };

  it('flags the row once with both values; a finished campaign stays as it is', async () => {
    const t = await orderedCampaign();
    const first = allRows(t.db, t.campaignId)[0]!;
    const deps = { db: t.db, client: changedPrice(t.client, first.orderId!), clock: { now: () => Date.now(), sleep: async () => undefined } };
    const target = { environment: 'simulator' as const, baseUrl: t.url };
    await pollRound(deps, target);
    await pollRound(deps, target);
    const flagged = getRecipient(t.db, first.id);
    expect(flagged?.findings).toEqual([expect.objectContaining({ kind: 'mismatch', field: 'amount', asked: 'USD 11.50', stated: 'USD 99.00' })]);
    expect(allRows(t.db, t.campaignId).filter((r) => r.findings.length > 0)).toHaveLength(1);
    expect(getCampaign(t.db, t.campaignId)?.sendState).toBe('done');
  });

  it('pauses a campaign still sending, naming the difference', async () => {
    const t = await orderedCampaign();
    const first = allRows(t.db, t.campaignId)[0]!;
    setSendState(t.db, t.campaignId, { from: 'done', to: 'sending' }, Date.now());
    const deps = { db: t.db, client: changedPrice(t.client, first.orderId!), clock: { now: () => Date.now(), sleep: async () => undefined } };
    await pollRound(deps, { environment: 'simulator', baseUrl: t.url });
    expect(getCampaign(t.db, t.campaignId)).toMatchObject({ sendState: 'paused', pausedReason: 'mismatch', pausedDetail: expect.stringContaining('the service issued USD 99.00 for a USD 11.50 gift') });
  });
});
