import { describe, expect, it } from 'vitest';
import type { CallInput } from '../../../../shared/contract.ts';
import { checkNowText, createCampaignStore, giftPerRow, PAGE_SIZE } from '../../../../renderer/src/stores/campaign-store.ts';
import { fakeApi, ManualClock, ok, row, settle, summary } from '../helpers/fakes.ts';

const TOTAL = 1000;
const counts = { invalid: 0, ready: TOTAL, sending: 0, ordered: 0, delivered: 0, failed: 0, cancelled: 0, skipped: 0 };

function setup() {
  const clock = new ManualClock();
  const states = new Map<number, 'ready' | 'ordered'>();
  const fake = fakeApi({
    'campaigns:get': () => ok(summary({ counts })),
    'campaigns:rows': (input: CallInput<'campaigns:rows'>) => {
      const offset = input.offset ?? 0;
      const limit = input.limit ?? 200;
      const all = Array.from({ length: TOTAL }, (_, i) => row(i + 1, { state: states.get(i + 1) ?? 'ready' }));
      const matching = input.states ? all.filter((r) => input.states?.includes(r.state)) : all;
      return ok({ rows: matching.slice(offset, offset + limit), total: matching.length });
    },
    'campaigns:timeline': () => ok({ buckets: [] }),
    'campaigns:send': (input) =>
      input.sameAccount
        ? ok(summary({ id: input.campaignId, sendState: 'sending' }))
        : { ok: false as const, error: { code: 'account-changed' as const, message: 'sent under another API key' } },
    'campaigns:retryFailed': () => ok({ requeued: 3, campaign: summary({ counts: { ...counts, failed: 0 } }) }),
  });
  const store = createCampaignStore({ api: fake.api, timers: clock, now: clock.now });
  return { store, fake, clock, states };
}

const rowCalls = (fake: ReturnType<typeof setup>['fake']) => fake.callsOf('campaigns:rows');

describe('campaign store', () => {
  it('fetches only the pages of rows in view, by offset and limit', async () => {
    const { store, fake } = setup();
    await store.getState().open('c1');
    await settle();
    expect(rowCalls(fake).map((c) => c.offset)).toEqual([0]);
    store.getState().setRange(450, 470);
    await settle();
    expect(rowCalls(fake).map((c) => [c.offset, c.limit])).toEqual([[0, PAGE_SIZE], [400, PAGE_SIZE]]);
    expect(store.getState().rowsByIndex.get(455)?.id).toBe(456);
    expect(store.getState().total).toBe(TOTAL);
  });

  it('on a progress event refreshes only the visible page holding a changed row', async () => {
    const { store, fake, states } = setup();
    await store.getState().open('c1');
    store.getState().setRange(0, 20);
    await settle();
    const before = rowCalls(fake).length;

    // A row on no loaded page: nothing to fetch.
    store.getState().applyProgress(summary({ counts }), [900]);
    await settle();
    expect(rowCalls(fake).length).toBe(before);

    states.set(5, 'ordered');
    store.getState().applyProgress(summary({ counts: { ...counts, ready: TOTAL - 1, ordered: 1 } }), [5]);
    await settle();
    expect(rowCalls(fake).slice(before).map((c) => c.offset)).toEqual([0]);
    expect(store.getState().rowsByIndex.get(4)?.state).toBe('ordered');
    expect(store.getState().summary?.counts.ordered).toBe(1);
  });

  it('ignores progress of another campaign', async () => {
    const { store } = setup();
    await store.getState().open('c1');
    store.getState().applyProgress(summary({ id: 'other', name: 'Other' }), [1]);
    expect(store.getState().summary?.name).toBe('Gala');
  });

  it('a filter starts the window again and passes the states to the engine', async () => {
    const { store, fake, states } = setup();
    states.set(3, 'ordered');
    await store.getState().open('c1');
    await settle();
    store.getState().setFilter({ states: ['ordered'] });
    await settle();
    const last = rowCalls(fake).at(-1);
    expect(last?.states).toEqual(['ordered']);
    expect(store.getState().total).toBe(1);
    expect(store.getState().rowsByIndex.get(0)?.id).toBe(3);
  });

  it('resumes with an explicit confirmation of the totals left to send, and of the account when the key changed', async () => {
    const { store, fake } = setup();
    await store.getState().open('c1');
    expect(await store.getState().resume()).toBe(false);
    expect(store.getState().message?.refusal).toEqual({ text: 'sent under another API key', accountChanged: true, repeats: false });
    expect(await store.getState().resume({ sameAccount: true })).toBe(true);
    const remaining = store.getState().summary?.remaining;
    expect(fake.callsOf('campaigns:send')).toEqual([
      { campaignId: 'c1', confirmed: true, totals: remaining },
      { campaignId: 'c1', confirmed: true, totals: remaining, sameAccount: true },
    ]);
  });

  it('puts failed rows back in one call, says how many and why none is paid twice, and reloads the rows', async () => {
    const { store, fake } = setup();
    await store.getState().open('c1');
    await settle();
    const before = rowCalls(fake).length;
    await store.getState().retryFailed();
    await settle();
    expect(fake.callsOf('campaigns:retryFailed')).toEqual([{ campaignId: 'c1' }]);
    expect(store.getState().message?.text).toMatch(/^3 failed rows are back to send, each under its own reference/);
    expect(store.getState().busy).toBeNull();
    expect(rowCalls(fake).length).toBeGreaterThan(before);
  });

  it('makes a follow-up campaign of the kinds chosen and answers its draft, or says why none was made', async () => {
    const made = summary({ id: 'c2', name: 'Gala (follow-up)', sendState: 'draft' });
    const fake = fakeApi({
      'campaigns:get': () => ok(summary({ counts })),
      'campaigns:rows': () => ok({ rows: [], total: 0 }),
      'campaigns:timeline': () => ok({ buckets: [] }),
      'campaigns:followUp': (input) =>
        input.include.includes('failed')
          ? ok(made)
          : { ok: false as const, error: { code: 'invalid-input' as const, message: '"Gala" has no rows whose order was cancelled' } },
    });
    const clock = new ManualClock();
    const store = createCampaignStore({ api: fake.api, timers: clock, now: clock.now });
    await store.getState().open('c1');
    await settle();
    expect(await store.getState().followUp(['failed', 'expired'], '  Second try  ')).toEqual(made);
    expect(store.getState()).toMatchObject({ busy: null, message: null });
    expect(await store.getState().followUp(['cancelled'], ' ')).toBeNull();
    expect(store.getState().message).toEqual({ kind: 'error', text: '"Gala" has no rows whose order was cancelled' });
    expect(fake.callsOf('campaigns:followUp')).toEqual([
      { campaignId: 'c1', include: ['failed', 'expired'], name: 'Second try' },
      { campaignId: 'c1', include: ['cancelled'] },
    ]);
  });

  it('drops answers for a campaign that is no longer open', async () => {
    const { store } = setup();
    const first = store.getState().open('c1');
    store.getState().close();
    await first;
    await settle();
    expect(store.getState().rowsByIndex.size).toBe(0);
    expect(store.getState().summary).toBeNull();
  });

  it("names each row's gift when its summary says the campaign chooses a gift per row, even one whose rows are all its own product, whatever rows are loaded", async () => {
    const clock = new ManualClock();
    const fake = fakeApi({
      'campaigns:get': (input) => ok(summary({ id: input.campaignId, productId: 7, products: 1, giftPerRow: input.campaignId === 'c1' })),
      'campaigns:rows': () => ok({ rows: [row(1, { productId: 7 })], total: 1 }),
      'campaigns:timeline': () => ok({ buckets: [] }),
    });
    const store = createCampaignStore({ api: fake.api, timers: clock, now: clock.now });
    expect(giftPerRow(store.getState())).toBe(false);
    await store.getState().open('c1');
    await settle();
    expect(giftPerRow(store.getState())).toBe(true);
    await store.getState().open('c2');
    await settle();
    expect(giftPerRow(store.getState())).toBe(false);
  });
});

// "Check now" said "Checked with 4 requests: 3 settled, 0 still waiting.": requests and "settled" are
// the engine's words, not the organiser's (S13-D newcomer walk). Then "3 delivered or cancelled", which
// says neither; now delivered and cancelled apart, as the CLI's poll line (S15-J).
describe('what Check now says', () => {
  const round = { tracked: 4, requests: 4, settled: 4, delivered: 3, cancelled: 1, waiting: 0, expired: 0, error: null, nextCheckInMs: null };
  it("says what changed in the organiser's words: delivered and cancelled apart", () => {
    expect(checkNowText(round)).toBe('Checked with the service: 3 delivered, 1 cancelled since the last check, 0 still waiting.');
  });
  it('names the waiting gifts whose link expired, apart', () => {
    expect(checkNowText({ ...round, tracked: 2, settled: 0, delivered: 0, cancelled: 0, waiting: 2, expired: 2 })).toBe(
      'Checked with the service: 0 delivered, 0 cancelled since the last check, 2 still waiting (2 with an expired link).',
    );
  });
  it('says when the check failed', () => {
    expect(checkNowText({ ...round, error: 'GET /v1/orders: no answer' })).toBe('Check failed: GET /v1/orders: no answer');
  });
});
