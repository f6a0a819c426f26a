// Schema 10 keeps a row's amount as the file wrote it when it did not become the row's amount
// (recipients.amount_text). A database of schema 9 opens and migrates: every row is still there,
// none has such a text (NULL: the editor starts empty, as before), and an edit can keep one.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../../electron/core/db/migrations/index.ts';
import { integrityCheck, openDatabase, userVersion } from '../../../../electron/core/db/open.ts';
import { editRow } from '../../../../electron/core/db/repos/recipient-edits.ts';
import { getRecipient } from '../../../../electron/core/db/repos/recipients.ts';
import { tempDir, track } from '../../../support/db-seed.ts';

const T = 1_790_000_000_000;
const SNAPSHOT = '{"priceKind":"fixed","amountMinor":1000,"currency":"USD","deliveryMethods":["EMAIL"],"availability":"ON_SALE","name":"Coffee $10"}';

function seedSchema9(file: string): number {
  const db = openDatabase(file, { migrations: MIGRATIONS.slice(0, 9) });
  db.prepare(
    `INSERT INTO campaigns (id, name, environment, base_url, product_id, product_snapshot, sender_name, currency, send_state, created_at, updated_at)
     VALUES ('c_draft', 'Draft', 'simulator', 'simulator://embedded', 7, ?, 'Events team', 'USD', 'draft', ?, ?)`,
  ).run(SNAPSHOT, T, T);
  const id = db
    .prepare(
      `INSERT INTO recipients (campaign_id, line, name, email, amount_minor, currency, state, external_reference_id, errors, created_at, updated_at)
       VALUES ('c_draft', 2, 'Ada', 'ada@example.com', NULL, NULL, 'invalid', 'gb-draft', '[{"field":"amount","message":"Line 2: 25 is not the price"}]', ?, ?) RETURNING id`,
    )
    .pluck()
    .get(T, T);
  db.close();
  return Number(id);
}

describe("migration 0010: a row's amount as the file wrote it", () => {
  it('opens a schema 9 database; no row has one; an edit that is refused again keeps what was typed', () => {
    const file = join(tempDir(), 'giftbatch.db');
    const id = seedSchema9(file);
    const before = openDatabase(file, { migrations: MIGRATIONS.slice(0, 9) });
    // The repository reads a database of an older schema too (the column is absent there): null.
    expect(getRecipient(before, id)?.amountText).toBeNull();
    before.close();

    const db = track(openDatabase(file));
    expect(userVersion(db)).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(10);
    expect(getRecipient(db, id)).toMatchObject({ state: 'invalid', amountMinor: null, amountText: null });
    const refused = [{ field: 'amount' as const, message: 'Line 2: 25 is not the price' }];
    expect(editRow(db, id, { name: 'Ada', email: 'ada@example.com', amountMinor: null, currency: null, amountText: '25', errors: refused }, T + 1)).toBe(true);
    expect(getRecipient(db, id)).toMatchObject({ state: 'invalid', amountText: '25' });
    // A read amount drops the text: the row has its amount.
    expect(editRow(db, id, { name: 'Ada', email: 'ada@example.com', amountMinor: 1000, currency: 'USD', amountText: '10', errors: [] }, T + 2)).toBe(true);
    expect(getRecipient(db, id)).toMatchObject({ state: 'ready', amountMinor: 1000, amountText: null });
    expect(integrityCheck(db)).toEqual({ ok: true, problems: [] });
  });
});
