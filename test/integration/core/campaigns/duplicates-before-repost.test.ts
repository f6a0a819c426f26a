// When the send queue's own lookup by key, before a re-POST, finds several orders under a row's key,
// the money charged twice is recorded for the campaign (the 'duplicate-orders' alert event, with
// every order id) as the run's reconciliation records it, not only written to the run's log; the row
// is flagged with both orders and the run pauses, as for any answer unlike the request.
// Real parts: the send queue on a real SQLite file, the simulator over HTTP; time is virtual.

import { describe, expect, it } from 'vitest';
import { createSendQueue } from '../../../../electron/core/campaigns/send-queue.ts';
import { getRecipient } from '../../../../electron/core/db/repos/recipients.ts';
import { listEvents } from '../../../support/events.ts';
import { fakeClock, makeCampaign, startSimulator, tempDb } from '../../../support/index.ts';

describe('several orders under one key, found by the lookup before a re-POST', () => {
  it("records for the campaign, not only in the log, the second order its own lookup before a re-POST finds under the key", async () => {
    const clock = fakeClock(Date.now());
    const service = await startSimulator({ now: clock.now, dialect: { keyMemoryMs: 3_600_000 }, faults: { error503AfterCommit: 1 } }, { clock });
    const { db } = tempDb();
    const { campaign, rowIds } = makeCampaign(db, { rows: 1, key: service.key, baseUrl: service.url });
    const rowId = rowIds[0] ?? 0;
    const logged: string[] = [];
    const queue = createSendQueue({
      db, client: service.client, clock, concurrency: 1, maxAttemptsPerRun: 1, backoff: { baseMs: 1, capMs: 2 },
      log: (e) => { if (e.level === 'error') logged.push(e.message); },
    });
    await queue.run(campaign.id);
    expect(getRecipient(db, rowId)?.state).toBe('sending');

    // A day later the service has forgotten the key, and the same bytes reach it again (another
    // client, an old copy of the data file…): a second order under the row's key, charged too.
    clock.advance(24 * 3_600_000);
    service.sim.setFaults({ error503AfterCommit: 0 });
    expect((await service.client.createOrder(getRecipient(db, rowId)?.requestBody ?? '')).kind).toBe('ok');
    const [first, second] = service.account().orders;

    // The resume's reconciliation gets no clear answer (seed 8: its read is cut off); the queue's own
    // lookup before a re-POST finds both orders.
    service.sim.setFaults({ truncate: 0.5, faultRoutes: 'reads', seed: 8 });
    const resumed = await queue.run(campaign.id);
    expect(resumed.reconciliation.unknown).toBe(1);
    expect(resumed.stoppedBy).toBe('mismatch');
    expect(resumed.message).toMatch(/holds 2 orders under this row's key/);
    expect(getRecipient(db, rowId)).toMatchObject({ state: 'ordered', orderId: first?.id });
    expect(getRecipient(db, rowId)?.findings).toEqual([
      expect.objectContaining({ kind: 'mismatch', field: 'key', stated: `orders ${first?.id ?? 0}, ${second?.id ?? 0}` }),
    ]);
    expect(service.account().orders).toHaveLength(2);
    const alerts = listEvents(db, campaign.id, { recipientId: rowId }).filter((e) => e.detail?.['alert'] === 'duplicate-orders');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.detail).toMatchObject({ orderIds: [first?.id, second?.id], externalReferenceId: getRecipient(db, rowId)?.externalReferenceId });
    expect(alerts[0]?.detail?.['message']).toMatch(/holds 2 orders under the key of the row on line \d+ .*the others were charged too/);
    expect(logged).toContain(alerts[0]?.detail?.['message']);
  });
});
