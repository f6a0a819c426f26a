// The send queue against the real simulator over HTTP and a real SQLite file. Each test tries to
// break one rule of docs/architecture.md ("Sending, and why a gift is never paid twice"). Fakes
// only for time and injected faults.

import { describe, expect, it } from 'vitest';
import { createSendQueue, type SendProgress, type SendQueueOptions } from '../../../../electron/core/campaigns/send-queue.ts';
import { getCampaign } from '../../../../electron/core/db/repos/campaigns.ts';
import { listEvents } from '../../../support/events.ts';
import { getRecipientByExternalReferenceId, getRecipient } from '../../../../electron/core/db/repos/recipients.ts';
import type { Db } from '../../../../electron/core/db/open.ts';
import type { Outcome, ServiceClient } from '../../../../electron/core/service/index.ts';
import type { Order } from '../../../../electron/core/service/types.ts';
import type { SimulatorOptions } from '../../../../electron/simulator/index.ts';
import {
  allRows,
  expectOneOrderPerRow,
  fakeClock,
  makeCampaign,
  startRecordingProxy,
  startSimulator,
  tempDb,
  type ClientOptions,
  type MakeCampaignOptions,
  type TestService,
} from '../../../support/index.ts';

interface Setup {
  sim?: SimulatorOptions;
  client?: ClientOptions;
  campaign?: Partial<MakeCampaignOptions>;
  queue?: Partial<SendQueueOptions>;
  wrap?: (client: ServiceClient, service: TestService, db: Db) => ServiceClient;
  /** Give the queue the client's limiter, as the app does: the queue then takes each POST's token itself. */
  withLimiter?: boolean;
}

async function setup(o: Setup = {}) {
  const service = await startSimulator(o.sim ?? {}, o.client ?? {});
  const store = tempDb();
  const made = makeCampaign(store.db, { rows: 10, key: service.key, baseUrl: service.url, ...o.campaign });
  const client = o.wrap ? o.wrap(service.client, service, store.db) : service.client;
  const queue = createSendQueue({
    db: store.db,
    client,
    concurrency: 4,
    backoff: { baseMs: 5, capMs: 40 },
    ...(o.withLimiter ? { limiter: service.limiter } : {}),
    ...o.queue,
  });
  return { ...service, ...store, ...made, queue, campaignId: made.campaign.id };
}

/** A client that lets a test act around createOrder; every other call goes straight through. */
function aroundCreateOrder(
  inner: ServiceClient,
  around: (body: string, callThrough: () => Promise<Outcome<Order>>) => Promise<Outcome<Order>>,
): ServiceClient {
  return {
    ...inner,
    createOrder: (request, opts) => {
      if (typeof request !== 'string') throw new Error('the queue must send the frozen bytes, not a request object');
      return around(request, () => inner.createOrder(request, opts));
    },
  };
}

const keyOf = (body: string): string => (JSON.parse(body) as { external_reference_id: string }).external_reference_id;

describe('sending a campaign', () => {
  it('orders every ready row exactly once, records what the service charged, and marks the campaign done', async () => {
    const progress: SendProgress[] = [];
    const t = await setup({ campaign: { rows: 25, productSlug: 'us-range' } });
    const result = await t.queue.run(t.campaignId, { onProgress: (p) => progress.push(p) });

    expect(result.stoppedBy).toBe('done');
    expect(result.sendState).toBe('done');
    expect(result.counts.ordered).toBe(25);
    expect(result.stats).toMatchObject({ sent: 25, ordered: 25, failed: 0, attempts: 25, retries: 0 });
    expect(getCampaign(t.db, t.campaignId)?.sendState).toBe('done');
    expectOneOrderPerRow(t.db, t.campaignId, t.account());
    // A range product carries the row's amount as custom_amount; the price matches the row.
    for (const order of t.account().orders) {
      const row = getRecipientByExternalReferenceId(t.db, order.externalReferenceId ?? '');
      expect(order.price.minor).toBe(row?.amountMinor);
    }
    expect(progress.at(-1)?.phase).toBe('finished');
    expect(progress.at(-1)?.counts.ordered).toBe(25);
  });

  it('logs one event per row transition: sending then ordered', async () => {
    const t = await setup({ campaign: { rows: 5 } });
    await t.queue.run(t.campaignId);
    for (const id of t.rowIds) {
      expect(listEvents(t.db, t.campaignId, { recipientId: id }).map((e) => e.kind)).toEqual(['sending', 'ordered']);
    }
    const campaignKinds = listEvents(t.db, t.campaignId).filter((e) => e.recipientId === null).map((e) => e.kind);
    expect(campaignKinds).toEqual(['imported', 'started', 'done']);
  });

  it('sends the row message, or else the campaign message, with the sender and recipient of the row', async () => {
    const t = await setup({ campaign: { rows: 2, row: (i) => (i === 0 ? { message: 'Just for you' } : {}) } });
    const proxy = await startRecordingProxy(t.url);
    const viaProxy = t.makeClient({ baseUrl: proxy.url }).client;
    await createSendQueue({ db: t.db, client: viaProxy, concurrency: 1 }).run(t.campaignId);
    const [first, second] = allRows(t.db, t.campaignId);
    const bodies = [first, second].map((r) => JSON.parse(proxy.postsFor(r?.externalReferenceId ?? '')[0] ?? '{}') as Record<string, unknown>);
    expect(bodies[0]).toEqual({
      item: { id: t.productId },
      delivery: { method: 'EMAIL', recipient: { name: 'Recipient 0', email: 'r0@example.com' }, sender: { name: 'Event Team' } },
      message: 'Just for you',
      external_reference_id: first?.externalReferenceId,
    });
    expect(bodies[1]?.message).toBe('Thank you for coming!');
    expect(bodies[1]).not.toHaveProperty('custom_amount');
  });

  it.each([
    ['the client takes the tokens', false],
    ['the queue takes the tokens and commits intents in groups', true],
  ])('commits the row as sending, with its frozen body, before the POST leaves (%s)', async (_how, withLimiter) => {
    const seen: { state: string | undefined; stored: string | null | undefined; sent: string }[] = [];
    const t = await setup({
      campaign: { rows: 12 },
      client: { rate: 200, burst: 4, tickMs: 20 },
      queue: { concurrency: 8 },
      withLimiter,
      wrap: (inner, _service, db) =>
        aroundCreateOrder(inner, (body, callThrough) => {
          // Read through a second connection: only a committed transaction is visible there.
          const other = tempOther ?? db;
          const row = getRecipientByExternalReferenceId(other, keyOf(body));
          seen.push({ state: row?.state, stored: row?.requestBody, sent: body });
          return callThrough();
        }),
    });
    const tempOther: Db | undefined = t.connect();
    await t.queue.run(t.campaignId);
    expect(seen).toHaveLength(12);
    for (const s of seen) {
      expect(s.state).toBe('sending');
      expect(s.stored).toBe(s.sent);
    }
  });
});

describe('definite rejections and ambiguous outcomes', () => {
  it('fails a row whose amount the service rejects (422), keeping the service message, and orders the rest', async () => {
    const t = await setup({ campaign: { rows: 4, productSlug: 'us-range', amountMinor: (i) => (i === 2 ? 60_000 : 1_000) } });
    const result = await t.queue.run(t.campaignId);
    const rows = allRows(t.db, t.campaignId);
    expect(rows.map((r) => r.state)).toEqual(['ordered', 'ordered', 'failed', 'ordered']);
    expect(rows[2]?.lastError).toContain("custom_amount 600 is above the product's max_amount");
    expect(rows[2]?.lastError).toContain('AMOUNT_OUT_OF_RANGE');
    expect(result.stoppedBy).toBe('done');
    expect(result.stats.failed).toBe(1);
    expect(t.account().orders).toHaveLength(3);
  });

  it('fails rows the balance cannot pay for (402) with the service message', async () => {
    const t = await setup({ campaign: { rows: 5, productSlug: 'us-fixed-10' }, queue: { concurrency: 1 } });
    t.sim.setAccount(t.key, { balance: '30.00' });
    await t.queue.run(t.campaignId);
    const rows = allRows(t.db, t.campaignId);
    expect(rows.map((r) => r.state)).toEqual(['ordered', 'ordered', 'ordered', 'failed', 'failed']);
    expect(rows[3]?.lastError).toContain('but the balance is');
    expect(rows[3]?.lastError).toContain('HTTP 402 INSUFFICIENT_BALANCE');
  });

  it('never fails a row on ambiguous outcomes: 500s leave rows sending, and a later run orders each once', async () => {
    const t = await setup({
      sim: { faults: { seed: 3, error500BeforeCommit: 0.5, resetAfterCommit: 0.3, truncate: 0.2 } },
      campaign: { rows: 8 },
      queue: { breakerThreshold: 1_000, maxAttemptsPerRun: 2 },
    });
    t.sim.setFaults({ error500BeforeCommit: 1, resetAfterCommit: 0, truncate: 0 });
    const first = await t.queue.run(t.campaignId);
    expect(first.stoppedBy).toBe('attempts');
    expect(first.counts.failed).toBe(0);
    expect(first.counts.sending).toBe(8);
    expect(getCampaign(t.db, t.campaignId)?.sendState).toBe('paused');
    for (const row of allRows(t.db, t.campaignId)) {
      expect(row.attempts).toBe(2);
      expect(row.lastError).toContain('HTTP 500');
    }

    t.sim.setFaults({ error500BeforeCommit: 0.3, resetAfterCommit: 0.3, truncate: 0.3 });
    const second = await createSendQueue({ db: t.db, client: t.client, backoff: { baseMs: 1, capMs: 10 }, breakerThreshold: 1_000 }).run(t.campaignId);
    expect(second.stoppedBy).toBe('done');
    expectOneOrderPerRow(t.db, t.campaignId, t.account());
  });

  it('a POST with no clear answer (a 500 before the commit) is retried with the same external_reference_id and a byte-identical body', async () => {
    const service = await startSimulator({ faults: { seed: 1, error500BeforeCommit: 1 } });
    const proxy = await startRecordingProxy(service.url);
    const { db } = tempDb();
    const { campaign } = makeCampaign(db, { rows: 1, productSlug: 'us-range', key: service.key });
    let calls = 0;
    const client = aroundCreateOrder(service.makeClient({ baseUrl: proxy.url }).client, async (_body, callThrough) => {
      const outcome = await callThrough();
      // The first attempt got a 500 (nothing made): let the retry through.
      if (++calls === 1) service.sim.setFaults({ error500BeforeCommit: 0 });
      return outcome;
    });
    const result = await createSendQueue({ db, client, backoff: { baseMs: 1, capMs: 5 } }).run(campaign.id);

    const [row] = allRows(db, campaign.id);
    if (!row) throw new Error('no row');
    const posts = proxy.postsFor(row.externalReferenceId);
    expect(posts).toHaveLength(2);
    expect(posts[1]).toBe(posts[0]);
    expect(posts[0]).toBe(row.requestBody);
    expect(row).toMatchObject({ state: 'ordered', attempts: 2 });
    expect(result.stats).toMatchObject({ ambiguous: 1, retries: 1 });
    expect(listEvents(db, campaign.id, { recipientId: row.id }).map((e) => e.kind)).toEqual(['sending', 'ambiguous', 'retried', 'ordered']);
    expectOneOrderPerRow(db, campaign.id, service.account());
  });

  it('a timeout after the POST (the order was made): the row waits a request timeout, is looked up by key, and its order is recorded without a second POST', async () => {
    const service = await startSimulator({ faults: { seed: 1, slow: 1, slowMs: 400 } });
    const proxy = await startRecordingProxy(service.url);
    const { db } = tempDb();
    const { campaign } = makeCampaign(db, { rows: 1, productSlug: 'us-range', key: service.key });
    const client = service.makeClient({ baseUrl: proxy.url, timeoutMs: 150 }).client;
    const started = Date.now();
    const result = await createSendQueue({ db, client, backoff: { baseMs: 1, capMs: 5 } }).run(campaign.id);

    const [row] = allRows(db, campaign.id);
    if (!row) throw new Error('no row');
    expect(proxy.postsFor(row.externalReferenceId)).toEqual([row.requestBody]);
    expect(proxy.requests.map((r) => `${r.method} ${r.path.split('?')[0] ?? ''}`)).toEqual(['POST /v1/orders', 'GET /v1/orders']);
    // The timeout (150 ms), then a wait of as long again before the lookup.
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(row).toMatchObject({ state: 'ordered', attempts: 1 });
    expect(result.stats).toMatchObject({ attempts: 1, ambiguous: 1, retries: 0, reconciled: 1 });
    expect(listEvents(db, campaign.id, { recipientId: row.id }).map((e) => e.kind)).toEqual(['sending', 'ambiguous', 'reconciled']);
    expectOneOrderPerRow(db, campaign.id, service.account());
  });
});

describe('rejections after an unclear attempt', () => {
  it('a 4xx after an attempt with no clear answer is checked by key first: the order made by that attempt is recorded, not failed', async () => {
    let calls = 0;
    const t = await setup({
      sim: { faults: { seed: 4, resetAfterCommit: 1 } },
      campaign: { rows: 1 },
      wrap: (inner, service) =>
        aroundCreateOrder(inner, async (_body, callThrough) => {
          if (++calls === 1) {
            const outcome = await callThrough(); // made, then the connection is reset
            service.sim.setFaults({ resetAfterCommit: 0 });
            return outcome;
          }
          // The injected fault: a service that checks the balance before the key.
          return { kind: 'rejected', status: 402, code: 'INSUFFICIENT_BALANCE', message: 'balance too low', body: '', endpoint: 'POST /v1/orders' };
        }),
    });
    const result = await t.queue.run(t.campaignId);
    expect(result.stoppedBy).toBe('done');
    expect(result.counts).toMatchObject({ ordered: 1, failed: 0 });
    expectOneOrderPerRow(t.db, t.campaignId, t.account());
    const [row] = allRows(t.db, t.campaignId);
    expect(listEvents(t.db, t.campaignId, { recipientId: row?.id }).map((e) => e.kind)).toEqual(['sending', 'ambiguous', 'retried', 'reconciled']);
  });

  it('a 4xx after an unclear attempt fails the row when the lookup shows no order under its key', async () => {
    let calls = 0;
    const t = await setup({
      sim: { faults: { seed: 4, error500BeforeCommit: 1 } },
      campaign: { rows: 1 },
      wrap: (inner, service) =>
        aroundCreateOrder(inner, async (_body, callThrough) => {
          if (++calls === 1) {
            const outcome = await callThrough(); // 500, nothing made
            service.sim.setFaults({ error500BeforeCommit: 0 });
            service.sim.setAccount(service.key, { balance: '1.00' });
            return outcome;
          }
          return callThrough();
        }),
    });
    const result = await t.queue.run(t.campaignId);
    expect(result.counts).toMatchObject({ ordered: 0, failed: 1 });
    expect(allRows(t.db, t.campaignId)[0]?.lastError).toContain('HTTP 402 INSUFFICIENT_BALANCE');
  });
});

describe('rows that cannot be sent, and runs that overlap', () => {
  it('a row that cannot become an order stays ready, is never sent, and the campaign pauses naming its line', async () => {
    const t = await setup({ campaign: { rows: 3, row: (i) => (i === 1 ? { amountMinor: 9_900 } : {}) } });
    const result = await t.queue.run(t.campaignId);
    expect(result.stoppedBy).toBe('preflight');
    expect(result.counts).toMatchObject({ ordered: 2, ready: 1, sending: 0 });
    expect(result.message).toContain('Row on line 3 asks for 99.00 USD, but the product has the fixed price 25.00 USD');
    expect(getCampaign(t.db, t.campaignId)).toMatchObject({ sendState: 'paused', pausedReason: 'preflight' });
    expect(t.account().orders).toHaveLength(2);
  });

  it('a second run of the same campaign while one is under way joins it instead of sending twice', async () => {
    const t = await setup({ sim: { latencyMs: 10 }, campaign: { rows: 10 } });
    const [a, b] = await Promise.all([t.queue.run(t.campaignId), t.queue.run(t.campaignId)]);
    expect(b).toBe(a);
    expect(t.queue.running()).toEqual([]);
    expectOneOrderPerRow(t.db, t.campaignId, t.account());
    expect(t.account().requests['POST /v1/orders']?.['200']).toBe(10);
  });
});

describe('stopping', () => {
  it('pauses the campaign after N ambiguous outcomes in a row, says why, keeps the pause across a reopen, and fails no row', async () => {
    const t = await setup({
      sim: { faults: { seed: 5, error500BeforeCommit: 1 } },
      campaign: { rows: 30 },
      queue: { concurrency: 2, breakerThreshold: 8 },
    });
    const result = await t.queue.run(t.campaignId);

    expect(result.stoppedBy).toBe('circuit-breaker');
    expect(result.stats.ambiguous).toBeGreaterThanOrEqual(8);
    expect(result.stats.ambiguous).toBeLessThanOrEqual(8 + 2); // in-flight attempts finish, nothing new starts
    expect(result.counts.failed).toBe(0);
    expect(result.counts.ready).toBeGreaterThan(0);
    expect(t.account().orders).toHaveLength(0);

    const reopened = t.reopen();
    const campaign = getCampaign(reopened, t.campaignId);
    expect(campaign?.sendState).toBe('paused');
    expect(campaign?.pausedReason).toBe('circuit-breaker');
    expect(campaign?.pausedDetail).toBe(
      '8 requests in a row got no clear answer (last: server error (HTTP 500) on POST /v1/orders). Sending paused; press Resume when the service is back.',
    );
    expect(allRows(reopened, t.campaignId).filter((r) => r.state === 'failed')).toEqual([]);
  });

  it('a rejected API key (401) stops the run and pauses the campaign saying so; the right key finishes it with one order per row', async () => {
    const t = await setup({ sim: { keys: ['good_key_1'] }, client: { key: 'good_key_1' }, campaign: { rows: 10, key: 'good_key_1' } });
    const wrong = t.makeClient({ key: 'wrong_key_1' }).client;
    const result = await createSendQueue({ db: t.db, client: wrong, concurrency: 3 }).run(t.campaignId);

    expect(result.stoppedBy).toBe('auth');
    expect(result.message).toContain('rejected the API key');
    const campaign = getCampaign(t.db, t.campaignId);
    expect(campaign?.sendState).toBe('paused');
    expect(campaign?.pausedDetail).toContain('Set the key for this environment again, then press Resume');
    expect(result.counts.failed).toBe(0);
    expect(result.counts.sending).toBeLessThanOrEqual(3);
    expect(result.counts.sending + result.counts.ready).toBe(10);

    const resumed = await t.queue.run(t.campaignId);
    expect(resumed.stoppedBy).toBe('done');
    expectOneOrderPerRow(t.db, t.campaignId, t.account('good_key_1'));
  });

  it('a pause (signal) stops taking rows, records the outcome of every POST in flight, and pauses the campaign', async () => {
    const controller = new AbortController();
    let calls = 0;
    const t = await setup({
      sim: { latencyMs: 40 },
      campaign: { rows: 40 },
      queue: { concurrency: 4 },
      wrap: (inner) =>
        aroundCreateOrder(inner, (_body, callThrough) => {
          if (++calls === 6) controller.abort();
          return callThrough();
        }),
    });
    const result = await t.queue.run(t.campaignId, { signal: controller.signal });

    expect(result.stoppedBy).toBe('user');
    expect(getCampaign(t.db, t.campaignId)).toMatchObject({ sendState: 'paused', pausedReason: 'user' });
    // Every POST that left has its answer recorded; nothing is left half-done.
    expect(result.counts.sending).toBe(0);
    expect(result.counts.ordered).toBe(calls);
    expect(calls).toBeLessThanOrEqual(6 + 3);
    expect(result.counts.ready).toBe(40 - calls);
    expect(t.account().orders).toHaveLength(calls);
  });

  it('with the limiter, a row waiting for its token is still ready: a pause then leaves it ready, and every row sent is ordered', async () => {
    const controller = new AbortController();
    let calls = 0;
    const t = await setup({
      sim: { latencyMs: 30 },
      campaign: { rows: 30 },
      client: { rate: 20, burst: 1 },
      queue: { concurrency: 8 },
      withLimiter: true,
      wrap: (inner, _service, db) =>
        aroundCreateOrder(inner, (_body, callThrough) => {
          if (++calls === 3) {
            // Eight rows are taken, only those with a token are past ready: the rows still waiting
            // for theirs are untouched (an order answered may not be committed yet: still sending).
            const states = allRows(db, t.campaignId).map((r) => r.state);
            expect(states.filter((s) => s === 'sending' || s === 'ordered')).toHaveLength(3);
            expect(states.filter((s) => s === 'ready')).toHaveLength(27);
            controller.abort();
          }
          return callThrough();
        }),
    });
    const result = await t.queue.run(t.campaignId, { signal: controller.signal });
    expect(result.stoppedBy).toBe('user');
    expect(calls).toBe(3);
    expect(result.counts).toMatchObject({ ordered: 3, sending: 0, ready: 27 });
    expect(t.account().orders).toHaveLength(3);
  });

  it('a pause while the limiter holds every request (a long Retry-After) ends the run at once, every row still ready', async () => {
    const controller = new AbortController();
    const t = await setup({ campaign: { rows: 5 }, withLimiter: true });
    t.limiter.pause(10 * 60_000);
    const started = Date.now();
    setTimeout(() => controller.abort(), 50);
    const result = await t.queue.run(t.campaignId, { signal: controller.signal });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.stoppedBy).toBe('user');
    expect(result.counts).toMatchObject({ ready: 5, sending: 0, ordered: 0 });
    expect(t.sim.audit().accounts[t.key]).toBeUndefined();
  });

  it('an already aborted signal sends nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    const t = await setup({ campaign: { rows: 3 } });
    const result = await t.queue.run(t.campaignId, { signal: controller.signal });
    expect(result.stoppedBy).toBe('user');
    expect(result.counts.ready).toBe(3);
    expect(t.sim.audit().accounts[t.key]).toBeUndefined();
  });
});

describe('rate limits', () => {
  it('a rate-limited row waits at least the Retry-After before its next attempt (fake clock)', async () => {
    const clock = fakeClock();
    const timeline = new Map<string, { at: number; kind: string }[]>();
    const t = await setup({
      campaign: { rows: 3 },
      queue: { clock },
      wrap: (inner) =>
        aroundCreateOrder(inner, async (body, callThrough) => {
          const key = keyOf(body);
          const seen = timeline.get(key) ?? [];
          timeline.set(key, seen);
          if (seen.length === 0) {
            // The injected fault: the first POST of each row is told to come back in 5 s.
            seen.push({ at: clock.now(), kind: 'rate-limited' });
            return { kind: 'rate-limited', status: 429, retryAfterMs: 5_000, endpoint: 'POST /v1/orders', message: 'POST /v1/orders: slow down' };
          }
          seen.push({ at: clock.now(), kind: 'sent' });
          return callThrough();
        }),
    });
    const result = await t.queue.run(t.campaignId);
    expect(result.stoppedBy).toBe('done');
    expect(result.stats.rateLimited).toBe(3);
    for (const [, seen] of timeline) {
      expect(seen.map((s) => s.kind)).toEqual(['rate-limited', 'sent']);
      expect((seen[1]?.at ?? 0) - (seen[0]?.at ?? 0)).toBeGreaterThanOrEqual(5_000);
    }
    expectOneOrderPerRow(t.db, t.campaignId, t.account());
  });

  it('429s from the simulator are waited out and retried under the same key, never counted as failures', async () => {
    const t = await setup({
      sim: { rateLimit: 20, rateBurst: 2, retryAfterFormat: 'seconds' },
      client: { rate: 200, burst: 20 },
      campaign: { rows: 12 },
      queue: { breakerThreshold: 2 },
    });
    const result = await t.queue.run(t.campaignId);
    expect(result.stats.rateLimited).toBeGreaterThan(0);
    expect(result.stoppedBy).toBe('done');
    expectOneOrderPerRow(t.db, t.campaignId, t.account());
    const limited = allRows(t.db, t.campaignId).find((r) => r.attempts > 1);
    expect(limited && getRecipient(t.db, limited.id)?.state).toBe('ordered');
  });
});
