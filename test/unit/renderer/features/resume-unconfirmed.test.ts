// A campaign paused 'unconfirmed' (rows left mid-send whose empty lookup by key proves nothing): the
// Resume dialog says what to look up at the service first and offers "Send them again", whose tick
// is what sends them (campaigns:send resendUnconfirmed); other pauses show no such choice.
// Server-rendered markup and the store's flags, no browser needed.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { RESEND_UNCONFIRMED_STEP } from '../../../../shared/domain/campaigns.ts';
import { ResumeDialog, resumeLabel, resumeSendCount, unticked } from '../../../../renderer/src/features/campaign/ResumeDialog.tsx';
import { campaignState } from '../../../../renderer/src/features/campaigns/campaign-state.ts';
import { resumeFlags } from '../../../../renderer/src/stores/campaigns-store.ts';
import { fakeApi, ManualClock, ok, row, summary } from '../helpers/fakes.ts';
import { createStores } from '../../../../renderer/src/stores/index.ts';
import { HeldRow, heldMore, showsHeldRows } from '../../../../renderer/src/features/campaign/HeldRows.tsx';
import { HELD_SHOWN } from '../../../../renderer/src/stores/campaign-store.ts';

const counts = { invalid: 0, ready: 0, sending: 1, ordered: 3, delivered: 0, failed: 0, cancelled: 0, skipped: 0 };
const dialog = (pausedReason: 'unconfirmed' | 'user', heldRows = pausedReason === 'unconfirmed' ? 1 : 0, sending = counts.sending) =>
  renderToStaticMarkup(
    createElement(ResumeDialog, {
      campaign: summary({ sendState: 'paused', pausedReason, running: false, counts: { ...counts, sending }, heldRows }),
      onConfirm: async () => null,
      onClose: () => undefined,
    }),
  );

describe('resuming a campaign paused unconfirmed', () => {
  it('offers "Send them again", named as the pause detail names it, unticked', () => {
    const html = dialog('unconfirmed');
    expect(html).toContain('data-testid="resume-unconfirmed"');
    expect(html).toContain('Look each one up in the service&#x27;s own records first;');
    expect(html).toMatch(/<input type="checkbox"\/>Send them again: I found no order at the service/);
    expect(RESEND_UNCONFIRMED_STEP).toContain('"Send them again"');
    // Nothing but the held row is left: unticked, Resume sends nothing and only looks it up again.
    expect(html).toContain('Unticked, they are looked up at the service again and keep waiting; nothing else is left to send.');
    expect(html).toContain('Resume: look them up again');
    expect(html).not.toContain('Resume: send 1');
    expect(html).not.toContain('so none is ordered twice');
    // No face value to state (the fake summary's remaining is empty): no "worth nothing".
    expect(html).not.toContain('worth');
    expect(html).toMatch(/left to send in “[^”]+”\./);
  });

  it('counts on the Resume button only the gifts it sends: held rows only once "Send them again" is ticked', () => {
    const paused = summary({ sendState: 'paused', pausedReason: 'unconfirmed', running: false, counts: { ...counts, ready: 2 }, heldRows: 1 });
    expect(resumeSendCount(paused, false)).toBe(2);
    expect(resumeSendCount(paused, true)).toBe(3);
    expect(resumeLabel(resumeSendCount(paused, false))).toBe('Resume: send 2');
    expect(unticked(2)).toBe('Unticked, they keep waiting and only the other rows are sent.');
    // Rows mid-send that are not held (the engine's heldRows) are looked up and sent on, counted.
    expect(resumeSendCount({ ...paused, counts: { ...counts, ready: 2, sending: 3 } }, false)).toBe(4);
    // Another pause (none held): rows mid-send are looked up and sent on, all counted.
    expect(resumeSendCount({ counts: paused.counts, heldRows: 0 }, false)).toBe(3);
  });

  it('shows no such choice for another pause with no row held', () => {
    expect(dialog('user')).not.toContain('resume-unconfirmed');
    expect(dialog('user')).toContain('1 was being sent when it stopped');
  });

  it('offers it for rows held in a run that then paused for another reason (the person paused it, the breaker tripped)', () => {
    // 3 rows mid-send, 1 of them held: the held one is offered, the other 2 are looked up and sent on.
    const html = dialog('user', 1, 3);
    expect(html).toContain('data-testid="resume-unconfirmed"');
    expect(html).toContain('2 were being sent when it stopped');
    expect(html).toContain('Resume: send 2');
  });

  it('sends the flag only when ticked; the list says what the campaign waits for', () => {
    expect(resumeFlags({ resendUnconfirmed: true })).toEqual({ resendUnconfirmed: true });
    expect(resumeFlags({ resendUnconfirmed: false })).toEqual({});
    expect(campaignState(summary({ sendState: 'paused', pausedReason: 'unconfirmed', running: false, counts }))).toEqual({
      label: 'Paused: rows to check at the service',
      tone: 'bad',
    });
  });
});

describe('the rows held for a person, under the paused notice', () => {
  it('shows for a paused campaign with rows held and no run, whatever paused it', () => {
    const paused = summary({ sendState: 'paused', pausedReason: 'unconfirmed', running: false, counts, heldRows: 1 });
    expect(showsHeldRows(paused)).toBe(true);
    expect(showsHeldRows({ ...paused, running: true })).toBe(false);
    // Held in a run that the person (or the circuit breaker) then paused: still theirs to look up.
    expect(showsHeldRows({ ...paused, pausedReason: 'user' })).toBe(true);
    expect(showsHeldRows({ ...paused, pausedReason: 'circuit-breaker' })).toBe(true);
    expect(showsHeldRows({ ...paused, heldRows: 0 })).toBe(false);
    expect(showsHeldRows({ ...paused, sendState: 'sending' })).toBe(false);
  });

  it('lists each with its reference and a field for the order number found at the service', () => {
    const held = row(3, { line: 3, state: 'sending', name: 'Bo Chen', email: 'bo@example.com', externalReferenceId: 'gb-HELD', heldAt: 1_700_000_000_000 });
    const html = renderToStaticMarkup(createElement(HeldRow, { row: held, disabled: false, onRecord: async () => true }));
    expect(html).toContain('Line 3: Bo Chen');
    expect(html).toContain('gb-HELD');
    expect(html).toContain('Order number found at the service for line 3');
    // Nothing typed yet: nothing to record.
    expect(html).toMatch(/<button type="submit" class="button-small" disabled="" data-testid="held-record">Record its order<\/button>/);
  });

  it('asks the engine for the held rows only (its held filter) and says how many more there are than it lists', async () => {
    const held = [row(3, { line: 3, state: 'sending', heldAt: 1_700_000_000_000 })];
    const calls = fakeApi({ 'campaigns:rows': () => ok({ rows: held, total: 250 }) });
    const clock = new ManualClock();
    const s = createStores({ api: calls.api, timers: clock, now: clock.now });
    s.campaign.setState({ id: 'c_1' });
    await s.campaign.getState().loadHeld();
    expect(calls.callsOf('campaigns:rows')).toEqual([{ campaignId: 'c_1', held: true, offset: 0, limit: HELD_SHOWN }]);
    expect(s.campaign.getState()).toMatchObject({ held, heldTotal: 250 });
    expect(heldMore(249)).toBe('…and 249 more rows are held, to look up the same way: each appears here as one above is recorded.');
    expect(heldMore(1)).toContain('…and 1 more row is held');
  });

  it('records through rows:recordOrder and says what was recorded', async () => {
    const calls = fakeApi({
      'rows:recordOrder': () => ok(row(3, { line: 3, state: 'ordered', orderId: 900_007, charged: { currency: 'USD', amount: '25.00' } })),
      'campaigns:get': () => ok(summary({ sendState: 'done', running: false })),
      'campaigns:rows': () => ok({ rows: [], total: 0 }),
      'campaigns:timeline': () => ok({ buckets: [] }),
    });
    const clock = new ManualClock();
    const s = createStores({ api: calls.api, timers: clock, now: clock.now });
    s.campaign.setState({ id: 'c_1' });
    expect(await s.campaign.getState().recordOrder(3, 900_007)).toBe(true);
    expect(calls.callsOf('rows:recordOrder')[0]).toEqual({ rowId: 3, orderId: 900_007 });
    expect(s.campaign.getState().message).toEqual({ kind: 'success', text: 'Line 3: order 900007 recorded as its order, charged USD 25.00.' });
  });
});
