import { describe, expect, it } from 'vitest';
import { FirstOrders, type Job } from '../../../../electron/core/campaigns/send-work.ts';
import type { SendRow } from '../../../../electron/core/db/repos/recipients.ts';

// Send rule 6's bookkeeping: a product's first order goes alone, its other rows wait for its checked answer.
const job = (id: number): Job => ({ row: { id } as SendRow, uncertain: false, attempts: 0, ambiguousStreak: 0, fresh: true });
const FIXED = 1;
const RANGE = 2;

describe('FirstOrders', () => {
  it("holds a product's rows while its first order is unanswered, and lets them go once it is checked", () => {
    const firsts = new FirstOrders();
    const [a, b, c, d] = [job(1), job(2), job(3), job(4)];
    expect(firsts.anyChecked).toBe(false);
    expect(firsts.admit(RANGE, a)).toBe('first');
    firsts.started(RANGE, a);
    expect(firsts.admit(RANGE, b)).toBe('held');
    expect(firsts.admit(RANGE, c)).toBe('held');
    // Another product's first is not held by this one.
    expect(firsts.admit(FIXED, d)).toBe('first');
    expect(firsts.waitingRows).toBe(2);
    expect(firsts.takeReleased()).toBeUndefined();

    firsts.check(RANGE);
    expect(firsts.anyChecked).toBe(true);
    expect(firsts.isChecked(RANGE)).toBe(true);
    expect([firsts.takeReleased(), firsts.takeReleased(), firsts.takeReleased()]).toEqual([b, c, undefined]);
    expect(firsts.waitingRows).toBe(0);
    expect(firsts.admit(RANGE, job(5))).toBe('go');
  });

  it('keeps holding through the first order\'s retries: its own retry is still the first, the others wait', () => {
    const firsts = new FirstOrders();
    const [a, b] = [job(1), job(2)];
    firsts.started(RANGE, a);
    expect(firsts.admit(RANGE, b)).toBe('held');
    firsts.ended(RANGE, true); // no clear answer: waiting for its retry
    expect(firsts.takeReleased()).toBeUndefined();
    expect(firsts.admit(RANGE, a)).toBe('first');
    expect(firsts.admit(RANGE, job(3))).toBe('held');
    expect(firsts.waitingRows).toBe(2);
  });

  it('makes the next row the first when the first order ends unchecked (refused, nothing made)', () => {
    const firsts = new FirstOrders();
    const [a, b, c] = [job(1), job(2), job(3)];
    firsts.started(RANGE, a);
    firsts.admit(RANGE, b);
    firsts.admit(RANGE, c);
    firsts.ended(RANGE, false);
    expect(firsts.isChecked(RANGE)).toBe(false);
    const next = firsts.takeReleased()!;
    expect(next).toBe(b);
    expect(firsts.admit(RANGE, next)).toBe('first');
    firsts.started(RANGE, next);
    // c was released too; taken again, it waits for b.
    expect(firsts.admit(RANGE, firsts.takeReleased()!)).toBe('held');
    expect(firsts.waitingRows).toBe(1);
  });

  it('does not release a checked product twice when its first order\'s attempt ends after the check', () => {
    const firsts = new FirstOrders();
    const [a, b] = [job(1), job(2)];
    firsts.started(RANGE, a);
    firsts.admit(RANGE, b);
    firsts.check(RANGE);
    firsts.ended(RANGE, false);
    expect([firsts.takeReleased(), firsts.takeReleased()]).toEqual([b, undefined]);
  });
});
