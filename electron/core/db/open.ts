// Opens the one SQLite file the engine keeps (docs/architecture.md, "The data folder") and brings
// its schema up to date.

import { chmodSync, statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { addDecimalText, ZERO_DECIMAL, type ExactDecimal } from '../../../shared/domain/money.ts';
import Database from 'better-sqlite3';
import { z } from 'zod';
import { openDataFolder } from '../paths.ts';
import { MIGRATIONS, SCHEMA_VERSION, type Migration } from './migrations/index.ts';

export type Db = Database.Database;

/** What a person reads when the disk is full: what happened, that nothing was lost, what to do. */
export const DISK_FULL_MESSAGE =
  'The disk that holds the data folder is full: the last change was not saved, and nothing saved before it was lost ' +
  '(orders already placed are on record). Free some space on that disk, then try again.';

/** SQLite's "database or disk is full" (and the disk's own ENOSPC), whatever layer it surfaces in. */
export function isDiskFull(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === 'SQLITE_FULL' || code === 'ENOSPC';
}

// Linux statfs f_type of filesystems served over a network, where SQLite's WAL cannot work (its
// shared memory is per machine) and two machines on one file can corrupt it.
const NETWORK_FILESYSTEMS: ReadonlyMap<number, string> = new Map([
  [0x6969, 'NFS'],
  [0x517b, 'SMB'],
  [0xff534d42, 'CIFS'],
  [0xfe534d42, 'SMB2'],
  [0x65735546, 'FUSE (sshfs and the like)'],
  [0x73757245, 'Coda'],
  [0x5346414f, 'AFS'],
  [0x01021997, '9P'],
  [0x00c36400, 'Ceph'],
]);

/** The network filesystem a folder is on, or null (also when the platform cannot say). */
export function networkFilesystem(dir: string, statfs: (path: string) => { type: number | bigint } = statfsSync): string | null {
  if (process.platform !== 'linux') return null;
  try {
    return NETWORK_FILESYSTEMS.get(Number(statfs(dir).type)) ?? null;
  } catch {
    return null;
  }
}

export class NetworkFolderError extends Error {
  override readonly name = 'NetworkFolderError';
}

export class DatabaseTooNewError extends Error {
  override readonly name = 'DatabaseTooNewError';
  constructor(
    readonly file: string,
    readonly found: number,
    readonly known: number,
  ) {
    super(
      `This data folder was written by a newer Giftbatch (schema ${found}, this version knows ${known}). ` +
        `Update Giftbatch.`,
    );
  }
}

export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

export interface OpenOptions {
  /** Milliseconds a writer waits for another connection's lock before giving up (default 5000). */
  readonly busyTimeoutMs?: number;
  /** The schema to bring the file to; tests pass their own lists. Defaults to the app's migrations. */
  readonly migrations?: readonly Migration[];
  /** How the folder's filesystem is asked for (tests stand in a network one). */
  readonly statfs?: (path: string) => { type: number | bigint };
}

/**
 * Opens (creating it and its folder if needed) the database at `file`, sets the pragmas every
 * connection needs, and applies the pending migrations in order, one transaction each.
 * Throws DatabaseTooNewError, without touching the file, when a newer Giftbatch wrote it.
 */
export function openDatabase(file: string, opts: OpenOptions = {}): Db {
  const migrations = opts.migrations ?? MIGRATIONS;
  checkMigrationList(migrations);
  if (file !== ':memory:') {
    openDataFolder(dirname(file));
    const network = networkFilesystem(dirname(file), opts.statfs);
    if (network) {
      throw new NetworkFolderError(
        `The data folder ${dirname(file)} is on a network filesystem (${network}). Giftbatch keeps its records in SQLite, which cannot ` +
          'keep them safe there, and two machines on one file can corrupt it. Use a folder on this computer (--data-dir, or the default).',
      );
    }
  }
  const db = new Database(file);
  // Readable by its owner only (SQLite gives the -wal and -shm files the same mode).
  if (file !== ':memory:') chmodSync(file, 0o600);
  try {
    const known = migrations.length;
    const found = userVersion(db);
    if (found > known) throw new DatabaseTooNewError(file, found, known);
    const busyTimeoutMs = Math.max(0, Math.trunc(opts.busyTimeoutMs ?? 5000));
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    useWal(db, busyTimeoutMs);
    // Must follow journal_mode on every open: better-sqlite3 leaves a reopened WAL database at
    // NORMAL, and NORMAL can lose the last committed order record on power loss.
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    registerFunctions(db);
    migrate(db, migrations);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/**
 * decimal_sum(text): the exact sum of decimal texts (the charges as the service sent them, which may
 * carry more decimals than their currency), as an ExactDecimal's "units/scale" text; SQLite's own
 * sum() would go through floats.
 */
function registerFunctions(db: Db): void {
  db.aggregate('decimal_sum', {
    start: () => ZERO_DECIMAL,
    step: (sum: ExactDecimal, text: unknown) => (typeof text === 'string' ? addDecimalText(sum, text) : sum),
    result: (sum: ExactDecimal) => `${sum.units}/${sum.scale}`,
  });
}

/**
 * Switches the file to WAL. SQLite answers SQLITE_BUSY at once, without the busy handler, when
 * another process is switching the same fresh file at that moment (two commands started together
 * on a new data folder): wait a little and look again, up to the busy timeout.
 */
function useWal(db: Db, busyTimeoutMs: number): void {
  const deadline = Date.now() + busyTimeoutMs;
  for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
    try {
      if (db.pragma('journal_mode', { simple: true }) !== 'wal') db.pragma('journal_mode = WAL');
      return;
    } catch (err) {
      if ((err as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw err;
      // openDatabase is synchronous (as every database call here): block this thread briefly.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, pause);
    }
  }
}

/**
 * Applies each pending migration in its own IMMEDIATE transaction that re-reads the version under
 * the write lock: several processes opening a fresh data folder at once (two CLI commands, the app
 * and a CLI) then apply each step exactly once, the others waiting and finding it done.
 */
function migrate(db: Db, migrations: readonly Migration[]): void {
  for (const migration of migrations) {
    if (userVersion(db) >= migration.version) continue;
    const apply = db.transaction(() => {
      if (userVersion(db) >= migration.version) return;
      db.exec(migration.sql);
      if (migration.rebuildsTables) {
        // Foreign keys were off for the rebuild: prove nothing points nowhere before committing.
        const broken = db.prepare('PRAGMA foreign_key_check').all();
        if (broken.length > 0) throw new Error(`${broken.length} rows would point at nothing: ${JSON.stringify(broken.slice(0, 3))}`);
      }
      db.pragma(`user_version = ${migration.version}`);
    });
    // SQLite's way to rebuild a table others refer to: foreign keys off (outside the transaction),
    // rebuild, check, commit, foreign keys back on.
    if (migration.rebuildsTables) db.pragma('foreign_keys = OFF');
    try {
      apply.immediate();
    } catch (err) {
      throw new MigrationError(
        `Could not update the data file to schema ${migration.version} (${migration.name}): ` +
          `${err instanceof Error ? err.message : String(err)}. Nothing was changed by this step; ` +
          `keep a copy of the data folder and report this.`,
        { cause: err },
      );
    } finally {
      if (migration.rebuildsTables) db.pragma('foreign_keys = ON');
    }
  }
}

export function userVersion(db: Db): number {
  const value = db.pragma('user_version', { simple: true });
  if (typeof value !== 'number') throw new Error(`PRAGMA user_version returned ${String(value)}`);
  return value;
}

function checkMigrationList(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw new Error(`migration ${m.name} has version ${m.version} at position ${i + 1}: versions must be 1, 2, 3… without gaps`);
    }
  });
}

export interface IntegrityReport {
  readonly ok: boolean;
  /** SQLite's own findings (page corruption, broken indexes) and foreign keys that point nowhere. */
  readonly problems: readonly string[];
}

/** Runs SQLite's integrity check and the foreign-key check; `ok` when both find nothing. */
export function integrityCheck(db: Db): IntegrityReport {
  const problems: string[] = [];
  for (const text of z.array(z.string()).parse(db.prepare('PRAGMA integrity_check').pluck().all())) {
    if (text !== 'ok') problems.push(text);
  }
  const orphans = z
    .array(z.object({ table: z.string(), rowid: z.number().nullable(), parent: z.string() }))
    .parse(db.prepare('PRAGMA foreign_key_check').all());
  for (const { table, rowid, parent } of orphans) {
    problems.push(`${table} row ${String(rowid)} refers to a missing ${parent} row`);
  }
  return { ok: problems.length === 0, problems };
}

export { SCHEMA_VERSION };
