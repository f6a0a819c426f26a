// Gap #38 of the spec audit: the spec does not say what a service does with a POST whose key arrives
// while the first POST with that key is still being processed. The simulator's racyKeyCheckMs makes
// one that checks the key on arrival and commits later: a re-POST soon after a timeout is a second
// order, charged too. After a POST times out, the queue lets the row wait out one more request
// timeout and then looks its key up before anything is POSTed again. So does a gateway's 504 (or
// 502) answered while the service goes on, and a 409 (a request under this key still in progress):
// mayStillBeRunning.
// Real parts: the send queue on a real SQLite file, the simulator over HTTP. Real time (a second):
// the service's processing is real time, so the row's wait must be too.

import { describe, expect, it } from 'vitest';
import { createSendQueue } from '../../../../electron/core/campaigns/send-queue.ts';
import type { ServiceClient } from '../../../../electron/core/service/index.ts';
import { expectOneOrderPerRow, makeCampaign, startSimulator, tempDb } from '../../../support/index.ts';

describe('a POST that times out on a service still processing it, with a racy key check', () => {
  it('ends with one order per row: the row waits a request timeout, finds its order by key, and is not POSTed again', async () => {
    // Each POST is answered after 350 ms; the client gives up after 250 ms.
    const service = await startSimulator({ dialect: { racyKeyCheckMs: 350 } }, { timeoutMs: 250 });
    const { db } = tempDb();
    const { campaign } = makeCampaign(db, { rows: 3, key: service.key, baseUrl: service.url });
    // A backoff of a millisecond or two: without the wait, the re-POST reaches the service before
    // the first POST's order is committed.
    // Breaker at 3: the first row's timeout, then the two others' at once. An order found by key is
    // a clear answer like the POST's own, so it resets the count and the run is not paused.
    const queue = createSendQueue({ db, client: service.client, concurrency: 4, breakerThreshold: 3, backoff: { baseMs: 1, capMs: 2 } });

    const started = Date.now();
    const result = await queue.run(campaign.id);

    expect(result.stoppedBy).toBe('done');
    expect(result.counts).toMatchObject({ ordered: 3, sending: 0, failed: 0 });
    const account = service.account();
    expectOneOrderPerRow(db, campaign.id, account);
    // One POST per row (each timed out), each row's order found by its key.
    expect(account.requests['POST /v1/orders']).toEqual({ 200: 3 });
    expect(result.stats).toMatchObject({ attempts: 3, retries: 0, ambiguous: 3, reconciled: 3 });
    // The first order of the product alone, then the two others: two timeouts and two waits of 250 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
  });

  it("ends with one order per row after a gateway's 504 answered while the first POST is still processing", async () => {
    // The gateway answers the first POST 504 at once; the service goes on and commits its order 350 ms
    // later. The client's timeout (500 ms) is the wait before the lookup by key.
    const service = await startSimulator({ dialect: { racyKeyCheckMs: 350 }, faults: { gatewayTimeoutWhileProcessing: 1 } }, { timeoutMs: 500 });
    const client: ServiceClient = {
      ...service.client,
      createOrder: async (request, opts) => {
        const outcome = await service.client.createOrder(request, opts);
        service.sim.setFaults({ gatewayTimeoutWhileProcessing: 0 });
        return outcome;
      },
    };
    const { db } = tempDb();
    const { campaign } = makeCampaign(db, { rows: 3, key: service.key, baseUrl: service.url });
    // Without the wait, the re-POST 1-2 ms after the 504 reaches the service before its order is
    // committed: a second order under the first row's key.
    const queue = createSendQueue({ db, client, concurrency: 4, backoff: { baseMs: 1, capMs: 2 } });

    const result = await queue.run(campaign.id);

    expect(result.stoppedBy).toBe('done');
    expect(result.counts).toMatchObject({ ordered: 3, sending: 0, failed: 0 });
    const account = service.account();
    expectOneOrderPerRow(db, campaign.id, account);
    // The first row's POST answered 504 (its order found by key), the two others' orders answered.
    expect(account.faults.gatewayTimeoutWhileProcessing).toBe(1);
    expect(account.requests['POST /v1/orders']).toEqual({ 200: 2, 504: 1 });
    expect(result.stats).toMatchObject({ attempts: 3, retries: 0, ambiguous: 1, reconciled: 1 });
  });

  it('a 409 to a re-POST while the first POST is still processing: the row waits, finds its order by key, one order', async () => {
    // The first row's first POST reaches the service, which commits its order 350 ms later, but its
    // answer is lost at once (a reset). The service locks a key while its request runs and answers
    // 409 Conflict to a request under it meanwhile (the Idempotency-Key draft's "a request is
    // outstanding for this key"); the simulator has no such answer, so this client gives it for the
    // service: a POST under a key whose POST is still running is answered 409, not forwarded.
    const service = await startSimulator({ dialect: { racyKeyCheckMs: 350 } }, { timeoutMs: 500 });
    const running = new Set<string>();
    let conflicts = 0;
    let resets = 0;
    const client: ServiceClient = {
      ...service.client,
      createOrder: async (request, opts) => {
        // The queue POSTs the row's frozen body: its key is in it.
        const key = typeof request === 'string' ? String((JSON.parse(request) as { external_reference_id?: unknown }).external_reference_id) : request.externalReferenceId;
        if (running.has(key)) {
          conflicts++;
          return { kind: 'ambiguous', reason: 'status', status: 409, endpoint: 'POST /v1/orders', message: 'the service answered 409 Conflict: a request with this key is still in progress' };
        }
        running.add(key);
        const answered = service.client.createOrder(request, opts).finally(() => running.delete(key));
        if (resets > 0) return answered;
        resets++;
        void answered;
        return { kind: 'ambiguous', reason: 'connection', status: undefined, endpoint: 'POST /v1/orders', message: 'connection reset' };
      },
    };
    const { db } = tempDb();
    const { campaign } = makeCampaign(db, { rows: 3, key: service.key, baseUrl: service.url });
    // Re-POSTed after 1-2 ms, the row would get 409 after 409 while the first POST runs: with the
    // breaker at 4, the run pauses 'circuit-breaker' before the first order is committed.
    const queue = createSendQueue({ db, client, concurrency: 4, breakerThreshold: 4, backoff: { baseMs: 1, capMs: 2 } });

    const result = await queue.run(campaign.id);

    expect(result.stoppedBy).toBe('done');
    expect(result.counts).toMatchObject({ ordered: 3, sending: 0, failed: 0 });
    expectOneOrderPerRow(db, campaign.id, service.account());
    // The reset, then one 409 to the re-POST after the backoff; then the wait and the order found by key.
    expect(conflicts).toBe(1);
    expect(service.account().requests['POST /v1/orders']).toEqual({ 200: 3 });
    expect(result.stats).toMatchObject({ ambiguous: 2, reconciled: 1 });
  });
});
