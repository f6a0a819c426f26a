import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../../electron/core/db/migrations/index.ts';
import {
  DatabaseTooNewError,
  integrityCheck,
  MigrationError,
  openDatabase,
  SCHEMA_VERSION,
  userVersion,
} from '../../../../electron/core/db/open.ts';
import { tempDb, tempDir, track } from '../../../support/db-seed.ts';

function tables(db: Database.Database): Record<string, string> {
  const rows = db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as {
    name: string;
    sql: string;
  }[];
  return Object.fromEntries(rows.map((r) => [r.name, r.sql]));
}

function columns(db: Database.Database, table: string): string[] {
  return (db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[]).sort();
}

describe('openDatabase', () => {
  it('creates the parent folder and applies every migration to an empty file', () => {
    const file = join(tempDir(), 'nested', 'deeper', 'giftbatch.db');
    const db = track(openDatabase(file));
    expect(existsSync(file)).toBe(true);
    expect(userVersion(db)).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
  });

  it('migration 0001 on an empty database yields the four STRICT tables, their indexes and triggers', () => {
    const file = join(tempDir(), 'giftbatch.db');
    const db = track(openDatabase(file, { migrations: MIGRATIONS.slice(0, 1) }));
    expect(userVersion(db)).toBe(1);
    const t = tables(db);
    expect(Object.keys(t).sort()).toEqual(['campaigns', 'events', 'recipients', 'settings']);
    for (const sql of Object.values(t)) expect(sql).toMatch(/\)\s*STRICT$/);
    expect(columns(db, 'recipients')).toEqual(
      [
        'id', 'campaign_id', 'line', 'name', 'email', 'amount_minor', 'currency', 'message', 'state',
        'external_reference_id', 'request_body', 'order_id', 'order_status', 'item_id', 'item_status',
        'charged_minor', 'charged_currency', 'exchange_rate', 'rate_from', 'rate_to', 'fee_rate',
        'acceptance_expiry', 'attempts', 'last_error', 'errors', 'warnings', 'source', 'created_at',
        'sent_at', 'ordered_at', 'delivered_at', 'updated_at', 'next_attempt_at',
      ].sort(),
    );
    expect(columns(db, 'campaigns')).toContain('product_snapshot');
    expect(columns(db, 'campaigns')).toContain('send_state');
    expect(columns(db, 'events')).toEqual(['at', 'campaign_id', 'detail', 'id', 'kind', 'recipient_id']);
    const indexes = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL").pluck().all();
    expect(indexes).toEqual(
      expect.arrayContaining(['recipients_campaign_state', 'recipients_order', 'recipients_email', 'events_campaign']),
    );
    const triggers = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'trigger'").pluck().all();
    expect(triggers).toEqual(
      expect.arrayContaining(['events_no_update', 'events_no_delete', 'recipients_key_immutable', 'recipients_body_frozen']),
    );
    expect(integrityCheck(db)).toEqual({ ok: true, problems: [] });
  });

  it('sets WAL, synchronous=FULL, foreign keys and a busy timeout on first open and again on every reopen', () => {
    const { db, file } = tempDb();
    const pragmas = (d: Database.Database) => ({
      journal: d.pragma('journal_mode', { simple: true }),
      synchronous: d.pragma('synchronous', { simple: true }),
      foreignKeys: d.pragma('foreign_keys', { simple: true }),
      busy: d.pragma('busy_timeout', { simple: true }),
    });
    const expected = { journal: 'wal', synchronous: 2, foreignKeys: 1, busy: 5000 };
    expect(pragmas(db)).toEqual(expected);
    db.close();
    const again = track(openDatabase(file));
    expect(pragmas(again)).toEqual(expected);
    again.close();
    const third = track(openDatabase(file, { busyTimeoutMs: 250 }));
    expect(pragmas(third)).toEqual({ ...expected, busy: 250 });
  });

  it('reopening an up-to-date database applies nothing and keeps its data', () => {
    const { db, file } = tempDb();
    db.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('a', '1', 0)").run();
    db.close();
    const again = track(openDatabase(file));
    expect(userVersion(again)).toBe(SCHEMA_VERSION);
    expect(again.prepare("SELECT value FROM settings WHERE key = 'a'").pluck().get()).toBe('1');
  });

  it('refuses a database written by a newer schema, with a message saying to update, and leaves it untouched', () => {
    const file = join(tempDir(), 'giftbatch.db');
    const raw = new Database(file);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 2}`);
    raw.close();
    let error: unknown;
    try {
      openDatabase(file);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DatabaseTooNewError);
    expect((error as Error).message).toBe(
      `This data folder was written by a newer Giftbatch (schema ${SCHEMA_VERSION + 2}, this version knows ${SCHEMA_VERSION}). Update Giftbatch.`,
    );
    const check = new Database(file);
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 2);
    expect(check.pragma('journal_mode', { simple: true })).toBe('delete');
    check.close();
  });

  it('applies pending migrations in order, one transaction each: a failing one leaves the earlier ones and rolls itself back', () => {
    const file = join(tempDir(), 'giftbatch.db');
    const migrations = [
      { version: 1, name: '0001-a', sql: 'CREATE TABLE a (x INTEGER) STRICT;' },
      { version: 2, name: '0002-b', sql: 'CREATE TABLE b (x INTEGER) STRICT; INSERT INTO b VALUES (1); SELECT no_such_function();' },
    ];
    expect(() => openDatabase(file, { migrations })).toThrow(MigrationError);
    const raw = new Database(file);
    expect(raw.pragma('user_version', { simple: true })).toBe(1);
    expect(raw.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all()).toEqual(['a']);
    raw.close();
    const fixed = [migrations[0]!, { version: 2, name: '0002-b', sql: 'CREATE TABLE b (x INTEGER) STRICT;' }];
    const db = track(openDatabase(file, { migrations: fixed }));
    expect(userVersion(db)).toBe(2);
  });

  it('several processes opening the same fresh file at the same instant each apply every migration exactly once', async () => {
    // Two CLI commands, or the app and a CLI, started together on a new data folder. The children
    // load the module first, then wait for common instants, so their opens really overlap: the
    // switch to WAL and each migration (both failed this way before they waited for each other).
    const dir = tempDir();
    const files = [1, 2, 3, 4].map((n) => join(dir, `data-${n}`, 'giftbatch.db'));
    const openUrl = new URL('../../../../electron/core/db/open.ts', import.meta.url).href;
    const startAt = Date.now() + 2500;
    const script =
      `const { openDatabase, userVersion } = await import(${JSON.stringify(openUrl)});` +
      `const files = ${JSON.stringify(files)}; const seen = [];` +
      `for (let k = 0; k < files.length; k++) { while (Date.now() < ${startAt} + k * 300) {}` +
      `const db = openDatabase(files[k]); seen.push(userVersion(db)); db.close(); }` +
      `console.log(seen.join(','));`;
    const run = promisify(execFile);
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script])),
    );
    const failures = results.flatMap((r) => (r.status === 'rejected' ? [String((r.reason as { stderr?: string }).stderr ?? r.reason)] : []));
    expect(failures).toEqual([]);
    for (const r of results) if (r.status === 'fulfilled') expect(r.value.stdout.trim()).toBe(files.map(() => SCHEMA_VERSION).join(','));
    for (const file of files) expect(integrityCheck(track(openDatabase(file))).ok).toBe(true);
  }, 30_000);

  it('refuses a migration list with a gap', () => {
    const file = join(tempDir(), 'giftbatch.db');
    expect(() => openDatabase(file, { migrations: [{ version: 2, name: 'x', sql: '' }] })).toThrow(/without gaps/);
  });

  it('integrityCheck reports a foreign key that points nowhere', () => {
    const { db } = tempDb();
    db.pragma('foreign_keys = OFF');
    db.prepare(
      "INSERT INTO recipients (campaign_id, line, state, external_reference_id, created_at, updated_at) VALUES ('c_gone', 2, 'invalid', 'k1', 0, 0)",
    ).run();
    db.pragma('foreign_keys = ON');
    const report = integrityCheck(db);
    expect(report.ok).toBe(false);
    expect(report.problems.join('\n')).toMatch(/recipients row \d+ refers to a missing campaigns row/);
  });
});

describe('the data folder', () => {
  it('is created private: the folder 0700, the database and its journal files 0600', async () => {
    const { openEngine } = await import('../../../../electron/core/engine.ts');
    const { createMemorySecretStore } = await import('../../../../electron/core/secrets/secret-store.ts');
    const { statSync, readdirSync } = await import('node:fs');
    const dataDir = join(tempDir(), 'new-folder', 'Giftbatch');
    const engine = await openEngine({ dataDir, secrets: createMemorySecretStore(), env: {} });
    try {
      engine.db.prepare(`INSERT INTO settings (key, value, updated_at) VALUES ('x', '1', 1)`).run();
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      const files = readdirSync(dataDir);
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) expect(statSync(join(dataDir, file)).mode & 0o777, file).toBe(0o600);
    } finally {
      await engine.close();
    }
  });
});

describe('a data folder on a network filesystem', () => {
  it('is refused at open, saying why and what to do; a local one is not', async () => {
    const { openDatabase: open, networkFilesystem, NetworkFolderError } = await import('../../../../electron/core/db/open.ts');
    const dir = tempDir();
    expect(networkFilesystem(dir)).toBeNull();
    const nfs = () => ({ type: 0x6969 });
    expect(networkFilesystem(dir, nfs)).toBe('NFS');
    expect(() => open(join(dir, 'shared', 'giftbatch.db'), { statfs: nfs })).toThrow(NetworkFolderError);
    expect(() => open(join(dir, 'shared', 'giftbatch.db'), { statfs: () => ({ type: 0x65735546 }) })).toThrow(/network filesystem \(FUSE \(sshfs and the like\)\).*Use a folder on this computer/);
    expect(existsSync(join(dir, 'shared', 'giftbatch.db'))).toBe(false);
  });
});
