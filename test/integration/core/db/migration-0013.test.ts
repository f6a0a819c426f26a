// Schema 13 indexes the witness of an empty lookup (ListReach): the order of a service recorded last
// at or before a row's first send. A schema 12 database opens and gains the index; the witness is the
// same row as before, of any campaign of that service and of no other; and it is read from the index,
// not by sorting every ordered row of the service (110 ms at 1,000,000 rows before, on the engine's
// thread, for each row whose empty lookup needs one).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../../electron/core/db/migrations/index.ts';
import { integrityCheck, openDatabase, userVersion, type Db } from '../../../../electron/core/db/open.ts';
import { newestOrderRecordedBy, WITNESS_SQL } from '../../../../electron/core/db/repos/recipients.ts';
import { T0, seed, tempDir, track } from '../../../support/db-seed.ts';

const SERVICE = { environment: 'simulator', baseUrl: 'http://127.0.0.1:4010' } as const;

/** Marks a row ordered as a send records it: first sent at `sentAt`, its order recorded at `orderedAt`. */
function order(db: Db, rowId: number, orderId: number, sentAt: number, orderedAt: number): void {
  db.prepare(`UPDATE recipients SET state = 'ordered', order_id = ?, sent_at = ?, ordered_at = ? WHERE id = ?`).run(orderId, sentAt, orderedAt, rowId);
}

describe('migration 0013: the witness of an empty lookup, from an index', () => {
  it('opens a schema 12 database and finds the same witness, from the index', () => {
    const file = join(tempDir(), 'giftbatch.db');
    const old = openDatabase(file, { migrations: MIGRATIONS.slice(0, 12) });
    const first = seed(old, 3);
    const second = seed(old, 2);
    const otherAddress = seed(old, 1, { baseUrl: 'http://127.0.0.1:4011' });
    const otherEnvironment = seed(old, 1, { environment: 'sandbox' });
    order(old, first.rowIds[0]!, 1, T0 + 1_000, T0 + 2_000);
    // Sent first, recorded last (carried over and POSTed again at a resume): recorded at T0 + 9,000.
    order(old, first.rowIds[1]!, 2, T0 + 1_500, T0 + 9_000);
    order(old, second.rowIds[0]!, 3, T0 + 4_000, T0 + 5_000);
    // Newer, but of another address or environment: never the witness.
    order(old, otherAddress.rowIds[0]!, 4, T0 + 6_000, T0 + 7_000);
    order(old, otherEnvironment.rowIds[0]!, 5, T0 + 6_000, T0 + 7_000);
    // Sent, not ordered: no witness either.
    old.prepare(`UPDATE recipients SET state = 'sending', request_body = '{}', sent_at = ? WHERE id = ?`).run(T0 + 8_000, second.rowIds[1]!);
    const before = [T0, T0 + 2_000, T0 + 6_000, T0 + 8_500, T0 + 10_000].map((at) => newestOrderRecordedBy(old, SERVICE, at)?.orderId ?? null);
    old.close();

    const db = track(openDatabase(file));
    expect(userVersion(db)).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(13);
    const after = [T0, T0 + 2_000, T0 + 6_000, T0 + 8_500, T0 + 10_000].map((at) => newestOrderRecordedBy(db, SERVICE, at)?.orderId ?? null);
    expect(after).toEqual([null, 1, 3, 3, 2]);
    expect(after).toEqual(before);
    expect(newestOrderRecordedBy(db, SERVICE, T0 + 10_000)).toMatchObject({ campaignId: first.campaignId, line: 3, sentAt: T0 + 1_500, orderedAt: T0 + 9_000 });

    // newestOrderRecordedBy's own plan: each campaign of the service searched in the index, none of its
    // rows scanned to sort them (the one sort left is of the campaigns' newest rows, one per campaign).
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN ${WITNESS_SQL}`)
      .all({ ...SERVICE, at: T0, except: '[]' })
      .map((r) => String((r as { detail: string }).detail));
    expect(plan).toContain('SEARCH n USING INDEX recipients_campaign_ordered (campaign_id=? AND ordered_at<?)');
    expect(plan.some((step) => /SCAN (n|r)\b/.test(step))).toBe(false);
    expect(integrityCheck(db)).toEqual({ ok: true, problems: [] });
  });
});
