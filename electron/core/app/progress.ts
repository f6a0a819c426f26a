// Batched progress (contract: at most ~10 `campaign:progress` events a second per campaign). Any
// part of the runtime says "this campaign changed"; the batcher emits at most once per interval,
// with the summary as it is then and the ids of the rows that changed since the last emission,
// read from the campaign's append-only event log (every row transition logs an event with its row
// id), so nothing that changed between two emissions is missed and nothing is counted twice.
import { z } from 'zod';
import type { Db } from '../db/open.ts';
import { statement } from '../db/statements.ts';

export const PROGRESS_INTERVAL_MS = 100;

// Plain reads of the events table by id, the one thing the events repo does not offer: a tail of
// row ids and the log's high-water mark.
const tailRow = z.object({ recipient_id: z.number().int() });
const maxRow = z.object({ campaign_id: z.string(), top: z.number().int() });

/** The newest event id per campaign, so changes made before this process started are not re-sent. */
function highWaterMarks(db: Db): Map<string, number> {
  const raws = statement(db, 'SELECT campaign_id, max(id) AS top FROM events GROUP BY campaign_id').all();
  return new Map(z.array(maxRow).parse(raws).map((r) => [r.campaign_id, r.top]));
}

function changedSince(db: Db, campaignId: string, afterId: number): { ids: number[]; top: number } {
  const top = z
    .number()
    .int()
    .nullable()
    .parse(statement(db, 'SELECT max(id) FROM events WHERE campaign_id = ?').pluck().get(campaignId));
  if (top === null || top <= afterId) return { ids: [], top: afterId };
  const raws = statement(
    db,
    `SELECT DISTINCT recipient_id FROM events
      WHERE campaign_id = ? AND id > ? AND id <= ? AND recipient_id IS NOT NULL ORDER BY recipient_id`,
  ).all(campaignId, afterId, top);
  return { ids: z.array(tailRow).parse(raws).map((r) => r.recipient_id), top };
}

export interface ProgressBatcher {
  /**
   * Something about the campaign changed; an event follows within the interval. `rowIds` adds rows
   * whose change logs no event (a polled order that is still pending but has fresher statuses).
   */
  notify(campaignId: string, rowIds?: Iterable<number>): void;
  /** Drops what is pending; no event is emitted after this. */
  close(): void;
}

export function createProgressBatcher(deps: {
  db: Db;
  emit: (campaignId: string, changedRowIds: number[]) => void;
  intervalMs?: number;
  onError?: (error: unknown) => void;
}): ProgressBatcher {
  const interval = deps.intervalMs ?? PROGRESS_INTERVAL_MS;
  const cursors = highWaterMarks(deps.db);
  const lastAt = new Map<string, number>();
  const timers = new Map<string, NodeJS.Timeout>();
  const extra = new Map<string, Set<number>>();
  let closed = false;

  const flush = (campaignId: string) => {
    timers.delete(campaignId);
    if (closed) return;
    lastAt.set(campaignId, performance.now());
    try {
      const { ids, top } = changedSince(deps.db, campaignId, cursors.get(campaignId) ?? 0);
      cursors.set(campaignId, top);
      const more = extra.get(campaignId);
      extra.delete(campaignId);
      deps.emit(campaignId, more ? [...new Set([...ids, ...more])].sort((a, b) => a - b) : ids);
    } catch (error) {
      deps.onError?.(error);
    }
  };

  return {
    notify(campaignId, rowIds) {
      if (closed) return;
      if (rowIds) {
        const set = extra.get(campaignId) ?? new Set<number>();
        for (const id of rowIds) set.add(id);
        if (set.size > 0) extra.set(campaignId, set);
      }
      if (timers.has(campaignId)) return;
      const since = performance.now() - (lastAt.get(campaignId) ?? Number.NEGATIVE_INFINITY);
      // Always through a timer, even when due: the change that called us may be mid-way through a
      // burst of changes, and they coalesce into this one event.
      const timer = setTimeout(() => flush(campaignId), Math.max(0, interval - since));
      timers.set(campaignId, timer);
    },
    close() {
      closed = true;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}
