import { describe, expect, it } from 'vitest';
import { createRateLimiter } from '../../../../electron/core/service/rate-limiter.ts';
import { fakeClock } from '../../../support/http-servers.ts';

async function acquireTimes(limiter: ReturnType<typeof createRateLimiter>, clock: ReturnType<typeof fakeClock>, n: number) {
  const start = clock.now();
  const times: number[] = [];
  for (let i = 0; i < n; i += 1) {
    await limiter.acquire();
    times.push(clock.now() - start);
  }
  return times;
}

describe('rate limiter', () => {
  it('lets a burst through at once, then spaces requests at the rate', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ rate: 2, burst: 3, clock });
    const times = await acquireTimes(limiter, clock, 6);
    expect(times.slice(0, 3)).toEqual([0, 0, 0]);
    expect(times.slice(3)).toEqual([500, 1000, 1500]);
    expect(limiter.stats().acquired).toBe(6);
  });

  it('with tickMs, lets requests go in groups once the bucket is dry, at the same average rate', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ rate: 50, burst: 10, tickMs: 200, clock });
    const start = clock.now();
    const done: number[] = [];
    await Promise.all(Array.from({ length: 40 }, () => limiter.acquire().then(() => done.push(clock.now() - start))));
    // The burst at once, then ten every 200 ms (50 a second): one wake-up per group, not per request.
    expect(done).toEqual([0, 200, 400, 600].flatMap((t) => Array<number>(10).fill(t)));
    expect(limiter.stats().group).toBe(10);
  });

  it('with tickMs, a group is never larger than the burst and never smaller than one', async () => {
    const clock = fakeClock();
    const slow = createRateLimiter({ rate: 2, burst: 1, tickMs: 200, clock });
    expect(slow.stats().group).toBe(1);
    expect(await acquireTimes(slow, clock, 3)).toEqual([0, 500, 1000]);
    const capped = createRateLimiter({ rate: 100, burst: 4, tickMs: 200, clock });
    expect(capped.stats().group).toBe(4);
    // After a 429 halves the rate, the groups shrink with it.
    capped.penalize();
    expect(capped.stats().group).toBe(4);
    const halved = createRateLimiter({ rate: 50, burst: 10, tickMs: 200, clock });
    halved.penalize();
    expect(halved.stats().group).toBe(5);
  });

  it('serves concurrent callers one at a time, at the rate', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ rate: 4, burst: 1, clock });
    const start = clock.now();
    const done: number[] = [];
    await Promise.all([0, 1, 2, 3].map(() => limiter.acquire().then(() => done.push(clock.now() - start))));
    expect(done).toEqual([0, 250, 500, 750]);
  });

  it('setRate changes the spacing at run time', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ rate: 1, burst: 1, clock });
    await limiter.acquire();
    limiter.setRate(10);
    const before = clock.now();
    await limiter.acquire();
    // The partial token left from the old rate refills at the new one.
    expect(clock.now() - before).toBe(100);
    expect(limiter.stats().configuredRate).toBe(10);
    expect(() => limiter.setRate(0)).toThrow(RangeError);
  });

  it('pause holds every request until Retry-After has passed, then resumes without a burst', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ rate: 10, burst: 5, clock });
    limiter.pause(3000);
    expect(limiter.stats().pausedUntil).toBe(clock.now() + 3000);
    const times = await acquireTimes(limiter, clock, 3);
    expect(times).toEqual([3000, 3100, 3200]);
    expect(limiter.stats().pausedUntil).toBeNull();
  });

  it('a shorter pause does not cut a longer one short', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ rate: 10, clock });
    limiter.pause(5000);
    limiter.pause(1000);
    const [first] = await acquireTimes(limiter, clock, 1);
    expect(first).toBe(5000);
  });

  it('a pause is capped so a bogus Retry-After cannot stall the app for days', () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ rate: 10, clock, maxPauseMs: 60_000 });
    limiter.pause(3 * 86_400_000);
    expect(limiter.stats().pausedUntil).toBe(clock.now() + 60_000);
  });

  it('penalize halves the rate down to a floor of 0.5 per second', () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ rate: 8, clock });
    limiter.penalize();
    expect(limiter.stats().currentRate).toBe(4);
    for (let i = 0; i < 10; i += 1) {
      clock.advance(1_000);
      limiter.penalize();
    }
    expect(limiter.stats().currentRate).toBe(0.5);
    expect(limiter.stats().penalties).toBe(11);
  });

  it('429s that come back together (requests already in flight) halve the rate once, not once each', () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ rate: 80, clock });
    for (let i = 0; i < 20; i += 1) limiter.penalize();
    expect(limiter.stats().currentRate).toBe(40);
    expect(limiter.stats().penalties).toBe(1);
    clock.advance(1_000);
    limiter.penalize();
    expect(limiter.stats().currentRate).toBe(20);
  });

  it('429s that arrive while the limiter is paused by Retry-After do not lower the rate again', () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ rate: 80, clock });
    limiter.penalize();
    limiter.pause(5_000);
    clock.advance(3_000);
    limiter.penalize();
    expect(limiter.stats().currentRate).toBe(40);
  });

  it('after a penalty the rate recovers by 10% of the configured rate per 10 s, up to the configured rate', () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ rate: 10, clock });
    limiter.penalize();
    expect(limiter.stats().currentRate).toBe(5);
    clock.advance(9_999);
    expect(limiter.stats().currentRate).toBe(5);
    clock.advance(1);
    expect(limiter.stats().currentRate).toBe(6);
    clock.advance(30_000);
    expect(limiter.stats().currentRate).toBeCloseTo(9);
    clock.advance(100_000);
    expect(limiter.stats().currentRate).toBe(10);
  });

  it('a new 429 restarts the recovery clock', () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ rate: 10, clock });
    limiter.penalize();
    clock.advance(9_000);
    limiter.penalize();
    expect(limiter.stats().currentRate).toBe(2.5);
    clock.advance(9_000);
    expect(limiter.stats().currentRate).toBe(2.5);
    clock.advance(1_000);
    expect(limiter.stats().currentRate).toBe(3.5);
  });

  it('a penalized limiter spaces requests at the lowered rate', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ rate: 4, burst: 1, clock });
    await limiter.acquire();
    limiter.penalize();
    const before = clock.now();
    await limiter.acquire();
    expect(clock.now() - before).toBe(500);
  });

  it('the floor never lifts a configured rate below 0.5 per second', () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ rate: 0.2, clock });
    limiter.penalize();
    expect(limiter.stats().currentRate).toBe(0.2);
  });
});
