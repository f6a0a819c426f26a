// A real SQLite file in a fresh temp folder, opened with the app's own openDatabase (migrations,
// WAL, synchronous=FULL), closed and removed after each test.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { openDatabase, type Db } from '../../electron/core/db/open.ts';

const dirs: string[] = [];
const handles: Db[] = [];

afterEach(() => {
  for (const db of handles.splice(0)) if (db.open) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder under the OS temp dir, removed after the test. */
export function tempDir(prefix = 'giftbatch-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

export interface TempDb {
  readonly db: Db;
  readonly file: string;
  /** Another connection to the same file (as a second process would have), closed after the test. */
  connect(): Db;
  /** Closes `db` and opens the file again, as after a restart. */
  reopen(): Db;
}

export function tempDb(): TempDb {
  const file = join(tempDir(), 'data', 'giftbatch.db');
  const db = track(openDatabase(file));
  return {
    db,
    file,
    connect: () => track(openDatabase(file)),
    reopen() {
      if (db.open) db.close();
      return track(openDatabase(file));
    },
  };
}

/** Closes a connection opened elsewhere after the test. */
export function track(db: Db): Db {
  handles.push(db);
  return db;
}
