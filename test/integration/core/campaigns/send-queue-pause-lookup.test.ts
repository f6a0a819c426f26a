// A run that pauses for a reason that leaves the service reachable (a mismatch, repeated refusals) looks up the rows it
// leaves `sending` once by their key before it ends (send-queue.ts lookUpOnPause): the event-day
// case of a fixed USD 25 order whose 200 was cut off just as the range product's first order came
// back issued at the minimum (item-custom-amount). Before, that row stayed `sending` ("may or may
// not have been created") and our charged total was short of the service's until a resume.
// Real parts: a SQLite file, the simulator over HTTP. Fakes only for faults: the simulator's own,
// switched on for one POST (test/support/two-products.ts watchPosts); its retry is put 30 s away
// (fixed jitter) so the pause always comes first.

import { describe, expect, it } from 'vitest';
import { createSendQueue } from '../../../../electron/core/campaigns/send-queue.ts';
import { getCampaign } from '../../../../electron/core/db/repos/campaigns.ts';
import { chargedTotals } from '../../../../electron/core/db/repos/recipients.ts';
import type { ServiceClient } from '../../../../electron/core/service/index.ts';
import { DIALECTS, type AuditAccount, type FaultSettings, type SimulatorOptions } from '../../../../electron/simulator/index.ts';
import { allRows, expectTalliesMatchRows, makeCampaign, startSimulator, tempDb } from '../../../support/index.ts';
import { makeTwoProductCampaign, watchPosts } from '../../../support/two-products.ts';

const posts = (a: AuditAccount): number => Object.values(a.requests['POST /v1/orders'] ?? {}).reduce((n, c) => n + c, 0);

/**
 * Rows F R F R … (Northwind USD 25 fixed, Harborline USD 5-500 range) under item-custom-amount.
 * The fixed product's first POST meets `fault`; its retry is due 30 s later, so the range product's
 * first order goes alone meanwhile, comes back issued at USD 5.00, and the run pauses (mismatch).
 */
async function pauseWithOneUnclear(fault: Partial<FaultSettings>, pause?: 'person', sim: SimulatorOptions = { dialect: DIALECTS['item-custom-amount'] }) {
  const service = await startSimulator(sim);
  const store = tempDb();
  const made = makeTwoProductCampaign(store.db, { key: service.key, baseUrl: service.url, fixedRows: 3, rangeRows: 3, layout: 'interleaved' });
  const lookups: string[] = [];
  const controller = new AbortController();
  let injected = false;
  const watch = watchPosts(service.client, async (post, callThrough) => {
    if (injected || post.productId !== made.fixedId) return callThrough();
    injected = true;
    service.sim.setFaults(fault);
    try {
      return await callThrough();
    } finally {
      service.sim.setFaults({ truncate: 0, error500BeforeCommit: 0 });
      if (pause === 'person') controller.abort();
    }
  });
  const client: ServiceClient = {
    ...watch.client,
    findOrderByReference: (key, opts) => {
      lookups.push(key);
      return watch.client.findOrderByReference(key, opts);
    },
  };
  const queue = createSendQueue({ db: store.db, client, concurrency: 4, backoff: { baseMs: 60_000, capMs: 60_000 }, random: () => 0.5 });
  const result = await queue.run(made.campaign.id, { signal: controller.signal });
  const rows = allRows(store.db, made.campaign.id);
  // Interleaved: the first row is the fixed product's.
  const [firstFixed] = rows;
  if (!firstFixed || made.productOfRow.get(firstFixed.id) !== made.fixedId) throw new Error('expected the fixed product\'s row first');
  return { ...service, ...store, ...made, queue, result, lookups, watch, firstFixed, campaignId: made.campaign.id };
}

describe('a pause for a mismatch looks up the rows it leaves sending, once, by key', () => {
  it('a fixed order whose 200 was cut off as the mismatch hit is recorded as ordered: our charged total equals the service\'s, nothing sent twice', async () => {
    const t = await pauseWithOneUnclear({ truncate: 1 });
    expect(t.result.stoppedBy).toBe('mismatch');
    expect(getCampaign(t.db, t.campaignId)).toMatchObject({ sendState: 'paused', pausedReason: 'mismatch' });
    // The race happened: the fixed order was made (its answer cut off) and never POSTed again.
    expect(t.watch.posts.map((p) => [p.key === t.firstFixed.externalReferenceId ? 'fixed' : 'range', p.outcome])).toEqual([
      ['fixed', 'ambiguous'],
      ['range', 'ok'],
    ]);
    const account = t.account();
    expect(account.faults.truncate).toBe(1);
    expect(posts(account)).toBe(2);
    expect(account.orders).toHaveLength(2);

    // The lookup: one GET by the unclear row's key, and the row is ordered as the service states it.
    expect(t.lookups).toEqual([t.firstFixed.externalReferenceId]);
    expect(t.result.lookedUpOnPause).toMatchObject({ checked: 1, ordered: 1, notFound: 0, unknown: 0, duplicates: 0 });
    const fixedOrder = account.orders.find((o) => o.externalReferenceId === t.firstFixed.externalReferenceId);
    const row = allRows(t.db, t.campaignId).find((r) => r.id === t.firstFixed.id);
    expect(row).toMatchObject({ state: 'ordered', orderId: fixedOrder?.id, itemId: fixedOrder?.itemId, findings: [] });
    expect(row?.charged).toEqual({ minor: fixedOrder?.charged.minor, currency: 'USD' });

    // Every order the service holds is recorded on its row, and the totals agree (USD 25 + USD 5).
    expect(account.duplicates).toEqual([]);
    expect(account.conflictingRetries).toEqual([]);
    const byKey = new Map(allRows(t.db, t.campaignId).map((r) => [r.externalReferenceId, r]));
    for (const order of account.orders) expect(byKey.get(order.externalReferenceId ?? '')).toMatchObject({ state: 'ordered', orderId: order.id });
    expect(chargedTotals(t.db, t.campaignId)).toEqual(account.chargedTotals.map((m) => ({ currency: m.currency, amount: m.amount })));
    expect(chargedTotals(t.db, t.campaignId)).toEqual([{ currency: 'USD', amount: '30.00' }]);
    expect(allRows(t.db, t.campaignId).filter((r) => r.state === 'sending')).toEqual([]);
    expectTalliesMatchRows(t.db);

    // The next resume has nothing to reconcile and re-POSTs nothing already made.
    const before = posts(t.account());
    const again = await t.queue.run(t.campaignId);
    expect(again.reconciliation.checked).toBe(0);
    expect(again.stoppedBy).toBe('mismatch');
    expect(posts(t.account()) - before).toBe(t.watch.posts.length - 2);
    expect(t.account().duplicates).toEqual([]);
  });

  it('a row whose POST made no order (a 500 before the commit) is looked up, not found, and left exactly as it was; the resume sends it once', async () => {
    const t = await pauseWithOneUnclear({ error500BeforeCommit: 1 });
    expect(t.result.stoppedBy).toBe('mismatch');
    expect(t.lookups).toEqual([t.firstFixed.externalReferenceId]);
    expect(t.result.lookedUpOnPause).toMatchObject({ checked: 1, ordered: 0, notFound: 1, unknown: 0 });
    expect(t.account().orders).toHaveLength(1);
    expect(posts(t.account())).toBe(2);
    // Left as the 500 left it: its error and its retry time, not the lookup's note.
    const row = allRows(t.db, t.campaignId).find((r) => r.id === t.firstFixed.id);
    expect(row).toMatchObject({ state: 'sending', orderId: null, attempts: 1 });
    expect(row?.lastError).toContain('500');
    expect(row?.nextAttemptAt).toBeGreaterThan(Date.now() + 20_000);

    // Resume: reconciled (not found), re-POSTed once under its key with the same bytes, ordered.
    const again = await t.queue.run(t.campaignId);
    expect(again.reconciliation).toMatchObject({ checked: 1, notFound: 1 });
    const after = allRows(t.db, t.campaignId).find((r) => r.id === t.firstFixed.id);
    expect(after?.state).toBe('ordered');
    const account = t.account();
    expect(account.duplicates).toEqual([]);
    expect(account.conflictingRetries).toEqual([]);
    expect(account.orders.filter((o) => o.externalReferenceId === t.firstFixed.externalReferenceId)).toHaveLength(1);
  });

  it('a pause by the person looks nothing up: the row stays sending for the resume', async () => {
    const t = await pauseWithOneUnclear({ truncate: 1 }, 'person');
    expect(t.result.stoppedBy).toBe('user');
    expect(t.result.lookedUpOnPause).toBeNull();
    expect(t.lookups).toEqual([]);
    expect(t.watch.posts).toHaveLength(1);
    expect(allRows(t.db, t.campaignId).find((r) => r.id === t.firstFixed.id)?.state).toBe('sending');
  });

  it('a pause for repeated refusals (the balance spent by the order whose answer was cut off) records that order too', async () => {
    // USD 25.00: the fixed order (made, its 200 cut off) spends it; the range rows are refused for the balance.
    const t = await pauseWithOneUnclear({ truncate: 1 }, undefined, { defaultAccount: { currency: 'USD', balance: '25.00' } });
    expect(t.result.stoppedBy).toBe('refused');
    expect(t.lookups).toEqual([t.firstFixed.externalReferenceId]);
    expect(t.result.lookedUpOnPause).toMatchObject({ checked: 1, ordered: 1 });
    const account = t.account();
    expect(account.orders.map((o) => o.externalReferenceId)).toEqual([t.firstFixed.externalReferenceId]);
    expect(allRows(t.db, t.campaignId).find((r) => r.id === t.firstFixed.id)).toMatchObject({ state: 'ordered', orderId: account.orders[0]?.id });
    expect(chargedTotals(t.db, t.campaignId)).toEqual([{ currency: 'USD', amount: '25.00' }]);
    expect(posts(account)).toBe(t.watch.posts.length);
  });

  it('a pause by the circuit breaker looks nothing up (the service is not answering): the row stays sending for the resume', async () => {
    // Every POST cut off after its order is made: the first order's two tries trip a breaker of 2.
    const service = await startSimulator({ faults: { truncate: 1 } });
    const { db } = tempDb();
    const { campaign } = makeCampaign(db, { rows: 3, key: service.key, baseUrl: service.url });
    const lookups: string[] = [];
    const client: ServiceClient = {
      ...service.client,
      findOrderByReference: (key, opts) => {
        lookups.push(key);
        return service.client.findOrderByReference(key, opts);
      },
    };
    const result = await createSendQueue({ db, client, concurrency: 4, breakerThreshold: 2, backoff: { baseMs: 5, capMs: 5 } }).run(campaign.id);
    expect(result.stoppedBy).toBe('circuit-breaker');
    expect(result.lookedUpOnPause).toBeNull();
    expect(lookups).toEqual([]);
    expect(service.account().orders).toHaveLength(1);
    expect(allRows(db, campaign.id).map((r) => r.state)).toEqual(['sending', 'ready', 'ready']);
  });
});
