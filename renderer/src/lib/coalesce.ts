// Events can arrive faster than a screen should redraw. A coalescer gathers them and hands the
// merged result to `flush` at most once per interval, so the UI renders at most ~10 times a second.
import type { Timers } from '../api/event-socket.ts';

export interface Coalescer<T> {
  push(item: T): void;
  /** Hands over what is pending now (used on teardown and in tests). */
  flushNow(): void;
  cancel(): void;
}

export interface CoalescerOptions<T, A> {
  initial: () => A;
  merge: (acc: A, item: T) => A;
  flush: (acc: A) => void;
  intervalMs: number;
  timers: Timers;
  now: () => number;
}

export function createCoalescer<T, A>(options: CoalescerOptions<T, A>): Coalescer<T> {
  let pending: A | null = null;
  let handle: unknown = null;
  let lastFlush = Number.NEGATIVE_INFINITY;

  const run = (): void => {
    handle = null;
    if (pending === null) return;
    const acc = pending;
    pending = null;
    lastFlush = options.now();
    options.flush(acc);
  };

  return {
    push(item) {
      pending = options.merge(pending ?? options.initial(), item);
      if (handle !== null) return;
      const wait = Math.max(0, lastFlush + options.intervalMs - options.now());
      handle = options.timers.setTimeout(run, wait);
    },
    flushNow() {
      if (handle !== null) options.timers.clearTimeout(handle);
      run();
    },
    cancel() {
      if (handle !== null) options.timers.clearTimeout(handle);
      handle = null;
      pending = null;
    },
  };
}
