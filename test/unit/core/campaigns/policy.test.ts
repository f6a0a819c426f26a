import { describe, expect, it } from 'vitest';
import { CircuitBreaker, backoffDelay, nextPollDelay, rowStateForOrder } from '../../../../electron/core/campaigns/policy.ts';

describe('backoff with full jitter', () => {
  it('stays within [0, min(cap, base·2^attempt)]', () => {
    expect(backoffDelay(0, () => 0.999, { baseMs: 500, capMs: 30_000 })).toBe(499);
    expect(backoffDelay(3, () => 0.999, { baseMs: 500, capMs: 30_000 })).toBe(3996);
    expect(backoffDelay(20, () => 0.999, { baseMs: 500, capMs: 30_000 })).toBe(29_970);
    expect(backoffDelay(5, () => 0, { baseMs: 500 })).toBe(0);
  });
});

describe('the circuit breaker', () => {
  it('trips after the threshold of ambiguous outcomes in a row, and a success resets it', () => {
    const breaker = new CircuitBreaker(3);
    expect(breaker.failure()).toBe(false);
    expect(breaker.failure()).toBe(false);
    breaker.success();
    expect(breaker.failure()).toBe(false);
    expect(breaker.failure()).toBe(false);
    expect(breaker.failure()).toBe(true);
  });
});

describe('the poll schedule', () => {
  it('polls every 30–60 s in the first minutes after a send', () => {
    expect(nextPollDelay(0, () => 0)).toBe(30_000);
    expect(nextPollDelay(4 * 60_000, () => 0.999)).toBeLessThanOrEqual(60_000);
  });
  it('backs off afterwards, to 15 minutes at most', () => {
    expect(nextPollDelay(5 * 60_000, () => 0)).toBe(60_000);
    expect(nextPollDelay(20 * 60_000, () => 0)).toBe(4 * 60_000);
    expect(nextPollDelay(3 * 24 * 3600_000, () => 0)).toBe(15 * 60_000);
  });
});

describe('row state from order statuses', () => {
  it.each([
    ['COMPLETED', 'PENDING', 'ordered'],
    ['COMPLETED', 'COMPLETED', 'delivered'],
    ['COMPLETED', 'CANCELLED', 'cancelled'],
    ['PAYMENT_PENDING', 'PENDING', 'ordered'],
    ['PAYMENT_EXPIRED', 'PENDING', 'cancelled'],
    ['CANCELLED', 'PENDING', 'cancelled'],
    ['SOMETHING_NEW', 'PENDING', 'ordered'],
    ['COMPLETED', 'SOMETHING_NEW', 'ordered'],
  ])('order %s with item %s is %s', (order, item, state) => {
    expect(rowStateForOrder(order, item)).toBe(state);
  });
});
