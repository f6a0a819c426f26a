// Schema 11 lets a campaign pause as 'unconfirmed' (rows whose empty lookup by key proves nothing).
// A database of schema 10 opens and migrates: every campaign keeps every value (a paused one its
// reason and detail, a polled one its time), rows and events still point at their campaigns, and
// the new reason can be stored while an unknown one is still refused.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../../electron/core/db/migrations/index.ts';
import { integrityCheck, openDatabase, userVersion } from '../../../../electron/core/db/open.ts';
import { getCampaign, setSendState } from '../../../../electron/core/db/repos/campaigns.ts';
import { tempDir, track } from '../../../support/db-seed.ts';

const T = 1_790_000_000_000;
const SNAPSHOT = '{"priceKind":"fixed","amountMinor":2500,"currency":"USD","deliveryMethods":["EMAIL"],"availability":"ON_SALE","name":"Books $25"}';

describe('migration 0011: the unconfirmed pause', () => {
  it('keeps every campaign as it was and accepts the new reason', () => {
    const file = join(tempDir(), 'giftbatch.db');
    const old = openDatabase(file, { migrations: MIGRATIONS.slice(0, 10) });
    const insert = old.prepare(
      `INSERT INTO campaigns (id, name, environment, base_url, product_id, product_snapshot, sender_name, currency, send_state,
         paused_reason, paused_detail, created_at, updated_at, gift_per_row, last_polled_at)
       VALUES (?, ?, 'sandbox', 'https://sandbox.example', 7, ?, 'Events team', 'USD', ?, ?, ?, ?, ?, ?, ?)`,
    );
    insert.run('c_paused', 'Paused', SNAPSHOT, 'paused', 'mismatch', 'Line 4: another amount.', T, T + 1, 1, T + 2);
    insert.run('c_sending', 'Sending', SNAPSHOT, 'sending', null, null, T, T, 0, null);
    old.prepare(
      `INSERT INTO recipients (campaign_id, line, name, email, amount_minor, currency, state, external_reference_id, order_id, created_at, updated_at)
       VALUES ('c_paused', 2, 'Ada', 'ada@example.com', 2500, 'USD', 'ordered', 'gb-1', 41, ?, ?)`,
    ).run(T, T);
    old.prepare(`INSERT INTO events (campaign_id, recipient_id, at, kind) VALUES ('c_paused', 1, ?, 'ordered')`).run(T);
    const before = old.prepare('SELECT * FROM campaigns ORDER BY id').all();
    old.close();

    const db = track(openDatabase(file));
    expect(userVersion(db)).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(11);
    expect(db.prepare('SELECT * FROM campaigns ORDER BY id').all()).toEqual(before);
    expect(getCampaign(db, 'c_paused')).toMatchObject({ sendState: 'paused', pausedReason: 'mismatch', pausedDetail: 'Line 4: another amount.', lastPolledAt: T + 2 });
    expect(integrityCheck(db)).toEqual({ ok: true, problems: [] });

    setSendState(db, 'c_sending', { from: 'sending', to: 'paused', reason: 'unconfirmed', detail: 'Line 2: look it up.' }, T + 5);
    expect(getCampaign(db, 'c_sending')).toMatchObject({ sendState: 'paused', pausedReason: 'unconfirmed' });
    expect(() => db.prepare(`UPDATE campaigns SET paused_reason = 'other' WHERE id = 'c_sending'`).run()).toThrow(/CHECK/);
    // Still the table others point at: a row of an unknown campaign is refused.
    expect(() =>
      db.prepare(
        `INSERT INTO recipients (campaign_id, line, state, external_reference_id, created_at, updated_at) VALUES ('c_none', 3, 'invalid', 'gb-2', ?, ?)`,
      ).run(T, T),
    ).toThrow(/FOREIGN KEY/);
  });
});
