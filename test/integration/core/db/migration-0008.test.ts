// Schema 8 keeps whether a campaign chooses a gift per row (campaigns.gift_per_row). A database of
// schema 7 opens and migrates: a campaign whose stored rows show a gift column (a row ordered as
// another product, a snapshot of one, a row whose gift cell named no product) chooses one; any
// other keeps 0, and every campaign and row is still there.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../../electron/core/db/migrations/index.ts';
import { integrityCheck, openDatabase, userVersion } from '../../../../electron/core/db/open.ts';
import { getCampaign, listCampaigns } from '../../../../electron/core/db/repos/campaigns.ts';
import { tempDir, track } from '../../../support/db-seed.ts';

const T = 1_790_000_000_000;
const SNAPSHOT = '{"priceKind":"fixed","amountMinor":2500,"currency":"USD","deliveryMethods":["EMAIL"],"availability":"ON_SALE","name":"Books $25"}';

function seedSchema7(file: string) {
  const db = openDatabase(file, { migrations: MIGRATIONS.slice(0, 7) });
  const campaign = db.prepare(
    `INSERT INTO campaigns (id, name, environment, base_url, product_id, product_snapshot, sender_name, currency, send_state, created_at, updated_at)
     VALUES (?, ?, 'simulator', 'simulator://embedded', 7, ?, 'Events team', 'USD', 'draft', ?, ?)`,
  );
  const row = db.prepare(
    `INSERT INTO recipients (campaign_id, line, name, email, amount_minor, currency, state, external_reference_id, product_id, errors, created_at, updated_at)
     VALUES (?, ?, 'Ada', 'ada@example.com', 2500, 'USD', ?, ?, ?, ?, ?, ?)`,
  );
  for (const [id, name] of [
    ['c_tiers', 'Tiers'],
    ['c_moved_back', 'Row of another product, no snapshot'],
    ['c_bad_gift', 'A gift naming no product'],
    ['c_plain', 'Plain'],
  ] as const) {
    campaign.run(id, name, SNAPSHOT, T, T);
  }
  db.prepare(`INSERT INTO campaign_products (campaign_id, product_id, snapshot) VALUES ('c_tiers', 9, ?)`).run(SNAPSHOT.replace('Books $25', 'Outfitters $50'));
  row.run('c_tiers', 2, 'ready', 'gb-tiers', 9, null, T, T);
  row.run('c_moved_back', 2, 'ready', 'gb-moved', 9, null, T, T);
  row.run('c_bad_gift', 2, 'invalid', 'gb-bad', null, JSON.stringify([{ field: 'amount', message: 'Line 2: no amount' }, { field: 'product', message: 'Line 2: no product named "Golden Ticket" can be ordered here' }]), T, T);
  row.run('c_plain', 2, 'invalid', 'gb-plain', null, JSON.stringify([{ field: 'email', message: 'Line 2: no e-mail' }]), T, T);
  db.close();
}

describe('migration 0008: a campaign keeps whether it chooses a gift per row', () => {
  it('opens a schema 7 database, and a campaign chooses a gift per row when what it stored says so', () => {
    const file = join(tempDir(), 'giftbatch.db');
    seedSchema7(file);
    const db = track(openDatabase(file));
    expect(userVersion(db)).toBe(SCHEMA_VERSION);
    expect(Object.fromEntries(listCampaigns(db).map((c) => [c.id, c.giftPerRow]))).toEqual({
      c_tiers: true,
      c_moved_back: true,
      c_bad_gift: true,
      c_plain: false,
    });
    expect(db.prepare('SELECT count(*) FROM recipients').pluck().get()).toBe(4);
    expect(integrityCheck(db)).toEqual({ ok: true, problems: [] });
  });

  it('refuses a value other than 0 or 1, and a campaign of schema 7 read before the migration has none', () => {
    const file = join(tempDir(), 'giftbatch.db');
    seedSchema7(file);
    const before = openDatabase(file, { migrations: MIGRATIONS.slice(0, 7) });
    // The repository reads a database of an older schema too (the column is absent there): false.
    expect(getCampaign(before, 'c_tiers')?.giftPerRow).toBe(false);
    before.close();
    const db = track(openDatabase(file));
    expect(() => db.prepare(`UPDATE campaigns SET gift_per_row = 2 WHERE id = 'c_plain'`).run()).toThrow(/CHECK/);
    expect(() => db.prepare(`UPDATE campaigns SET gift_per_row = NULL WHERE id = 'c_plain'`).run()).toThrow(/NOT NULL/);
  });
});
