import { describe, expect, it, vi } from 'vitest';
import { createProgressBatcher } from '../../../../electron/core/app/progress.ts';
import { skip } from '../../../../electron/core/db/repos/recipient-edits.ts';
import { makeCampaign, T0, tempDb } from '../../../support/index.ts';

describe('progress batcher', () => {
  it('coalesces a burst of changes into one event per interval, naming each changed row once', () => {
    // Fake timers: the interval is the behaviour under test, not the machine's load (this used real
    // sleeps and failed once in a busy CI run).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const { db } = tempDb();
      const { campaign, rowIds } = makeCampaign(db, { rows: 6 });
      const emitted: { at: number; ids: number[] }[] = [];
      const batcher = createProgressBatcher({ db, intervalMs: 100, emit: (_id, ids) => emitted.push({ at: performance.now(), ids }) });

      for (const id of rowIds.slice(0, 3)) {
        skip(db, id, T0);
        batcher.notify(campaign.id);
      }
      vi.advanceTimersByTime(30);
      expect(emitted).toHaveLength(1);
      expect(emitted[0]?.ids).toEqual(rowIds.slice(0, 3));

      // Changes right after an event wait for the interval, then arrive together.
      for (const id of rowIds.slice(3)) {
        skip(db, id, T0);
        batcher.notify(campaign.id, [rowIds[0] ?? 0]);
        vi.advanceTimersByTime(5);
      }
      expect(emitted).toHaveLength(1);
      vi.advanceTimersByTime(150);
      expect(emitted).toHaveLength(2);
      expect(emitted[1]?.ids).toEqual([rowIds[0], ...rowIds.slice(3)]);
      expect((emitted[1]?.at ?? 0) - (emitted[0]?.at ?? 0)).toBeGreaterThanOrEqual(100);
      batcher.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not report changes made before it started, and emits nothing after close', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const { db } = tempDb();
      const { campaign, rowIds } = makeCampaign(db, { rows: 2 });
      skip(db, rowIds[0] ?? 0, T0);
      const emitted: number[][] = [];
      const batcher = createProgressBatcher({ db, intervalMs: 50, emit: (_id, ids) => emitted.push(ids) });
      batcher.notify(campaign.id);
      vi.advanceTimersByTime(20);
      expect(emitted).toEqual([[]]);
      skip(db, rowIds[1] ?? 0, T0);
      batcher.notify(campaign.id);
      batcher.close();
      vi.advanceTimersByTime(80);
      expect(emitted).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
