// Per-key token bucket: `rate` tokens a second, up to `burst` saved. Time comes from the
// simulator's clock so tests can refill a bucket without waiting.

export interface RateDecision {
  allowed: boolean;
  /** When refused: whole seconds until a token is available (at least 1). */
  retryAfterSeconds: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly burst: number;

  constructor(
    private readonly rate: number,
    burst: number | undefined,
    private readonly now: () => number,
  ) {
    if (!Number.isFinite(rate) || rate < 0) throw new Error(`rate limit must be a non-negative number, got ${rate}`);
    this.burst = burst ?? Math.max(1, Math.ceil(rate));
    if (!Number.isFinite(this.burst) || this.burst < 1) throw new Error(`rate burst must be at least 1, got ${burst}`);
  }

  get enabled(): boolean {
    return this.rate > 0;
  }

  take(key: string): RateDecision {
    if (!this.enabled) return { allowed: true, retryAfterSeconds: 0 };
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    // A clock that steps back (an injected test clock) must not mint tokens.
    const elapsed = Math.max(0, now - bucket.at) / 1000;
    bucket.tokens = Math.min(this.burst, bucket.tokens + elapsed * this.rate);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, retryAfterSeconds: 0 };
    }
    const wait = (1 - bucket.tokens) / this.rate;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(wait)) };
  }
}
