import { describe, expect, it } from 'vitest';
import { connectEvents, createStores, finishedNoticeKind, RENDER_INTERVAL_MS } from '../../../../renderer/src/stores/index.ts';
import { fakeApi, ManualClock, ok, summary } from '../helpers/fakes.ts';

describe('events into the stores', () => {
  it('coalesces a burst of progress events into one store update with the newest summary and every changed row', () => {
    const clock = new ManualClock();
    const fake = fakeApi({ 'campaigns:list': () => ok({ campaigns: [] }) });
    const stores = createStores({ api: fake.api, timers: clock, now: clock.now });
    connectEvents(stores, { api: fake.api, timers: clock, now: clock.now });
    let updates = 0;
    stores.campaigns.subscribe(() => updates++);

    for (let i = 1; i <= 100; i++) {
      fake.emit('campaign:progress', { campaign: summary({ counts: { ...summary().counts, ordered: i } }), changedRowIds: [i] });
    }
    expect(updates).toBe(0);
    clock.advance(RENDER_INTERVAL_MS);
    expect(updates).toBe(1);
    expect(stores.campaigns.getState().campaigns[0]?.counts.ordered).toBe(100);
  });

  it('a finished campaign becomes a notice with the engine\'s message', () => {
    const clock = new ManualClock();
    const fake = fakeApi({});
    const stores = createStores({ api: fake.api, timers: clock, now: clock.now });
    connectEvents(stores, { api: fake.api, timers: clock, now: clock.now });
    fake.emit('campaign:finished', { campaign: summary({ sendState: 'done' }), message: 'Every row is sent.', lookedUp: null });
    clock.advance(RENDER_INTERVAL_MS);
    expect(stores.app.getState().notices.map((n) => n.text)).toEqual(['Every row is sent.']);
    expect(stores.campaigns.getState().campaigns[0]?.sendState).toBe('done');
  });

  it('a run the engine stopped on a problem is announced as an error that stays; good news as success', () => {
    const clock = new ManualClock();
    const fake = fakeApi({});
    const stores = createStores({ api: fake.api, timers: clock, now: clock.now });
    connectEvents(stores, { api: fake.api, timers: clock, now: clock.now });
    const detail = 'Line 2, order 900001: the service issued USD 5.00 for a USD 11.50 gift. Sending paused …';
    fake.emit('campaign:finished', { campaign: summary({ sendState: 'paused', pausedReason: 'mismatch', pausedDetail: detail, flagged: 1 }), message: detail, lookedUp: null });
    clock.advance(RENDER_INTERVAL_MS);
    expect(stores.app.getState().notices.map((n) => [n.kind, n.text])).toEqual([['error', detail]]);

    expect(finishedNoticeKind(summary({ sendState: 'done' }))).toBe('success');
    expect(finishedNoticeKind(summary({ sendState: 'paused', pausedReason: 'user' }))).toBe('info');
    expect(finishedNoticeKind(summary({ sendState: 'paused', pausedReason: 'auth' }))).toBe('error');
    expect(finishedNoticeKind(summary({ sendState: 'done', counts: { ...summary().counts, failed: 1 } }))).toBe('info');
  });
});
