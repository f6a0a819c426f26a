// Send rule 6 (docs/architecture.md, "Sending, and why a gift is never paid twice"): the first order
// of every PRODUCT goes alone, and the others wait until its answer is checked against what it
// asked, so a service that reads our request for one product differently (a range product's
// custom_amount, the simulator's item-custom-amount dialect) costs one wrong gift, in a file of
// several gifts too (commit 6c604c5; before it only the run's first order went alone). The engine's
// own test of it; test/integration/cli/tiered-follow-up-dialects.test.ts covers it through the CLI.
// Real parts: a SQLite file, the simulator over HTTP. Fakes only for faults: the simulator's own,
// switched on for one POST. What was in flight is read from the queue's POSTs, placed on a clock of
// starts and ends (test/support/two-products.ts watchPosts), not from wall time.

import { describe, expect, it } from 'vitest';
import { createSendQueue, type SendQueueOptions } from '../../../../electron/core/campaigns/send-queue.ts';
import { getCampaign } from '../../../../electron/core/db/repos/campaigns.ts';
import { DIALECTS, type SimulatorOptions } from '../../../../electron/simulator/index.ts';
import { allRows, expectOneOrderPerRow, makeCampaign, startSimulator, tempDb } from '../../../support/index.ts';
import { makeTwoProductCampaign, rangeAmountMinor, watchPosts, type Layout, type PostWatch, type WatchedPost } from '../../../support/two-products.ts';

const FIXED_ROWS = 10;
const RANGE_ROWS = 10;

type Mode = 'concurrency 8' | 'auto with the limiter (as the app)';
const queueOptions = (mode: Mode, limiter: SendQueueOptions['limiter']): Partial<SendQueueOptions> =>
  mode === 'concurrency 8' ? { concurrency: 8 } : { concurrency: 'auto', maxConcurrency: 8, ...(limiter ? { limiter } : {}) };

interface Setup {
  layout: Layout;
  mode?: Mode;
  sim?: SimulatorOptions;
  around?: Parameters<typeof watchPosts>[1];
  queue?: Partial<SendQueueOptions>;
}

async function setup(o: Setup) {
  // A little latency so that orders do overlap when the queue lets them.
  const service = await startSimulator({ latencyMs: 15, ...o.sim });
  const store = tempDb();
  const made = makeTwoProductCampaign(store.db, { key: service.key, baseUrl: service.url, fixedRows: FIXED_ROWS, rangeRows: RANGE_ROWS, layout: o.layout });
  const watch = watchPosts(service.client, o.around);
  const queue = createSendQueue({
    db: store.db,
    client: watch.client,
    backoff: { baseMs: 5, capMs: 40 },
    ...queueOptions(o.mode ?? 'concurrency 8', service.limiter),
    ...o.queue,
  });
  return { ...service, ...store, ...made, watch, queue, campaignId: made.campaign.id };
}

/** `post` started with nothing in flight, and nothing started until it was answered. */
function expectAlone(watch: PostWatch, post: WatchedPost | undefined, what: string): void {
  expect(post, `${what} was sent`).toBeDefined();
  if (!post) return;
  expect(post.inFlightAtStart, `POSTs in flight when ${what} left`).toBe(0);
  expect(watch.overlapping(post).map((p) => p.key), `POSTs in flight while ${what} was`).toEqual([]);
}

describe('the first order of every product goes alone', () => {
  it.each([
    ['interleaved', 'concurrency 8'],
    ['fixed-first', 'concurrency 8'],
    ['interleaved', 'auto with the limiter (as the app)'],
    ['fixed-first', 'auto with the limiter (as the app)'],
  ] as const)('rows %s, %s: nothing else is in flight while each product\'s first order is, and every row is ordered once', async (layout, mode) => {
    const t = await setup({ layout, mode });
    const result = await t.queue.run(t.campaignId);

    expect(result.stoppedBy).toBe('done');
    expectOneOrderPerRow(t.db, t.campaignId, t.account());
    expectAlone(t.watch, t.watch.firstOf(t.fixedId), 'the fixed product\'s first order');
    expectAlone(t.watch, t.watch.firstOf(t.rangeId), 'the range product\'s first order');
    // Not vacuous: the rest did go several at once.
    expect(t.watch.maxInFlight()).toBeGreaterThan(1);
    expect(t.watch.posts).toHaveLength(FIXED_ROWS + RANGE_ROWS);
  });
});

describe('a service that misreads the range product (item-custom-amount) costs one wrong gift', () => {
  it.each([
    // The fixed product's first order, then the range product's, each alone: nothing else was sent.
    ['interleaved', 1],
    // Every fixed row first (several at once once the first is checked), then the range one alone.
    ['fixed-first', FIXED_ROWS],
  ] as const)('rows %s: the run stops at the range product\'s first order, the other rows untouched; each resume risks one more', async (layout, fixedOrdered) => {
    const t = await setup({ layout, sim: { dialect: DIALECTS['item-custom-amount'] } });
    const ranges = () => t.account().orders.filter((o) => o.productId === t.rangeId);
    const fixeds = () => t.account().orders.filter((o) => o.productId === t.fixedId);
    const rangeRows = allRows(t.db, t.campaignId).filter((r) => r.productId === t.rangeId);
    const [firstRange, secondRange] = rangeRows;
    if (!firstRange || !secondRange) throw new Error('no range rows');

    const result = await t.queue.run(t.campaignId);
    expect(result.stoppedBy).toBe('mismatch');
    expect(getCampaign(t.db, t.campaignId)).toMatchObject({ sendState: 'paused', pausedReason: 'mismatch' });
    expect(result.message).toContain(`Line ${firstRange.line},`);
    expect(result.message).toContain('the service issued USD 5.00 for a USD 11.50 gift');
    // One wrong gift at the service: the range product's first row's, issued at the minimum.
    expect(ranges().map((o) => [o.externalReferenceId, o.price.amount])).toEqual([[firstRange.externalReferenceId, '5.00']]);
    // The fixed orders sent before it are right.
    expect(fixeds()).toHaveLength(fixedOrdered);
    expect(fixeds().every((o) => o.price.amount === '25.00')).toBe(true);
    expectAlone(t.watch, t.watch.firstOf(t.rangeId), 'the range product\'s first order');

    // The flagged row keeps both values; every row not ordered is still ready and was never sent.
    const after = allRows(t.db, t.campaignId);
    expect(after.find((r) => r.id === firstRange.id)).toMatchObject({
      state: 'ordered',
      issued: { text: '5', currency: 'USD' },
      findings: [expect.objectContaining({ kind: 'mismatch', field: 'amount', asked: 'USD 11.50', stated: 'USD 5.00' })],
    });
    const notOrdered = after.filter((r) => r.state !== 'ordered');
    expect(notOrdered).toHaveLength(FIXED_ROWS + RANGE_ROWS - fixedOrdered - 1);
    for (const row of notOrdered) expect(row, `line ${row.line}`).toMatchObject({ state: 'ready', orderId: null, requestBody: null, attempts: 0 });
    expect(t.account().orders).toHaveLength(fixedOrdered + 1);

    // A resume (the person's act) is a new run: the range product's next row goes alone and is
    // checked first, so it costs one more wrong gift at most, named, and the campaign pauses again.
    const again = await t.queue.run(t.campaignId);
    expect(again.stoppedBy).toBe('mismatch');
    expect(again.message).toContain(`Line ${secondRange.line},`);
    expect(again.message).toContain(`the service issued USD 5.00 for a USD ${(rangeAmountMinor(1) / 100).toFixed(2)} gift`);
    expect(getCampaign(t.db, t.campaignId)).toMatchObject({ sendState: 'paused', pausedReason: 'mismatch' });
    expect(ranges().map((o) => o.externalReferenceId)).toEqual([firstRange.externalReferenceId, secondRange.externalReferenceId]);
    const rangesLeft = allRows(t.db, t.campaignId).filter((r) => r.productId === t.rangeId && r.state !== 'ordered');
    expect(rangesLeft).toHaveLength(RANGE_ROWS - 2);
    for (const row of rangesLeft) expect(row, `line ${row.line}`).toMatchObject({ state: 'ready', orderId: null, attempts: 0 });
  });
});

describe('a first order that gets no clear answer', () => {
  const FAULTS = [
    ['a 503 (nothing made)', { error503: 1 }, 'rate-limited'],
    ['a reset after the order was made', { resetAfterCommit: 1 }, 'ambiguous'],
  ] as const;

  /** The simulator's own fault, on the range product's first POST only; retries 100 ms later (fixed jitter). */
  async function faultOnFirstRange(fault: (typeof FAULTS)[number][1], sim: SimulatorOptions = {}) {
    let injected = false;
    const t = await setup({
      layout: 'fixed-first',
      sim,
      queue: { backoff: { baseMs: 200, capMs: 200 }, random: () => 0.5 },
      around: async (post, callThrough) => {
        if (injected || post.productId !== t.rangeId) return callThrough();
        injected = true;
        t.sim.setFaults(fault);
        try {
          return await callThrough();
        } finally {
          t.sim.setFaults({ error503: 0, resetAfterCommit: 0 });
        }
      },
    });
    const result = await t.queue.run(t.campaignId);
    const first = t.watch.firstOf(t.rangeId);
    if (!first) throw new Error('no range order was sent');
    const tries = t.watch.posts.filter((p) => p.key === first.key);
    return { ...t, result, first, tries };
  }

  it.each(FAULTS)('the range product\'s first order hit by %s goes alone, is retried under its key, and every row is ordered once', async (_what, fault, outcome) => {
    const t = await faultOnFirstRange(fault);
    expect(t.result.stoppedBy).toBe('done');
    expectOneOrderPerRow(t.db, t.campaignId, t.account());
    expect(t.tries.map((p) => p.outcome)).toEqual([outcome, 'ok']);
    expectAlone(t.watch, t.first, 'the range product\'s first order');
  });

  // Found by this test (the rule first only held a product's rows while its first order was in
  // flight): a first order waiting for its retry now holds its product's other rows until its answer
  // is checked (FirstOrders in send-work.ts).
  it.each(FAULTS)('the range product\'s other rows wait for its first order\'s checked answer after %s', async (_what, fault) => {
    const t = await faultOnFirstRange(fault);
    const checked = t.tries.find((p) => p.outcome === 'ok')?.end ?? Number.POSITIVE_INFINITY;
    const early = t.watch.posts.filter((p) => p.productId === t.rangeId && p.key !== t.first.key && p.start < checked);
    expect(early.map((p) => p.key), 'range rows sent before its first order was answered and checked').toEqual([]);
  });

  it('under item-custom-amount, a reset on the range product\'s first order (made, answer lost) costs one wrong gift, not two', async () => {
    const t = await faultOnFirstRange({ resetAfterCommit: 1 }, { dialect: DIALECTS['item-custom-amount'] });
    expect(t.result.stoppedBy).toBe('mismatch');
    // Before: the first range row's order (made, its answer lost) and the next range row's, sent
    // alone meanwhile and found wrong: two gifts issued at USD 5.00.
    expect(t.account().orders.filter((o) => o.productId === t.rangeId)).toHaveLength(1);
  });
});

describe('no throughput lost', () => {
  it.each(['concurrency 8', 'auto with the limiter (as the app)'] as const)('a campaign of one product goes several at once after its first order (%s)', async (mode) => {
    const service = await startSimulator({ latencyMs: 15 });
    const { db } = tempDb();
    const { campaign } = makeCampaign(db, { rows: 30, productSlug: 'us-range', key: service.key, baseUrl: service.url });
    const watch = watchPosts(service.client);
    const result = await createSendQueue({ db, client: watch.client, ...queueOptions(mode, service.limiter) }).run(campaign.id);

    expect(result.stoppedBy).toBe('done');
    expectOneOrderPerRow(db, campaign.id, service.account());
    expectAlone(watch, watch.posts[0], 'the first order');
    if (mode === 'concurrency 8') expect(watch.maxInFlight()).toBe(8);
    else expect(watch.maxInFlight()).toBeGreaterThan(1);
  });
});
