// Schema 9 keeps when a poll round last read a campaign's orders (campaigns.last_polled_at). A
// database of schema 8 opens and migrates: every campaign and row is still there, none has been
// checked yet (NULL, so no "Last checked" is shown), and a round's time can be stored.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../../electron/core/db/migrations/index.ts';
import { integrityCheck, openDatabase, userVersion } from '../../../../electron/core/db/open.ts';
import { getCampaign, listCampaigns, setLastPolled } from '../../../../electron/core/db/repos/campaigns.ts';
import { tempDir, track } from '../../../support/db-seed.ts';

const T = 1_790_000_000_000;
const SNAPSHOT = '{"priceKind":"fixed","amountMinor":2500,"currency":"USD","deliveryMethods":["EMAIL"],"availability":"ON_SALE","name":"Books $25"}';

function seedSchema8(file: string) {
  const db = openDatabase(file, { migrations: MIGRATIONS.slice(0, 8) });
  const campaign = db.prepare(
    `INSERT INTO campaigns (id, name, environment, base_url, product_id, product_snapshot, sender_name, currency, send_state, created_at, updated_at)
     VALUES (?, ?, 'simulator', 'simulator://embedded', 7, ?, 'Events team', 'USD', 'done', ?, ?)`,
  );
  campaign.run('c_sent', 'Sent', SNAPSHOT, T, T);
  campaign.run('c_other', 'Other', SNAPSHOT, T, T);
  db.prepare(
    `INSERT INTO recipients (campaign_id, line, name, email, amount_minor, currency, state, external_reference_id, order_id, created_at, updated_at)
     VALUES ('c_sent', 2, 'Ada', 'ada@example.com', 2500, 'USD', 'ordered', 'gb-sent', 41, ?, ?)`,
  ).run(T, T);
  db.close();
}

describe('migration 0009: when a campaign was last checked', () => {
  it('opens a schema 8 database; no campaign has been checked; a round stores its time for its campaigns only', () => {
    const file = join(tempDir(), 'giftbatch.db');
    seedSchema8(file);
    const before = openDatabase(file, { migrations: MIGRATIONS.slice(0, 8) });
    // The repository reads a database of an older schema too (the column is absent there): null.
    expect(getCampaign(before, 'c_sent')?.lastPolledAt).toBeNull();
    before.close();

    const db = track(openDatabase(file));
    expect(userVersion(db)).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(9);
    expect(listCampaigns(db).map((c) => [c.id, c.lastPolledAt])).toEqual([
      ['c_other', null],
      ['c_sent', null],
    ]);
    setLastPolled(db, ['c_sent'], T + 60_000);
    expect(getCampaign(db, 'c_sent')).toMatchObject({ lastPolledAt: T + 60_000, updatedAt: T });
    expect(getCampaign(db, 'c_other')?.lastPolledAt).toBeNull();
    expect(() => db.prepare(`UPDATE campaigns SET last_polled_at = -1 WHERE id = 'c_other'`).run()).toThrow(/CHECK/);
    expect(db.prepare('SELECT count(*) FROM recipients').pluck().get()).toBe(1);
    expect(integrityCheck(db)).toEqual({ ok: true, problems: [] });
  });
});
