// One token bucket per environment, shared by sending and polling: every request counts
// against the same service-side limit, whatever part of the app makes it.

import type { Clock } from '../clock.ts';

export interface RateLimiterOptions {
  /** Requests per second the user configured. */
  rate: number;
  /** How many requests may go out back to back after a quiet spell. */
  burst?: number;
  /**
   * Once the bucket is empty, wait until this long's worth of tokens has accrued (rate × tickMs,
   * at least 1, at most `burst`) and let them go together. The average rate is the same; the
   * process wakes (and commits, and reads answers) once per group instead of once per request,
   * which is most of the CPU a request costs. 0 (the default) paces one request at a time.
   */
  tickMs?: number;
  clock: Clock;
  /** The rate never drops below this after 429s (or below `rate`, when that is lower). */
  minRate?: number;
  /** Share of the configured rate regained per `recoveryIntervalMs` without a 429. */
  recoveryFraction?: number;
  recoveryIntervalMs?: number;
  /** 429s within this long of the last penalty count as the same overload (default 1 s). */
  penaltyWindowMs?: number;
  /** The longest pause a Retry-After may impose: a bogus date must not stall the app for days. */
  maxPauseMs?: number;
}

export interface RateLimiterStats {
  configuredRate: number;
  currentRate: number;
  burst: number;
  /** Epoch ms until which no request may leave, or null when not paused. */
  pausedUntil: number | null;
  acquired: number;
  penalties: number;
  waiting: number;
  /** How many requests leave together once the bucket has run dry (see `tickMs`). */
  group: number;
}

export interface RateLimiter {
  /**
   * Resolves when the caller may send one request. Callers are served first come, first served.
   * When `signal` aborts before the caller's turn, the wait ends at once (rejected with the signal's
   * reason), no token is taken for it, and the callers behind it keep their order and are not held up.
   */
  acquire(signal?: AbortSignal): Promise<void>;
  setRate(rate: number, burst?: number): void;
  /** No request leaves for `ms` (the service's Retry-After). */
  pause(ms: number): void;
  /** The service said we were too fast: halve the rate, then recover slowly. */
  penalize(): void;
  stats(): RateLimiterStats;
}

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { clock } = options;
  const minRate = options.minRate ?? 0.5;
  const recoveryFraction = options.recoveryFraction ?? 0.1;
  const recoveryIntervalMs = options.recoveryIntervalMs ?? 10_000;
  const maxPauseMs = options.maxPauseMs ?? 15 * 60_000;

  const tickMs = Math.max(0, options.tickMs ?? 0);
  let configuredRate = checkRate(options.rate);
  let burst = checkBurst(options.burst ?? 1);
  let currentRate = configuredRate;
  let tokens = burst;
  let lastRefill = clock.now();
  let pausedUntil = 0;
  let lastStep = clock.now();
  let acquired = 0;
  let penalties = 0;
  // The callers waiting for their turn, first come first served; one loop (`serve`) hands out the
  // tokens, so a caller that leaves the line (its signal aborted) is simply taken out of it.
  const line: Waiter[] = [];
  let serving = false;
  let lastPenalty = -Infinity;
  const penaltyWindowMs = options.penaltyWindowMs ?? 1000;

  function group(): number {
    return Math.min(burst, Math.max(1, Math.floor((currentRate * tickMs) / 1000)));
  }

  function floorRate(): number {
    return Math.min(minRate, configuredRate);
  }

  function refresh(): void {
    const now = clock.now();
    if (now > lastRefill) {
      tokens = Math.min(burst, tokens + ((now - lastRefill) / 1000) * currentRate);
      lastRefill = now;
    }
    if (currentRate < configuredRate) {
      const steps = Math.floor((now - lastStep) / recoveryIntervalMs);
      if (steps > 0) {
        currentRate = Math.min(configuredRate, currentRate + steps * recoveryFraction * configuredRate);
        lastStep += steps * recoveryIntervalMs;
      }
    } else {
      lastStep = now;
    }
  }

  // Hands out the turns while anyone waits. Its sleep is cut short when the last waiter leaves (its
  // signal aborted), so no timer of a long pause outlives everyone who was waiting for it.
  let wake: AbortController | null = null;
  /** Someone was given a turn since the last sleep. */
  let admitted = false;
  async function serve(): Promise<void> {
    if (serving) return;
    serving = true;
    const sleep = async (ms: number): Promise<void> => {
      // The callers just admitted run first (every pending promise step goes before a macrotask), so
      // each starts its request at the time it was admitted, also under a clock that moves on sleep.
      if (admitted) await new Promise<void>((resolve) => setImmediate(resolve));
      admitted = false;
      if (line.length === 0) return;
      wake = new AbortController();
      await clock.sleep(ms, wake.signal);
      wake = null;
    };
    try {
      while (line.length > 0) {
        refresh();
        const now = clock.now();
        if (now < pausedUntil) {
          await sleep(pausedUntil - now);
          continue;
        }
        if (tokens >= 1) {
          tokens -= 1;
          acquired += 1;
          (line.shift() as Waiter).admit();
          admitted = true;
          continue;
        }
        await sleep(Math.max(1, Math.ceil(((group() - tokens) / currentRate) * 1000)));
      }
    } catch (err) {
      // A clock that fails leaves no one waiting forever.
      for (const waiter of line.splice(0)) waiter.refuse(err);
    } finally {
      wake = null;
      serving = false;
    }
  }

  return {
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(abortReason(signal));
      return new Promise<void>((resolve, reject) => {
        const onAbort = (): void => {
          const at = line.indexOf(waiter);
          if (at < 0) return;
          line.splice(at, 1);
          if (line.length === 0) wake?.abort();
          reject(abortReason(signal as AbortSignal));
        };
        const waiter: Waiter = {
          admit: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
          refuse: (err) => {
            signal?.removeEventListener('abort', onAbort);
            reject(err instanceof Error ? err : new Error(String(err)));
          },
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        line.push(waiter);
        void serve();
      });
    },
    setRate(rate, newBurst) {
      refresh();
      const next = checkRate(rate);
      // Keep how far a 429 has pushed us below the configured rate, at the new scale.
      const share = currentRate / configuredRate;
      configuredRate = next;
      if (newBurst !== undefined) burst = checkBurst(newBurst);
      currentRate = Math.min(Math.max(next * share, floorRate()), configuredRate);
      tokens = Math.min(tokens, burst);
    },
    pause(ms) {
      if (!Number.isFinite(ms) || ms <= 0) return;
      const until = clock.now() + Math.min(ms, maxPauseMs);
      if (until <= pausedUntil) return;
      pausedUntil = until;
      // Resume gently: one request at the end of the pause, then the rate, never a full burst.
      tokens = 1;
      lastRefill = until;
    },
    penalize() {
      refresh();
      const now = clock.now();
      // The requests already in flight when the first 429 came back report the same overload:
      // halve once per window, not once per answer, or a burst of 429s drives the rate to the floor.
      if (now < pausedUntil || now - lastPenalty < penaltyWindowMs) return;
      lastPenalty = now;
      penalties += 1;
      currentRate = Math.max(floorRate(), currentRate / 2);
      tokens = Math.min(tokens, 1);
      lastStep = clock.now();
    },
    stats() {
      refresh();
      return {
        configuredRate,
        currentRate,
        burst,
        pausedUntil: pausedUntil > clock.now() ? pausedUntil : null,
        acquired,
        penalties,
        waiting: line.length,
        group: group(),
      };
    },
  };
}

interface Waiter {
  admit(): void;
  refuse(err: unknown): void;
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException('The wait for a request turn was cancelled.', 'AbortError');
}

function checkRate(rate: number): number {
  if (!Number.isFinite(rate) || rate <= 0) {
    throw new RangeError(`The request rate must be a positive number of requests per second (got ${rate}).`);
  }
  return rate;
}

function checkBurst(burst: number): number {
  if (!Number.isInteger(burst) || burst < 1) {
    throw new RangeError(`The burst must be a whole number of at least 1 (got ${burst}).`);
  }
  return burst;
}
