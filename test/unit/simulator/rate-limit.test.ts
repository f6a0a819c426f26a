import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../electron/simulator/rate-limit.ts';

describe('simulator rate limiter', () => {
  it('allows a burst, then refuses with the seconds until the next token', () => {
    let t = 0;
    const rl = new RateLimiter(0.5, 2, () => t);
    expect(rl.take('k').allowed).toBe(true);
    expect(rl.take('k').allowed).toBe(true);
    const refused = rl.take('k');
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 2 });
    t += 2000;
    expect(rl.take('k').allowed).toBe(true);
  });

  it('keeps one bucket per key', () => {
    const rl = new RateLimiter(1, 1, () => 0);
    expect(rl.take('a').allowed).toBe(true);
    expect(rl.take('a').allowed).toBe(false);
    expect(rl.take('b').allowed).toBe(true);
  });

  it('a clock stepping back does not mint tokens', () => {
    let t = 10_000;
    const rl = new RateLimiter(1, 1, () => t);
    rl.take('k');
    t = 0;
    expect(rl.take('k').allowed).toBe(false);
  });

  it('rate 0 means unlimited', () => {
    const rl = new RateLimiter(0, undefined, () => 0);
    for (let i = 0; i < 100; i++) expect(rl.take('k').allowed).toBe(true);
  });
});
