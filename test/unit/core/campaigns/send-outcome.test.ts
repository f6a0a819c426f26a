// A refused pause advises retrying the failed rows; once a follow-up campaign took them, the
// campaign's detail says where they went and what resuming still sends, never "retry".
import { describe, expect, it } from 'vitest';
import { doneDetail, pausedDetailNow, refusedDetail, type PauseFacts } from '../../../../electron/core/campaigns/send-outcome.ts';

const stored = refusedDetail(3, 'the order costs USD 10.00 but the balance is USD 0.00 (HTTP 402 INSUFFICIENT_BALANCE)');
const refusal = 'The service refused 3 orders in a row with the same answer: the order costs USD 10.00 but the balance is USD 0.00 (HTTP 402 INSUFFICIENT_BALANCE). ';
const facts = (over: Partial<PauseFacts>): PauseFacts => ({ pausedReason: 'refused', pausedDetail: stored, retryable: 0, left: 0, failedFollowedUp: [], ...over });

describe('pausedDetailNow', () => {
  it('keeps the stored advice while no follow-up took a failed row', () => {
    expect(stored).toBe(`${refusal}Sending paused rather than fail every row; fix the cause with the service (a balance, a product), retry the failed rows, then resume.`);
    expect(pausedDetailNow(facts({ retryable: 3, left: 2 }))).toBe(stored);
  });

  it('says where the failed rows went and that resuming sends the rows still to send', () => {
    expect(pausedDetailNow(facts({ left: 2, failedFollowedUp: [{ name: 'Crew (follow-up)', rows: 3 }] }))).toBe(
      `${refusal}Sending paused rather than fail every row. 3 failed rows went to follow-up campaign "Crew (follow-up)" and are sent from there; ` +
        'fix the cause with the service (a balance, a product), then resume to send the 2 rows still to send here.',
    );
  });

  it('says nothing is left to send when no row waits', () => {
    const text = pausedDetailNow(facts({ failedFollowedUp: [{ name: 'Crew (follow-up)', rows: 1 }] }));
    expect(text).toBe(`${refusal}Sending paused rather than fail every row. One failed row went to follow-up campaign "Crew (follow-up)" and is sent from there; nothing is left to send here.`);
    expect(text).not.toMatch(/retry|resume/i);
  });

  it('asks to retry only the failed rows no follow-up took, naming every follow-up', () => {
    const text = pausedDetailNow(facts({ retryable: 1, left: 4, failedFollowedUp: [{ name: 'A', rows: 2 }, { name: 'B', rows: 1 }, { name: 'C', rows: 1 }] }));
    expect(text).toBe(
      `${refusal}Sending paused rather than fail every row. 4 failed rows went to follow-up campaigns "A", "B" and "C" and are sent from there; ` +
        'fix the cause with the service (a balance, a product), retry the 1 other failed row, then resume.',
    );
  });

  it('leaves every other detail as stored', () => {
    const taken = { failedFollowedUp: [{ name: 'F', rows: 2 }] };
    expect(pausedDetailNow(facts({ ...taken, pausedReason: 'user', pausedDetail: 'Paused from the window.' }))).toBe('Paused from the window.');
    expect(pausedDetailNow(facts({ ...taken, pausedReason: 'refused', pausedDetail: null }))).toBeNull();
    // A refused detail without the advice this code stores (another version's words) is not rewritten.
    expect(pausedDetailNow(facts({ ...taken, pausedDetail: 'The service refused 3 orders.' }))).toBe('The service refused 3 orders.');
    expect(pausedDetailNow(facts({ ...taken, pausedReason: 'circuit-breaker' }))).toBe(stored);
  });
});

describe("a finished run's words", () => {
  const counts = { invalid: 0, ready: 0, sending: 0, ordered: 0, delivered: 0, failed: 0, cancelled: 0, skipped: 0 };
  it('counts ordered (delivered included) and failed rows', () => {
    expect(doneDetail({ ...counts, ordered: 8, delivered: 3, failed: 1 })).toBe('Sending is done: 11 ordered, 1 failed.');
  });
  it('names the rows that were never sent, so "done" never reads as "all sent"', () => {
    expect(doneDetail({ ...counts, ordered: 11, skipped: 1 })).toBe('Sending is done: 11 ordered, 0 failed, 1 skipped.');
    expect(doneDetail({ ...counts, ordered: 9, skipped: 1, invalid: 2 })).toBe('Sending is done: 9 ordered, 0 failed, 1 skipped, 2 not sent (they need fixing).');
  });
  it('says "it needs fixing" of one row, "they need fixing" of several', () => {
    expect(doneDetail({ ...counts, ordered: 5, invalid: 1 })).toBe('Sending is done: 5 ordered, 0 failed, 1 not sent (it needs fixing).');
  });
});
