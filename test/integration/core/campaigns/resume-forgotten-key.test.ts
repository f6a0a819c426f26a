// How long the service remembers an external_reference_id is "not shown" (the spec, section 8).
// With the simulator's `keyMemoryMs`, a POST under a key whose order is older than that is a second
// order, charged again. A resume re-POSTs a row left `sending` by an earlier run only once a lookup
// by its key clearly says no order exists; while the lookups fail, the row waits (still `sending`).
// Real parts: the send queue on a real SQLite file, the simulator over HTTP; time is virtual.

import { describe, expect, it } from 'vitest';
import { createSendQueue } from '../../../../electron/core/campaigns/send-queue.ts';
import { getRecipient } from '../../../../electron/core/db/repos/recipients.ts';
import { fakeClock, makeCampaign, startSimulator, tempDb } from '../../../support/index.ts';

describe('a row left sending, resumed after the service forgot its key', () => {
  it('is not POSTed again while its lookup by key fails, and is recorded with its one order once the lookup answers', async () => {
    const clock = fakeClock(Date.now());
    // Keys remembered for an hour; the first POST is committed but answered 503 (the answer lost).
    const service = await startSimulator({ now: clock.now, dialect: { keyMemoryMs: 3_600_000 }, faults: { error503AfterCommit: 1 } }, { clock });
    const { db } = tempDb();
    const { campaign, rowIds } = makeCampaign(db, { rows: 1, key: service.key, baseUrl: service.url });
    const row = () => getRecipient(db, rowIds[0] ?? 0);
    const queue = createSendQueue({ db, client: service.client, clock, concurrency: 1, maxAttemptsPerRun: 1, backoff: { baseMs: 1, capMs: 2 } });

    await queue.run(campaign.id);
    expect(row()?.state).toBe('sending');
    expect(service.account().orders).toHaveLength(1);

    // A day later: the service no longer knows the key, and every read of it fails (503).
    clock.advance(24 * 3_600_000);
    service.sim.setFaults({ error503AfterCommit: 0, error503: 1, faultRoutes: 'reads' });
    const resumed = await queue.run(campaign.id);
    expect(resumed.reconciliation.unknown).toBe(1);
    expect(service.account().orders).toHaveLength(1);
    expect(row()?.state).toBe('sending');

    // The reads are back: the order is found under the key and recorded; still one order.
    service.sim.setFaults({ error503: 0 });
    const again = await queue.run(campaign.id);
    expect(again.stoppedBy).toBe('done');
    expect(row()).toMatchObject({ state: 'ordered', orderId: service.account().orders[0]?.id });
    expect(service.account().orders).toHaveLength(1);
    expect(service.account().duplicates).toEqual([]);
  });

  it('is POSTed again under its key once a lookup clearly finds no order (the earlier POST never reached the service)', async () => {
    const clock = fakeClock(Date.now());
    // Nothing committed: the first POST fails before the handler.
    const service = await startSimulator({ now: clock.now, dialect: { keyMemoryMs: 3_600_000 } }, { clock });
    const { db } = tempDb();
    const queue = createSendQueue({ db, client: service.client, clock, concurrency: 1, maxAttemptsPerRun: 1, backoff: { baseMs: 1, capMs: 2 } });
    // An earlier order on this service, whose lookup shows the list reaches back a day
    // (resume-list-window.test.ts: without one, an empty lookup of a day-old key proves nothing).
    const earlier = makeCampaign(db, { rows: 1, key: service.key, baseUrl: service.url, name: 'Earlier' });
    await queue.run(earlier.campaign.id);
    const earlierOrders = service.account().orders.length;
    clock.advance(60_000);
    service.sim.setFaults({ error500BeforeCommit: 1 });
    const { campaign, rowIds } = makeCampaign(db, { rows: 1, key: service.key, baseUrl: service.url });
    await queue.run(campaign.id);
    expect(getRecipient(db, rowIds[0] ?? 0)?.state).toBe('sending');
    expect(service.sim.audit().accounts[service.key]?.orders ?? []).toHaveLength(earlierOrders);

    clock.advance(24 * 3_600_000);
    // Seed 18 makes the first read cut off (the reconciliation's lookup: no clear answer) and the
    // next ones whole (the queue's own lookup: no order under the key; the earlier order's: listed),
    // then the POST goes out.
    service.sim.setFaults({ error500BeforeCommit: 0, truncate: 0.5, faultRoutes: 'reads', seed: 18 });
    const resumed = await queue.run(campaign.id);
    expect(resumed.reconciliation.unknown).toBe(1);
    expect(resumed.stoppedBy).toBe('done');
    const key = getRecipient(db, rowIds[0] ?? 0)?.externalReferenceId;
    const mine = service.account().orders.filter((o) => o.externalReferenceId === key);
    expect(mine).toHaveLength(1);
    expect(getRecipient(db, rowIds[0] ?? 0)).toMatchObject({ state: 'ordered', orderId: mine[0]?.id });
    // Three lookups by key (the reconciliation's, the queue's, the earlier order's), then the one POST.
    const asked = (label: string) => Object.values(service.account().requests[label] ?? {}).reduce((n, k) => n + k, 0);
    expect(asked('GET /v1/orders')).toBe(3);
  });
});
