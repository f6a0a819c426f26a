// The progress card's figures: "settled" is rows.ts's word (an ordered gift is not settled), and the
// words never read as done while gifts are only ordered.
import { describe, expect, it } from 'vitest';
import { campaignState, giftRows, progressCaption, sentRows } from '../../../../renderer/src/features/campaigns/campaign-state.ts';
import { SETTLED_STATES, isSettled } from '../../../../shared/domain/rows.ts';
import { summary } from '../helpers/fakes.ts';

const counts = (c: Partial<ReturnType<typeof summary>['counts']>) => summary({ counts: { ...summary().counts, ...c } });

describe('campaign progress words', () => {
  it('does not count an ordered gift as settled: it is waiting for delivery', () => {
    expect(isSettled('ordered')).toBe(false);
    expect(SETTLED_STATES.every(isSettled)).toBe(true);
    expect(sentRows(counts({ ordered: 2 }))).toBe(2);
  });

  it('the bar counts the rows its words count: the gift rows, never the skipped ones or those that need fixing', () => {
    const c = counts({ delivered: 1, cancelled: 1, failed: 1, skipped: 1, invalid: 2, ordered: 5, ready: 3 });
    expect(giftRows(c)).toBe(11);
    expect(sentRows(c)).toBe(8);
    // The sample fully delivered, one row skipped: the bar is full, as its words say.
    const delivered = counts({ delivered: 11, skipped: 1 });
    expect([sentRows(delivered), giftRows(delivered)]).toEqual([11, 11]);
    expect(progressCaption(delivered)).toBe('11 of 11 delivered');
  });

  it('says two rows just sent are ordered and waiting for delivery, not done', () => {
    const text = progressCaption(counts({ ordered: 2 }));
    expect(text).toBe('0 of 2 delivered · 2 ordered, waiting for delivery');
    expect(text).not.toMatch(/100%|settled/);
  });

  it('names what is still to send during a send, and only delivered once every gift is', () => {
    expect(progressCaption(counts({ ready: 6, sending: 1, ordered: 2, delivered: 1 }))).toBe(
      '1 of 10 delivered · 2 ordered, waiting for delivery · 7 still to send',
    );
    expect(progressCaption(counts({ delivered: 11, skipped: 1, invalid: 2 }))).toBe('11 of 11 delivered');
    expect(progressCaption(counts({}))).toBe('0 of 0 delivered');
  });

  // S12-C: 20 travel vouchers whose recipients never accepted the link are ordered, but no longer
  // waiting for a delivery that can come; the words said "20 awaiting delivery" beside the banner
  // saying their links expired.
  it('does not count an ordered gift whose recipient link expired as waiting for delivery', () => {
    const expired = summary({ sendState: 'done', running: false, counts: { ...summary().counts, delivered: 274, cancelled: 6, ordered: 20 }, acceptanceExpired: 20 });
    expect(progressCaption(expired)).toBe('274 of 300 delivered · 20 ordered, link expired unaccepted');
    expect(campaignState(expired)).toEqual({ label: 'Finished with problems', tone: 'warn' });
    const some = summary({ sendState: 'done', running: false, counts: { ...summary().counts, delivered: 5, ordered: 4 }, acceptanceExpired: 1 });
    expect(progressCaption(some)).toBe('5 of 9 delivered · 3 ordered, waiting for delivery · 1 ordered, link expired unaccepted');
    expect(campaignState(some)).toEqual({ label: 'Sent, 3 awaiting delivery', tone: 'active' });
  });

  it('a finished campaign with rows corrected since (or failed ones put back) says they are to send, not "Delivered"', () => {
    const corrected = summary({ sendState: 'done', running: false, counts: { ...summary().counts, delivered: 4, ready: 1, invalid: 1 } });
    expect(campaignState(corrected)).toEqual({ label: '1 to send', tone: 'warn' });
    // Corrected and sent but one still needs fixing: delivered, and not every gift.
    expect(campaignState({ ...corrected, counts: { ...corrected.counts, ready: 0 } })).toEqual({ label: 'Delivered, 1 not sent', tone: 'warn' });
    expect(campaignState({ ...corrected, counts: { ...corrected.counts, ready: 0, invalid: 0 } })).toEqual({ label: 'Delivered', tone: 'ok' });
  });

  // S15-W's walk: after a follow-up delivered the failed rows, the list still read "Finished with problems".
  it('a finished campaign whose every failed row a follow-up took says so, not "Finished with problems"', () => {
    const failed = summary({ sendState: 'done', running: false, counts: { ...summary().counts, delivered: 2, failed: 2 } });
    expect(campaignState(failed)).toEqual({ label: 'Finished with problems', tone: 'warn' });
    const taken = { ...failed, retryable: 0, failedFollowedUp: [{ id: 'c2', name: 'Gala (follow-up)', rows: 2 }] };
    expect(campaignState(taken)).toEqual({ label: 'Finished, 2 failed followed up', tone: 'neutral' });
    // Some left to retry, or another problem beside them: still a problem.
    expect(campaignState({ ...taken, retryable: 1 }).label).toBe('Finished with problems');
    expect(campaignState({ ...taken, counts: { ...taken.counts, cancelled: 1 } }).label).toBe('Finished with problems');
    expect(campaignState({ ...taken, acceptanceExpired: 1 }).label).toBe('Finished with problems');
  });
});
