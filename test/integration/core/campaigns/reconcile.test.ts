// Reconciliation at the start of a run against the real simulator and a real SQLite file:
// every `sending` row is looked up by its key before anything new is sent; what is found is
// recorded, what is not is re-POSTed with the same bytes under the same key.

import { describe, expect, it } from 'vitest';
import { NOT_FOUND_NOTE, reconcile } from '../../../../electron/core/campaigns/reconcile.ts';
import { orderBodyFor } from '../../../../electron/core/campaigns/order-body.ts';
import { createSendQueue } from '../../../../electron/core/campaigns/send-queue.ts';
import { getCampaign, pauseInterrupted } from '../../../../electron/core/db/repos/campaigns.ts';
import { listEvents } from '../../../support/events.ts';
import { markSending } from '../../../../electron/core/db/repos/recipient-transitions.ts';
import { getRecipient } from '../../../../electron/core/db/repos/recipients.ts';
import type { Db } from '../../../../electron/core/db/open.ts';
import type { ServiceClient } from '../../../../electron/core/service/index.ts';
import {
  allRows,
  expectOneOrderPerRow,
  fakeClock,
  makeCampaign,
  startRecordingProxy,
  startSimulator,
  tempDb,
  T0,
} from '../../../support/index.ts';

class SimulatedCrash extends Error {}

/**
 * Freezes the rows' bodies and commits them `sending`, as a process that died right after would leave
 * them, a moment ago (an empty lookup of a key sent long ago needs a witness: resume-list-window.test.ts).
 */
function leaveSending(db: Db, campaignId: string, count: number, at = Date.now()): number[] {
  const campaign = getCampaign(db, campaignId);
  if (!campaign) throw new Error('no campaign');
  return allRows(db, campaignId)
    .slice(0, count)
    .map((row) => {
      if (!markSending(db, row.id, orderBodyFor(campaign, row), at)) throw new Error(`row ${row.id} was not ready`);
      return row.id;
    });
}

describe('reconciliation', () => {
  it('a crash between the POST and its commit: the order is found by key and recorded, and no second order is made', async () => {
    const service = await startSimulator();
    const store = tempDb();
    const { campaign } = makeCampaign(store.db, { rows: 6, key: service.key });
    let calls = 0;
    const crashing: ServiceClient = {
      ...service.client,
      async createOrder(request, opts) {
        const outcome = await service.client.createOrder(request, opts);
        // The order reached the service and was made; the process dies before recording it.
        if (++calls === 3) throw new SimulatedCrash('killed after the POST, before its commit');
        return outcome;
      },
    };
    await expect(createSendQueue({ db: store.db, client: crashing, concurrency: 1 }).run(campaign.id)).rejects.toThrow(SimulatedCrash);

    const db = store.reopen();
    pauseInterrupted(db, T0);
    const crashed = allRows(db, campaign.id).find((r) => r.state === 'sending');
    if (!crashed) throw new Error('the crashed row should be left sending');
    expect(service.account().orders.map((o) => o.externalReferenceId)).toContain(crashed.externalReferenceId);

    const result = await reconcile(db, service.client, { campaignId: campaign.id });
    expect(result).toMatchObject({ checked: 1, ordered: 1, notFound: 0, unknown: 0, duplicates: 0, auth: null });
    const order = service.account().orders.find((o) => o.externalReferenceId === crashed.externalReferenceId);
    expect(getRecipient(db, crashed.id)).toMatchObject({ state: 'ordered', orderId: order?.id });
    expect(listEvents(db, campaign.id, { recipientId: crashed.id }).map((e) => e.kind)).toEqual(['sending', 'reconciled']);

    // Resume: the rest is sent, and the crashed row's POST was never repeated.
    const resumed = await createSendQueue({ db, client: service.client }).run(campaign.id);
    expect(resumed.stoppedBy).toBe('done');
    expectOneOrderPerRow(db, campaign.id, service.account());
    expect(service.account().requests['POST /v1/orders']?.['200']).toBe(6);
  });

  it('a row not found under its key is re-POSTed with its frozen bytes under the same key, after the lookup, and ends with one order', async () => {
    const service = await startSimulator();
    const proxy = await startRecordingProxy(service.url);
    const { db } = tempDb();
    const { campaign } = makeCampaign(db, { rows: 3, key: service.key, productSlug: 'us-range' });
    const [rowId] = leaveSending(db, campaign.id, 1);
    const frozen = getRecipient(db, rowId ?? -1);
    if (!frozen?.requestBody) throw new Error('no frozen body');
    const client = service.makeClient({ baseUrl: proxy.url }).client;

    const found = await reconcile(db, client, { campaignId: campaign.id }, { clock: fakeClock(T0 + 1_000) });
    expect(found).toMatchObject({ checked: 1, ordered: 0, notFound: 1 });
    expect(getRecipient(db, frozen.id)).toMatchObject({ state: 'sending', lastError: NOT_FOUND_NOTE, externalReferenceId: frozen.externalReferenceId });

    const result = await createSendQueue({ db, client, concurrency: 1 }).run(campaign.id);
    expect(result.stoppedBy).toBe('done');
    expect(proxy.postsFor(frozen.externalReferenceId)).toEqual([frozen.requestBody]);
    // The queue's own reconciliation looked the row up again before the first POST left.
    const firstPost = proxy.requests.findIndex((r) => r.method === 'POST');
    const lookups = proxy.requests.slice(0, firstPost).filter((r) => r.path.includes(`external_reference_id=${frozen.externalReferenceId}`));
    expect(lookups.length).toBe(2);
    // The row that was sending went out before any ready row.
    expect(proxy.requests[firstPost]?.body).toBe(frozen.requestBody);
    expect(getRecipient(db, frozen.id)).toMatchObject({ state: 'ordered', attempts: 2 });
    expectOneOrderPerRow(db, campaign.id, service.account());
  });

  it('a lookup without a clear answer leaves the row exactly as it was', async () => {
    const service = await startSimulator({ faults: { seed: 2, error500BeforeCommit: 1, faultRoutes: 'all' } });
    const { db } = tempDb();
    const { campaign } = makeCampaign(db, { rows: 2, key: service.key });
    const [rowId] = leaveSending(db, campaign.id, 1);
    const before = getRecipient(db, rowId ?? -1);
    const eventsBefore = listEvents(db, campaign.id).length;

    const result = await reconcile(db, service.client, { campaignId: campaign.id });
    expect(result).toMatchObject({ checked: 1, ordered: 0, notFound: 0, unknown: 1 });
    expect(result.rows[0]?.detail).toContain('HTTP 500');
    expect(getRecipient(db, rowId ?? -1)).toEqual(before);
    expect(listEvents(db, campaign.id)).toHaveLength(eventsBefore);
  });

  it('two orders under one key are recorded with a loud event naming both, and the row keeps the first', async () => {
    const service = await startSimulator();
    const { db } = tempDb();
    const { campaign } = makeCampaign(db, { rows: 1, key: service.key });
    const [rowId] = leaveSending(db, campaign.id, 1);
    const row = getRecipient(db, rowId ?? -1);
    if (!row?.requestBody) throw new Error('no row');
    expect((await service.client.createOrder(row.requestBody)).kind).toBe('ok');
    // The injected fault: a service that (against its own rule) holds a second order under the key.
    const lying: ServiceClient = {
      ...service.client,
      async findOrderByReference(key, opts) {
        const outcome = await service.client.findOrderByReference(key, opts);
        if (outcome.kind !== 'ok' || !outcome.value.order) return outcome;
        const copy = { ...outcome.value.order, id: outcome.value.order.id + 1000 };
        return { ...outcome, value: { order: outcome.value.order, duplicates: [copy] } };
      },
    };

    const result = await reconcile(db, lying, { campaignId: campaign.id });
    const first = service.account().orders[0];
    expect(result).toMatchObject({ ordered: 1, duplicates: 1 });
    expect(result.rows[0]?.duplicateOrderIds).toEqual([(first?.id ?? 0) + 1000]);
    expect(getRecipient(db, row.id)).toMatchObject({ state: 'ordered', orderId: first?.id });
    const alert = listEvents(db, campaign.id, { recipientId: row.id }).find((e) => e.detail?.alert === 'duplicate-orders');
    expect(alert?.detail).toMatchObject({ orderIds: [first?.id, (first?.id ?? 0) + 1000] });
    expect(String(alert?.detail?.message)).toContain("Send these order ids to the service's support");
    // The row is flagged with both orders, as a mismatch: the run that meets it pauses.
    expect(result.mismatched.map((r) => r.rowId)).toEqual([row.id]);
    expect(getRecipient(db, row.id)?.findings).toEqual([
      expect.objectContaining({ kind: 'mismatch', field: 'key', stated: `orders ${first?.id ?? 0}, ${(first?.id ?? 0) + 1000}` }),
    ]);
  });

  it('by environment, every campaign of that environment is reconciled, and no other', async () => {
    const service = await startSimulator();
    const { db } = tempDb();
    const a = makeCampaign(db, { rows: 2, key: service.key, name: 'A' });
    const b = makeCampaign(db, { rows: 2, key: service.key, name: 'B' });
    const other = makeCampaign(db, { rows: 2, key: service.key, name: 'Sandbox one', environment: 'sandbox' });
    leaveSending(db, a.campaign.id, 1);
    leaveSending(db, b.campaign.id, 2);
    leaveSending(db, other.campaign.id, 1);

    const result = await reconcile(db, service.client, { environment: 'simulator' });
    expect(result).toMatchObject({ checked: 3, notFound: 3 });
    expect(new Set(result.rows.map((r) => r.campaignId))).toEqual(new Set([a.campaign.id, b.campaign.id]));
    expect(allRows(db, other.campaign.id).filter((r) => r.state === 'sending')).toHaveLength(1);
  });

  it('a refused key stops reconciliation, and the run pauses before sending anything', async () => {
    const service = await startSimulator({ keys: ['good_key_2'] }, { key: 'good_key_2' });
    const { db } = tempDb();
    const { campaign } = makeCampaign(db, { rows: 3, key: 'good_key_2' });
    leaveSending(db, campaign.id, 2);
    const wrong = service.makeClient({ key: 'wrong_key_2' }).client;

    const result = await createSendQueue({ db, client: wrong }).run(campaign.id);
    expect(result.stoppedBy).toBe('auth');
    expect(result.reconciliation.auth?.status).toBe(401);
    expect(result.stats.attempts).toBe(0);
    expect(result.counts).toMatchObject({ sending: 2, ready: 1, failed: 0 });
    expect(service.sim.audit().accounts['good_key_2']).toBeUndefined();
  });
});

describe('reconciliation waiting out a Retry-After', () => {
  it('never waits longer than a minute at a time, and a Pause ends the wait at once', async () => {
    const service = await startSimulator();
    const { db } = tempDb();
    const { campaign } = makeCampaign(db, { rows: 2, key: service.key, baseUrl: service.url });
    leaveSending(db, campaign.id, 2);
    // A service that asks for an hour's pause on every lookup.
    const client: ServiceClient = {
      ...service.client,
      findOrderByReference: async () => ({ kind: 'rate-limited', status: 429, retryAfterMs: 3_600_000, message: 'slow down', endpoint: 'GET /v1/orders' }),
    };

    const clock = fakeClock();
    const capped = await reconcile(db, client, { campaignId: campaign.id }, { clock, concurrency: 1, maxRateLimitedRetries: 1 });
    expect(capped.unknown).toBe(2);
    expect(Math.max(...clock.sleeps)).toBe(60_000);

    // In real time: a Pause during the wait ends it now, not in a minute (or an hour).
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 50);
    const paused = await reconcile(db, client, { campaignId: campaign.id }, { signal: controller.signal, concurrency: 1 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(paused.unknown).toBe(2);
    expect(allRows(db, campaign.id).map((r) => r.state)).toEqual(['sending', 'sending']);
  });
});
