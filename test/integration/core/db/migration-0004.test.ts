import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../../electron/core/db/migrations/index.ts';
import { integrityCheck, openDatabase, userVersion } from '../../../../electron/core/db/open.ts';
import { getCampaign, setSendState } from '../../../../electron/core/db/repos/campaigns.ts';
import { chargedTotals, getRecipient } from '../../../../electron/core/db/repos/recipients.ts';
import { expectTalliesMatchRows } from '../../../support/invariants.ts';
import { tempDir, track } from '../../../support/db-seed.ts';

const T = 1_790_000_000_000;

function seedSchema3(file: string) {
  const db = openDatabase(file, { migrations: MIGRATIONS.slice(0, 3) });
  db.prepare(
    `INSERT INTO campaigns (id, name, environment, base_url, product_id, product_snapshot, sender_name, currency,
       send_state, paused_reason, paused_detail, created_at, updated_at)
     VALUES ('c_old', 'Old', 'sandbox', 'https://sandbox.example', 7, '{"priceKind":"fixed","amountMinor":1000,"currency":"USD","deliveryMethods":["EMAIL"],"availability":"ON_SALE"}',
       'Acme', 'USD', 'paused', 'auth', 'key refused', ?, ?)`,
  ).run(T, T);
  const insert = db.prepare(
    `INSERT INTO recipients (campaign_id, line, name, email, amount_minor, currency, state, external_reference_id,
       request_body, order_id, charged_minor, charged_currency, created_at, updated_at)
     VALUES ('c_old', ?, 'Ada', 'ada@example.com', 1000, 'USD', ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  insert.run(2, 'ordered', 'gb-usd', '{}', 1, 1005, 'USD', T, T);
  insert.run(3, 'ordered', 'gb-krw', '{}', 2, 30000, 'KRW', T, T);
  insert.run(4, 'ordered', 'gb-kwd', '{}', 3, 7124, 'KWD', T, T);
  insert.run(5, 'ready', 'gb-ready', null, null, null, null, T, T);
  db.close();
}

describe('migration 0004: verified orders', () => {
  it('keeps every campaign and row, gives old charges their exact text, and keeps their totals', () => {
    const file = join(tempDir(), 'giftbatch.db');
    seedSchema3(file);
    const db = track(openDatabase(file));
    // Opening migrates on to the newest schema; schema 5's tallies are filled from these rows.
    expect(userVersion(db)).toBe(SCHEMA_VERSION);
    expectTalliesMatchRows(db);
    expect(getCampaign(db, 'c_old')).toMatchObject({ sendState: 'paused', pausedReason: 'auth' });
    expect(db.prepare(`SELECT charged_text FROM recipients ORDER BY line`).pluck().all()).toEqual(['10.05', '30000', '7.124', null]);
    expect(chargedTotals(db, 'c_old')).toEqual([
      { currency: 'KRW', amount: '30000' },
      { currency: 'KWD', amount: '7.124' },
      { currency: 'USD', amount: '10.05' },
    ]);
    const row = db.prepare(`SELECT id FROM recipients WHERE line = 2`).pluck().get() as number;
    expect(getRecipient(db, row)).toMatchObject({ issued: null, findings: [], chargedText: '10.05' });
    expect(integrityCheck(db)).toEqual({ ok: true, problems: [] });
  });

  it('accepts the mismatch pause reason, and still refuses an unknown one or findings that are not JSON', () => {
    const file = join(tempDir(), 'giftbatch.db');
    seedSchema3(file);
    const db = track(openDatabase(file));
    expect(setSendState(db, 'c_old', { from: 'paused', to: 'sending' }, T + 1)).toBe(true);
    expect(setSendState(db, 'c_old', { from: 'sending', to: 'paused', reason: 'mismatch', detail: 'the service issued USD 5.00 for a USD 11.50 gift' }, T + 2)).toBe(true);
    expect(getCampaign(db, 'c_old')?.pausedReason).toBe('mismatch');
    expect(() => db.prepare(`UPDATE campaigns SET paused_reason = 'whatever' WHERE id = 'c_old'`).run()).toThrow(/CHECK/);
    expect(() => db.prepare(`UPDATE recipients SET discrepancies = 'not json' WHERE line = 2`).run()).toThrow(/CHECK/);
    expect(() => db.prepare(`UPDATE recipients SET charged_text = '1e3' WHERE line = 2`).run()).toThrow(/CHECK/);
  });
});
