// The notice a paused campaign raised says only what is still true: it names the campaign, and once
// a follow-up campaign took the failed rows it advised retrying, it says what the pause says now
// (the banner's words) instead of "retry the failed rows, then resume"; once the campaign is no
// longer paused, it goes.
import { describe, expect, it } from 'vitest';
import type { CampaignSummary } from '../../../../shared/contract.ts';
import { connectEvents, createStores, RENDER_INTERVAL_MS } from '../../../../renderer/src/stores/index.ts';
import { fakeApi, ManualClock, ok, settle, summary } from '../helpers/fakes.ts';

const REFUSED =
  'The service refused 3 orders in a row with the same answer: Insufficient balance (HTTP 402 insufficient_funds). ' +
  'Sending paused rather than fail every row; fix the cause with the service (a balance, a product), retry the failed rows, then resume.';
const AFTER_FOLLOW_UP =
  'The service refused 3 orders in a row with the same answer: Insufficient balance (HTTP 402 insufficient_funds). ' +
  'Sending paused rather than fail every row. 3 failed rows went to follow-up campaign "Gala (follow-up)" and are sent from there; ' +
  'fix the cause with the service (a balance, a product), then resume to send the 2 rows still to send here.';

const counts = { invalid: 0, ready: 2, sending: 0, ordered: 3, delivered: 0, failed: 3, cancelled: 0, skipped: 0 };
const paused = summary({ sendState: 'paused', running: false, pausedReason: 'refused', pausedDetail: REFUSED, counts });
const followedUp = summary({
  sendState: 'paused',
  running: false,
  pausedReason: 'refused',
  pausedDetail: AFTER_FOLLOW_UP,
  counts,
  retryable: 0,
  followUpRows: { failed: 0, cancelled: 0, expired: 0 },
  failedFollowedUp: [{ id: 'c2', name: 'Gala (follow-up)', rows: 3 }],
});
const draft = summary({ id: 'c2', name: 'Gala (follow-up)', sendState: 'draft', running: false, counts: { ...counts, ready: 3, ordered: 0, failed: 0 } });

function setup(source: () => CampaignSummary) {
  const clock = new ManualClock();
  const fake = fakeApi({
    'campaigns:get': () => ok(source()),
    'campaigns:rows': () => ok({ rows: [], total: 0 }),
    'campaigns:timeline': () => ok({ buckets: [] }),
    'campaigns:followUp': () => ok(draft),
    'campaigns:send': () => ok(summary({ sendState: 'sending', running: true, counts })),
  });
  const stores = createStores({ api: fake.api, timers: clock, now: clock.now });
  connectEvents(stores, { api: fake.api, timers: clock, now: clock.now });
  const pauses = (): void => {
    fake.emit('campaign:finished', { campaign: paused, message: REFUSED, lookedUp: null });
    clock.advance(RENDER_INTERVAL_MS);
  };
  const notices = () => stores.app.getState().notices.map((n) => ({ kind: n.kind, campaign: n.campaign?.name, text: n.text }));
  return { stores, fake, pauses, notices, clock };
}

describe('the notice of a paused campaign', () => {
  it('names the campaign it is about; a later pause of the same campaign replaces it', () => {
    const { pauses, notices } = setup(() => paused);
    pauses();
    expect(notices()).toEqual([{ kind: 'error', campaign: 'Gala', text: REFUSED }]);
    pauses();
    expect(notices()).toEqual([{ kind: 'error', campaign: 'Gala', text: REFUSED }]);
  });

  it('is replaced by what the campaign’s next run came to (corrected rows sent: only the current notice shows)', () => {
    const { fake, notices, clock } = setup(() => paused);
    const finish = (c: CampaignSummary, message: string): void => {
      fake.emit('campaign:finished', { campaign: c, message, lookedUp: null });
      clock.advance(RENDER_INTERVAL_MS);
    };
    const done = summary({ sendState: 'done', running: false, counts: { ...counts, ready: 0, failed: 0 } });
    finish(done, 'Sending is done: 3 ordered, 0 failed, 2 not sent (they need fixing).');
    finish(summary({ id: 'c2', name: 'Other', sendState: 'done', running: false, counts }), 'Sending is done: 5 ordered.');
    finish(done, 'Sending is done: 2 ordered, 0 failed.');
    expect(notices()).toEqual([
      { kind: 'info', campaign: 'Other', text: 'Sending is done: 5 ordered.' },
      { kind: 'success', campaign: 'Gala', text: 'Sending is done: 2 ordered, 0 failed.' },
    ]);
  });

  it('no longer says to retry the failed rows once a follow-up campaign took them: it says what the pause says now', async () => {
    let source = paused;
    const { stores, pauses, notices } = setup(() => source);
    await stores.campaign.getState().open('c1');
    pauses();
    expect(notices()).toEqual([{ kind: 'error', campaign: 'Gala', text: REFUSED }]);

    // The follow-up takes the three failed rows; the window goes on to review the new draft.
    source = followedUp;
    expect(await stores.campaign.getState().followUp(['failed'])).toEqual(draft);
    await settle();
    expect(notices()).toEqual([{ kind: 'error', campaign: 'Gala', text: AFTER_FOLLOW_UP }]);
    expect(notices().some((n) => n.text.includes('retry the failed rows'))).toBe(false);
    // The banner reads the same words.
    expect(stores.campaign.getState().summary?.pausedDetail).toBe(AFTER_FOLLOW_UP);
  });

  it('follows the campaign as the list reads it too (a follow-up made elsewhere, e.g. by the CLI)', () => {
    const { stores, pauses, notices } = setup(() => paused);
    pauses();
    stores.campaigns.getState().applySummaries([followedUp, draft]);
    expect(notices()).toEqual([{ kind: 'error', campaign: 'Gala', text: AFTER_FOLLOW_UP }]);
  });

  it('goes once the campaign is no longer paused; another campaign\'s summary leaves it be', async () => {
    const { stores, pauses, notices } = setup(() => paused);
    await stores.campaign.getState().open('c1');
    pauses();
    stores.campaigns.getState().applySummaries([draft]);
    expect(notices()).toHaveLength(1);
    // Read again unchanged: it stays, word for word.
    stores.campaigns.getState().applySummaries([paused]);
    expect(notices()).toEqual([{ kind: 'error', campaign: 'Gala', text: REFUSED }]);
    expect(await stores.campaign.getState().resume()).toBe(true);
    expect(notices()).toEqual([]);
  });

  it('a notice of a run that ended is not a pause: a later summary leaves it as it was', () => {
    const clock = new ManualClock();
    const fake = fakeApi({});
    const stores = createStores({ api: fake.api, timers: clock, now: clock.now });
    connectEvents(stores, { api: fake.api, timers: clock, now: clock.now });
    const done = summary({ sendState: 'done', running: false });
    fake.emit('campaign:finished', { campaign: done, message: 'Every row is sent: 8 ordered, 0 failed.', lookedUp: null });
    clock.advance(RENDER_INTERVAL_MS);
    stores.campaigns.getState().applySummaries([{ ...done, sendState: 'sending', running: true }]);
    expect(stores.app.getState().notices.map((n) => [n.kind, n.campaign?.name, n.text])).toEqual([['success', 'Gala', 'Every row is sent: 8 ordered, 0 failed.']]);
  });
});

// Each notice's fade timer restarted whenever a new notice arrived, so good news stayed as long as
// others kept coming. Each fades 10 s after it appeared; an error stays until dismissed.
describe('the fade of a notice', () => {
  function app() {
    const clock = new ManualClock();
    const stores = createStores({ api: fakeApi({}).api, timers: clock, now: clock.now });
    const texts = () => stores.app.getState().notices.map((n) => n.text);
    return { clock, notify: stores.app.getState().notify, texts, stores };
  }

  it('is 10 s after the notice appeared, whatever notices come after it', () => {
    const { clock, notify, texts } = app();
    notify('success', 'Saved the draft.');
    clock.advance(6_000);
    notify('info', 'Checked the orders.');
    clock.advance(4_000);
    expect(texts()).toEqual(['Checked the orders.']);
    clock.advance(5_999);
    expect(texts()).toEqual(['Checked the orders.']);
    clock.advance(1);
    expect(texts()).toEqual([]);
  });

  it('never comes to an error, which stays until dismissed; a notice dismissed or replaced leaves no timer behind', () => {
    const { clock, notify, texts, stores } = app();
    notify('error', 'The service refused the key.');
    notify('success', 'Saved the draft.');
    clock.advance(60_000);
    expect(texts()).toEqual(['The service refused the key.']);
    notify('success', 'Checked the orders.');
    stores.app.getState().dismissNotice(stores.app.getState().notices[1]?.id ?? 0);
    notify('success', { text: 'Sending is done.', campaign: { id: 'c1', name: 'Gala' } });
    notify('success', { text: 'Sending is done again.', campaign: { id: 'c1', name: 'Gala' } });
    expect(clock.timerCount).toBe(1);
  });
});
