import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../../electron/core/db/migrations/index.ts';
import { integrityCheck, openDatabase, userVersion } from '../../../../electron/core/db/open.ts';
import { getCampaign, setSendState } from '../../../../electron/core/db/repos/campaigns.ts';
import { tempDir, track } from '../../../support/db-seed.ts';

const T = 1_790_000_000_000;

function seedSchema1(file: string) {
  const db = openDatabase(file, { migrations: MIGRATIONS.slice(0, 1) });
  const insert = db.prepare(
    `INSERT INTO campaigns (id, name, environment, base_url, product_id, product_snapshot, sender_name, currency,
       send_state, paused_reason, paused_detail, created_at, updated_at)
     VALUES (?, ?, 'sandbox', 'https://sandbox.example', 7, '{"priceKind":"fixed","amountMinor":1000,"currency":"USD","deliveryMethods":["EMAIL"],"availability":"ON_SALE"}',
       'Acme', 'USD', ?, ?, ?, ?, ?)`,
  );
  insert.run('c_keyrefused', 'Key refused', 'paused', 'preflight', 'The service refused the API key (401). Set the key again, then resume.', T, T);
  insert.run('c_realcheck', 'Product gone', 'paused', 'preflight', 'Line 4: product 7 is no longer on sale.', T, T);
  insert.run('c_finished', 'Done', 'done', null, null, T, T);
  db.prepare(
    `INSERT INTO recipients (campaign_id, line, name, email, amount_minor, currency, state, external_reference_id, created_at, updated_at)
     VALUES ('c_keyrefused', 2, 'Ada', 'ada@example.com', 1000, 'USD', 'ready', 'gb-key-1', ?, ?)`,
  ).run(T, T);
  db.prepare(`INSERT INTO events (campaign_id, at, kind) VALUES ('c_keyrefused', ?, 'paused')`).run(T);
  db.close();
}

describe('migration 0002: the auth pause reason', () => {
  it('keeps every campaign, its rows and events, and relabels key refusals recorded as pre-flight pauses', () => {
    const file = join(tempDir(), 'giftbatch.db');
    seedSchema1(file);
    const db = track(openDatabase(file));
    expect(userVersion(db)).toBeGreaterThanOrEqual(2);
    expect(getCampaign(db, 'c_keyrefused')).toMatchObject({ sendState: 'paused', pausedReason: 'auth' });
    expect(getCampaign(db, 'c_realcheck')).toMatchObject({ sendState: 'paused', pausedReason: 'preflight' });
    expect(getCampaign(db, 'c_finished')).toMatchObject({ sendState: 'done', pausedReason: null });
    expect(db.prepare('SELECT count(*) FROM recipients').pluck().get()).toBe(1);
    expect(db.prepare('SELECT count(*) FROM events').pluck().get()).toBe(1);
    expect(integrityCheck(db)).toEqual({ ok: true, problems: [] });
    // Foreign keys still point at the rebuilt table.
    expect(() => db.prepare(`INSERT INTO events (campaign_id, at, kind) VALUES ('c_nosuch', ?, 'paused')`).run(T)).toThrow(/FOREIGN KEY/);
  });

  it('accepts pausing a campaign for a refused key, and still refuses an unknown reason', () => {
    const file = join(tempDir(), 'giftbatch.db');
    seedSchema1(file);
    const db = track(openDatabase(file));
    expect(setSendState(db, 'c_finished', { from: 'done', to: 'sending' }, T + 1)).toBe(true);
    expect(setSendState(db, 'c_finished', { from: 'sending', to: 'paused', reason: 'auth', detail: 'key refused' }, T + 2)).toBe(true);
    expect(getCampaign(db, 'c_finished')?.pausedReason).toBe('auth');
    expect(() => db.prepare(`UPDATE campaigns SET paused_reason = 'whatever' WHERE id = 'c_finished'`).run()).toThrow(/CHECK/);
  });

  it('applies to an empty database too', () => {
    const db = track(openDatabase(join(tempDir(), 'giftbatch.db')));
    expect(db.prepare(`SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = 'campaigns_environment'`).pluck().get()).toBe(1);
    expect(db.prepare(`SELECT sql FROM sqlite_schema WHERE name = 'campaigns'`).pluck().get()).toMatch(/STRICT/);
  });
});

describe('a migration that rebuilds tables', () => {
  it('is refused, and changes nothing, when it would leave rows pointing at nothing', () => {
    const file = join(tempDir(), 'giftbatch.db');
    seedSchema1(file);
    const breaking = [MIGRATIONS[0]!, { version: 2, name: '0002-broken', sql: 'DROP TABLE campaigns;', rebuildsTables: true }];
    expect(() => openDatabase(file, { migrations: breaking })).toThrow(/schema 2 .*point at nothing/);
    const db = track(openDatabase(file, { migrations: MIGRATIONS.slice(0, 1) }));
    expect(userVersion(db)).toBe(1);
    // Read at schema 1 by hand: today's readers know columns schema 1 did not have.
    expect(db.prepare(`SELECT count(*) FROM campaigns WHERE id = 'c_keyrefused'`).pluck().get()).toBe(1);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
  });
});
