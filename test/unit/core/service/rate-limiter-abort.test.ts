import { describe, expect, it } from 'vitest';
import type { Clock } from '../../../../electron/core/clock.ts';
import { systemClock } from '../../../../electron/core/clock.ts';
import { createRateLimiter } from '../../../../electron/core/service/rate-limiter.ts';

// A stop (Ctrl-C of `giftbatch poll`, a paused send's lookups, the app closing) must not wait for
// the limiter to give its request a turn: after a 429 with Retry-After that is the whole pause.
// Time here moves only when the test says, so "at once" means at the same virtual instant.

interface SteppedClock extends Clock {
  /** Moves time forward by `ms`, waking each sleeper at its own instant. */
  advance(ms: number): Promise<void>;
  /** Sleeps not yet over (a real clock's live timers). */
  pending(): number;
}

function steppedClock(start = Date.UTC(2030, 0, 1)): SteppedClock {
  let now = start;
  const sleepers: { at: number; wake: () => void }[] = [];
  // Lets everything that can run without time passing run: the limiter yields a macrotask after
  // admitting callers (so they start first), then sleeps again.
  const settle = async () => {
    for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
  };
  return {
    now: () => now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve) => {
        const sleeper = { at: now + Math.max(0, ms), wake: resolve };
        sleepers.push(sleeper);
        // As the system clock does: an aborted sleep ends at once and leaves nothing behind.
        signal?.addEventListener('abort', () => {
          const at = sleepers.indexOf(sleeper);
          if (at >= 0) sleepers.splice(at, 1);
          resolve();
        }, { once: true });
      }),
    pending: () => sleepers.length,
    async advance(ms) {
      const end = now + ms;
      await settle();
      for (;;) {
        sleepers.sort((a, b) => a.at - b.at);
        const next = sleepers[0];
        if (!next || next.at > end) break;
        sleepers.shift();
        now = Math.max(now, next.at);
        next.wake();
        await settle();
      }
      now = end;
      await settle();
    },
  };
}

/** Records when (virtual ms after `start`) each turn came, or that it was refused. */
function track(clock: Clock, start: number, name: string, turn: Promise<void>, log: string[]): Promise<void> {
  return turn.then(
    () => void log.push(`${name} ${clock.now() - start}`),
    (err: unknown) => void log.push(`${name} refused ${clock.now() - start} ${(err as Error).name}`),
  );
}

describe('rate limiter: a waiter whose signal aborts', () => {
  it('during a pause leaves at once, takes no token, and the next waiter gets the first turn at the end of the pause', async () => {
    const clock = steppedClock();
    const limiter = createRateLimiter({ rate: 10, burst: 5, clock });
    const start = clock.now();
    limiter.pause(3000);
    const stop = new AbortController();
    const log: string[] = [];
    const all = [
      track(clock, start, 'A', limiter.acquire(stop.signal), log),
      track(clock, start, 'B', limiter.acquire(), log),
      track(clock, start, 'C', limiter.acquire(), log),
    ];
    await clock.advance(1000);
    expect(limiter.stats().waiting).toBe(3);
    stop.abort();
    await clock.advance(0);
    // The old limiter kept A waiting until 3000, then gave it the first token.
    expect(log).toEqual(['A refused 1000 AbortError']);
    expect(limiter.stats()).toMatchObject({ waiting: 2, acquired: 0 });
    await clock.advance(5000);
    await Promise.all(all);
    // B and C keep their order; B goes when the pause ends (A's turn, not one after it).
    expect(log).toEqual(['A refused 1000 AbortError', 'B 3000', 'C 3100']);
    expect(limiter.stats()).toMatchObject({ waiting: 0, acquired: 2 });
  });

  it('behind others leaves the line; those before and after it are served as if it had never come', async () => {
    const clock = steppedClock();
    const limiter = createRateLimiter({ rate: 10, burst: 5, clock });
    const start = clock.now();
    limiter.pause(2000);
    const stop = new AbortController();
    const log: string[] = [];
    const all = [
      track(clock, start, 'A', limiter.acquire(), log),
      track(clock, start, 'B', limiter.acquire(stop.signal), log),
      track(clock, start, 'C', limiter.acquire(), log),
      track(clock, start, 'D', limiter.acquire(), log),
    ];
    await clock.advance(500);
    stop.abort(new Error('closing'));
    await clock.advance(5000);
    await Promise.all(all);
    expect(log).toEqual(['B refused 500 Error', 'A 2000', 'C 2100', 'D 2200']);
    expect(limiter.stats().acquired).toBe(3);
  });

  it('already aborted when it asks is refused at once, without a token and without joining the line', async () => {
    const clock = steppedClock();
    const limiter = createRateLimiter({ rate: 1, burst: 1, clock });
    const stop = new AbortController();
    stop.abort();
    await expect(limiter.acquire(stop.signal)).rejects.toMatchObject({ name: 'AbortError' });
    expect(limiter.stats()).toMatchObject({ waiting: 0, acquired: 0 });
    // The one token is still there.
    const log: string[] = [];
    await track(clock, clock.now(), 'next', limiter.acquire(), log);
    expect(log).toEqual(['next 0']);
  });

  it('after its turn came changes nothing: the token is taken, the next waiter is paced as usual', async () => {
    const clock = steppedClock();
    const limiter = createRateLimiter({ rate: 4, burst: 1, clock });
    const start = clock.now();
    const stop = new AbortController();
    const log: string[] = [];
    const first = track(clock, start, 'A', limiter.acquire(stop.signal), log);
    const second = track(clock, start, 'B', limiter.acquire(), log);
    await clock.advance(0);
    stop.abort();
    await clock.advance(1000);
    await Promise.all([first, second]);
    expect(log).toEqual(['A 0', 'B 250']);
    expect(limiter.stats().acquired).toBe(2);
  });

  it('while every waiter leaves during a pause, the limiter stays usable and still honours the pause', async () => {
    const clock = steppedClock();
    const limiter = createRateLimiter({ rate: 10, burst: 5, clock });
    const start = clock.now();
    limiter.pause(3000);
    const stop = new AbortController();
    const log: string[] = [];
    const gone = track(clock, start, 'A', limiter.acquire(stop.signal), log);
    await clock.advance(100);
    stop.abort();
    await gone;
    const later = track(clock, start, 'B', limiter.acquire(), log);
    await clock.advance(5000);
    await later;
    expect(log).toEqual(['A refused 100 AbortError', 'B 3000']);
  });

  it('the last waiter leaving cuts the limiter\'s own sleep short: no timer of the pause outlives it', async () => {
    const clock = steppedClock();
    const limiter = createRateLimiter({ rate: 10, burst: 5, clock });
    limiter.pause(60_000);
    const first = new AbortController();
    const second = new AbortController();
    const a = limiter.acquire(first.signal).catch(() => 'refused');
    const b = limiter.acquire(second.signal).catch(() => 'refused');
    await clock.advance(10);
    expect(clock.pending()).toBe(1);
    first.abort();
    await clock.advance(0);
    expect(clock.pending()).toBe(1); // the second still waits for the end of the pause
    second.abort();
    await clock.advance(0);
    expect(await Promise.all([a, b])).toEqual(['refused', 'refused']);
    expect(clock.pending()).toBe(0);
    expect(limiter.stats()).toMatchObject({ waiting: 0, acquired: 0 });
  });
});

describe('system clock sleep', () => {
  it('ends as soon as its signal aborts (or at once when already aborted), else after the time asked', async () => {
    const started = Date.now();
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 20);
    await systemClock.sleep(60_000, stop.signal);
    expect(Date.now() - started).toBeLessThan(2_000);
    await systemClock.sleep(60_000, stop.signal);
    expect(Date.now() - started).toBeLessThan(2_000);
    const plain = Date.now();
    await systemClock.sleep(30, new AbortController().signal);
    expect(Date.now() - plain).toBeGreaterThanOrEqual(25);
  });
});
