// The small rules the send queue and the poller live by, as pure functions so they are tested alone.
import type { RowState } from '../../../shared/domain/rows.ts';

/** Exponential backoff with full jitter (AWS architecture blog): random in [0, min(cap, base·2^attempt)]. */
export function backoffDelay(attempt: number, random: () => number, opts: { baseMs?: number; capMs?: number } = {}): number {
  const base = opts.baseMs ?? 500;
  const cap = opts.capMs ?? 30_000;
  const ceiling = Math.min(cap, base * 2 ** Math.max(0, Math.min(attempt, 30)));
  return Math.floor(random() * ceiling);
}

/**
 * Trips after `threshold` ambiguous outcomes in a row (any success resets it): the service is
 * sick, and hammering it risks nothing in money (keys make retries safe) but wastes the day.
 * The campaign pauses itself and says why; the pause survives a restart.
 */
export class CircuitBreaker {
  private consecutive = 0;
  constructor(readonly threshold: number) {}
  success(): void {
    this.consecutive = 0;
  }
  /** Returns true when this failure trips the breaker. */
  failure(): boolean {
    this.consecutive += 1;
    return this.consecutive >= this.threshold;
  }
  get failures(): number {
    return this.consecutive;
  }
}

/**
 * Counts the same definite refusal in a row (same status, and the same code, or message when the
 * service gives no code); any other answer starts over. Returns the count when it reaches `threshold`.
 */
export class RepeatedRefusal {
  private last = '';
  private count = 0;
  constructor(readonly threshold: number) {}
  add(status: number, code: string | undefined, message: string): number | null {
    const key = `${status} ${code ?? message}`;
    this.count = key === this.last ? this.count + 1 : 1;
    this.last = key;
    return this.count >= this.threshold ? this.count : null;
  }
  reset(): void {
    this.last = '';
    this.count = 0;
  }
}

const MINUTE = 60_000;

/**
 * When to poll next (docs/architecture.md, "Polling"): every 30–60 s for the first minutes after a
 * send, then doubling, to 15 minutes at most. `sinceLastSendMs` is how long ago the newest order
 * was placed.
 */
export function nextPollDelay(sinceLastSendMs: number, random: () => number): number {
  if (sinceLastSendMs < 5 * MINUTE) return 30_000 + Math.floor(random() * 30_000);
  const doublings = Math.floor(Math.log2(sinceLastSendMs / (5 * MINUTE)));
  return Math.min(15 * MINUTE, MINUTE * 2 ** doublings);
}

/**
 * The row state an order's statuses put it in. Item COMPLETED is delivered; an order whose payment
 * expired or that was cancelled, or a cancelled item, will never deliver. Anything else, including
 * statuses the spec does not show, keeps the row `ordered` (tracked, not guessed).
 */
export function rowStateForOrder(orderStatus: string | undefined, itemStatus: string | undefined): Extract<RowState, 'ordered' | 'delivered' | 'cancelled'> {
  if (orderStatus === 'PAYMENT_EXPIRED' || orderStatus === 'CANCELLED' || itemStatus === 'CANCELLED') return 'cancelled';
  if (itemStatus === 'COMPLETED' && (orderStatus === undefined || orderStatus === 'COMPLETED')) return 'delivered';
  return 'ordered';
}
