// The send queue's bookkeeping: a row's place in a run, where the next row comes from, rows waiting
// for a retry, and the signal that wakes the loop. No I/O but the batch reads of ready rows.
import type { Db } from '../db/open.ts';
import type { Finding } from '../../../shared/domain/findings.ts';
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
  /**
   * Carried over `sending` from an earlier run, and not clearly looked up by key in this one: looked
   * up (with its frozen body, to check what is found) before it may be POSTed again.
   */
  lookUpFirst?: { readonly requestBody: string | null };
  /**
   * When its first POST left (its sent_at; for a row first sent in this run, when its intent
   * committed): how far back the order list must reach for an empty lookup of its key to count (ListReach).
   */
  firstSentAt?: number;
  /**
   * Its order was found by key (a run's reconciliation) without the item's price, and recorded: its
   * record is read for the price (confirm-price.ts) and nothing is POSTed for it.
   */
  readonly confirmPrice?: PriceToConfirmLater;
}

/** An order recorded without its item's price: what confirming it from its record needs. */
export interface PriceToConfirmLater {
  readonly orderId: number;
  /** The bytes that were POSTed: what the row asked. */
  readonly requestBody: string;
  /** The answer's finding that it states no price (flagged if the record never states one either). */
  readonly unstated: Finding;
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

/**
 * Send rule 6: the first order of every product goes alone (nothing else in flight), and the
 * product's other rows wait until that order's answer is checked against what it asked, so a
 * service that reads our request for a product differently costs at most one wrong gift. A first
 * order without a clear answer keeps its product's rows waiting through its retries; one that ends
 * unchecked (refused, or left for the next run) lets the product's next row be its first.
 */
export class FirstOrders {
  private readonly checked = new Set<number>();
  /** Each product's first order, started and not yet checked (in flight or waiting for a retry): its row id. */
  private readonly pending = new Map<number, number>();
  /** Rows of a product whose first order is pending, in the order they were taken. */
  private readonly held = new Map<number, Job[]>();
  private readonly released: Job[] = [];
  private heldRows = 0;

  /** Some product's first order was checked: the run may send more than one at a time. */
  get anyChecked(): boolean {
    return this.checked.size > 0;
  }

  isChecked(product: number): boolean {
    return this.checked.has(product);
  }

  /** Rows held or released and not yet taken back: work the run still has. */
  get waitingRows(): number {
    return this.heldRows + this.released.length;
  }

  /** A row whose product's first order was answered and checked, to take before any other. */
  takeReleased(): Job | undefined {
    return this.released.shift();
  }

  /**
   * Where a row taken for sending goes: 'go' (its product is checked), 'first' (it is, or may
   * become, its product's first order: it goes alone), or 'held' (kept here until its product's
   * first order is checked or ends).
   */
  admit(product: number, job: Job): 'go' | 'first' | 'held' {
    if (this.checked.has(product)) return 'go';
    const first = this.pending.get(product);
    if (first === undefined || first === job.row.id) return 'first';
    const rows = this.held.get(product);
    if (rows) rows.push(job);
    else this.held.set(product, [job]);
    this.heldRows++;
    return 'held';
  }

  /** The row goes now as its product's first order. */
  started(product: number, job: Job): void {
    this.pending.set(product, job.row.id);
  }

  /** A first order's answer was checked: the product's rows go as any other. */
  check(product: number): void {
    this.checked.add(product);
    this.settle(product);
  }

  /** The first order's attempt ended; unless it waits for a retry (or was checked), its product's next row becomes the first. */
  ended(product: number, retrying: boolean): void {
    if (!retrying && !this.checked.has(product)) this.settle(product);
  }

  private settle(product: number): void {
    this.pending.delete(product);
    const rows = this.held.get(product);
    if (!rows) return;
    this.held.delete(product);
    this.heldRows -= rows.length;
    this.released.push(...rows);
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
  has(job: Job): boolean {
    return this.entries.some((entry) => entry.job === job);
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
