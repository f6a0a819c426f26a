// A clock whose time moves only when someone sleeps: a 30-second back-off takes no real time, and
// tests can read exactly when (in virtual time) each thing happened.

import type { Clock } from '../../electron/core/clock.ts';

export interface FakeClock extends Clock {
  /** Moves time forward without anyone sleeping. */
  advance(ms: number): void;
  /** Every sleep asked for, in order. */
  readonly sleeps: number[];
}

export function fakeClock(start = Date.UTC(2026, 0, 15, 9, 0, 0)): FakeClock {
  let now = start;
  const sleeps: number[] = [];
  return {
    now: () => now,
    sleeps,
    advance(ms) {
      now += Math.max(0, ms);
    },
    sleep(ms) {
      sleeps.push(ms);
      now += Math.max(0, ms);
      // Yield to I/O so real sockets (the simulator) keep moving while virtual time runs.
      return new Promise((resolve) => setImmediate(resolve));
    },
  };
}
