import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createCommitBatch } from '../../../../electron/core/db/commit-batch.ts';
import { tempDb } from '../../../support/db-seed.ts';

// The send queue's writes share commits through this batch; what it promises is what a crash
// and the row state machine rely on: a resolved write is on disk, a failed one left nothing.
function setup() {
  const { db, file } = tempDb();
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL) STRICT');
  const insert = (id: number, v: string) => () => db.prepare('INSERT INTO t (id, v) VALUES (?, ?)').run(id, v).changes;
  // Another connection, as another process would read the file.
  const reader = new Database(file, { readonly: true });
  const stored = () => reader.prepare('SELECT id FROM t ORDER BY id').pluck().all();
  return { db, insert, stored, close: () => reader.close() };
}

describe('commit batch', () => {
  it('commits the writes queued in one turn together, and resolves each only once it is on disk', async () => {
    const t = setup();
    const writes = createCommitBatch(t.db);
    const first = writes.run(t.insert(1, 'a'));
    const second = writes.run(t.insert(2, 'b'));
    expect(writes.size).toBe(2);
    // Nothing has run yet: the commit happens at the end of the turn.
    expect(t.stored()).toEqual([]);
    await expect(first).resolves.toBe(1);
    expect(t.stored()).toEqual([1, 2]);
    await expect(second).resolves.toBe(1);
    t.close();
  });

  it('a failing write rolls back only itself and rejects only its own promise', async () => {
    const t = setup();
    const writes = createCommitBatch(t.db);
    const results = await Promise.allSettled([
      writes.run(t.insert(1, 'a')),
      writes.run(() => {
        t.insert(2, 'half')();
        throw new Error('refused halfway');
      }),
      writes.run(t.insert(3, 'c')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ message: 'refused halfway' });
    expect(t.stored()).toEqual([1, 3]);
    t.close();
  });

  it('a write that may wait rides along with the next commit, or goes alone after its delay', async () => {
    const t = setup();
    const writes = createCommitBatch(t.db);
    let settled = false;
    const later = writes.later(t.insert(1, 'a'), 60_000).then(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    expect(t.stored()).toEqual([]);
    await writes.run(t.insert(2, 'b'));
    await later;
    expect(t.stored()).toEqual([1, 2]);

    const alone = writes.later(t.insert(3, 'c'), 30);
    await alone;
    expect(t.stored()).toEqual([1, 2, 3]);
    t.close();
  });

  it('flush commits what is queued at once; a commit that cannot happen rejects every write in it', async () => {
    const t = setup();
    const writes = createCommitBatch(t.db);
    const queued = writes.later(t.insert(1, 'a'), 60_000);
    writes.flush();
    await queued;
    expect(t.stored()).toEqual([1]);

    const lost = [writes.run(t.insert(2, 'b')), writes.later(t.insert(3, 'c'), 10)];
    t.db.close();
    const results = await Promise.allSettled(lost);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(t.stored()).toEqual([1]);
    t.close();
  });
});
