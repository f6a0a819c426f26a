// Several writes, one commit. Under synchronous=FULL every commit is an fsync and a dozen page
// writes, which made two commits per order most of the CPU a send costs. Writes queued in the same
// turn of the event loop are committed together, each in its own savepoint (one failing write
// rolls back only itself and rejects only its own promise), and each promise settles only after
// the commit: a caller that awaits its write knows it is durable. A write that may wait (`later`)
// rides along with the next commit, or is committed on its own after a bounded delay.

import type { Db } from './open.ts';

interface Pending {
  readonly write: () => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

type Result = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

export interface CommitBatch {
  /** Queues `write` (synchronous, no await inside) for a commit at the end of this turn; resolves with its result once committed. */
  run<T>(write: () => T): Promise<T>;
  /** Queues `write` for the next commit, whenever another write brings one, but at most `maxDelayMs` from now. */
  later<T>(write: () => T, maxDelayMs: number): Promise<T>;
  /** Commits what is queued now, without waiting for the end of the turn. */
  flush(): void;
  /** Writes queued and not yet committed. */
  readonly size: number;
}

export function createCommitBatch(db: Db): CommitBatch {
  let pending: Pending[] = [];
  let immediate: NodeJS.Immediate | null = null;
  let timer: NodeJS.Timeout | null = null;
  let timerDueAt = Number.POSITIVE_INFINITY;
  // Built once: better-sqlite3 turns a transaction function called inside another into a savepoint.
  const savepoint = db.transaction((write: () => unknown) => write());
  const commit = db.transaction((batch: readonly Pending[]): Result[] =>
    batch.map((item): Result => {
      try {
        return { ok: true, value: savepoint(item.write) };
      } catch (error) {
        return { ok: false, error };
      }
    }),
  );

  const flush = (): void => {
    if (immediate) clearImmediate(immediate);
    if (timer) clearTimeout(timer);
    immediate = null;
    timer = null;
    timerDueAt = Number.POSITIVE_INFINITY;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    let results: Result[];
    try {
      results = commit(batch);
    } catch (error) {
      // The commit itself failed (disk full, I/O error): nothing of the batch is stored.
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, i) => {
      const result = results[i]!;
      if (result.ok) item.resolve(result.value);
      else item.reject(result.error);
    });
  };

  const enqueue = <T>(write: () => T): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      pending.push({ write, resolve: resolve as (value: unknown) => void, reject });
    });

  return {
    run(write) {
      const done = enqueue(write);
      immediate ??= setImmediate(flush);
      return done;
    },
    later(write, maxDelayMs) {
      const done = enqueue(write);
      const dueAt = Date.now() + Math.max(0, maxDelayMs);
      if (!immediate && dueAt < timerDueAt) {
        if (timer) clearTimeout(timer);
        timerDueAt = dueAt;
        timer = setTimeout(flush, Math.max(0, maxDelayMs));
      }
      return done;
    },
    flush,
    get size() {
      return pending.length;
    },
  };
}
