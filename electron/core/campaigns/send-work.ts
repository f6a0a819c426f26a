// The send queue's bookkeeping: a row's place in a run, where the next row comes from, rows waiting
// for a retry, and the signal that wakes the loop. No I/O but the batch reads of ready rows.
import type { Db } from '../db/open.ts';
import { listReadyToSend, type SendRow } from '../db/repos/recipients.ts';

const READY_BATCH = 64;

/** One row's place in this run. */
export interface Job {
  readonly row: SendRow;
  /** Sent before (this run or an earlier one) without a clear answer: an order may exist. */
  uncertain: boolean;
  /** Attempts in this run, and ambiguous ones in a row (for the backoff). */
  attempts: number;
  ambiguousStreak: number;
  fresh: boolean;
}

/** Resolves the loop's wait when a task ends, a stop is asked, or the signal fires. */
export class WakeSignal {
  private resolve: (() => void) | null = null;
  private pending = false;
  fire(): void {
    this.pending = true;
    const resolve = this.resolve;
    this.resolve = null;
    resolve?.();
  }
  wait(): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.resolve = () => {
        this.pending = false;
        resolve();
      };
    });
  }
}

/** Rows waiting for their next attempt, soonest first. */
export class RetrySchedule {
  private readonly entries: { dueAt: number; job: Job }[] = [];
  get size(): number {
    return this.entries.length;
  }
  add(dueAt: number, job: Job): void {
    // Binary search keeps insertion cheap and equal times in arrival order.
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.entries[mid]?.dueAt ?? 0) <= dueAt) lo = mid + 1;
      else hi = mid;
    }
    this.entries.splice(lo, 0, { dueAt, job });
  }
  takeDue(now: number): Job | undefined {
    const first = this.entries[0];
    if (!first || first.dueAt > now) return undefined;
    this.entries.shift();
    return first.job;
  }
  nextDueAt(): number | undefined {
    return this.entries[0]?.dueAt;
  }
}

/** Ready rows in import order, a batch at a time; one more pass from the top catches rows put back. */
export function readySource(db: Db, campaignId: string, unbuildable: ReadonlyMap<number, string>) {
  let buffer: SendRow[] = [];
  let cursor = 0;
  let wrapped = false;
  let exhausted = false;
  return {
    get exhausted() {
      return exhausted && buffer.length === 0;
    },
    next(): Job | undefined {
      while (buffer.length === 0 && !exhausted) {
        const rows = listReadyToSend(db, campaignId, { afterId: cursor, limit: READY_BATCH });
        if (rows.length === 0) {
          if (wrapped || cursor === 0) exhausted = true;
          wrapped = true;
          cursor = 0;
          continue;
        }
        cursor = rows[rows.length - 1]?.id ?? cursor;
        buffer = rows.filter((r) => !unbuildable.has(r.id)).reverse();
        if (buffer.length > 0) wrapped = false;
      }
      const row = buffer.pop();
      return row ? { row, uncertain: false, attempts: 0, ambiguousStreak: 0, fresh: true } : undefined;
    },
  };
}
