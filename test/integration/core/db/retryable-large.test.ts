// "Retry N failed" and "Follow-up campaign…" count the rows a retry or a follow-up would take (not
// those a follow-up campaign took), and the campaign summary reads them on every progress event of a
// send: each kind is read through an index (the campaign's failed or cancelled rows through
// (campaign_id, state), its expired acceptances through the partial index of ordered rows by
// expiry), never every row of the campaign.
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/temp-dirs.ts';
import { FOLLOW_UP_KINDS } from '../../../../shared/domain/follow-up.ts';
import { requeueFailedRows } from '../../../../electron/core/db/repos/recipient-edits.ts';
import {
  countByState,
  countFollowUpCandidates,
  failedRowsFollowedUp,
  FOLLOW_UP_ROWS_SQL,
} from '../../../../electron/core/db/repos/recipients.ts';
import { openEngine } from '../../../../electron/core/engine.ts';
import { createMemorySecretStore } from '../../../../electron/core/secrets/secret-store.ts';
import { tallyInserted } from '../../../support/db-seed.ts';
import { makeCampaign } from '../../../support/index.ts';

const HOUR = 3_600_000;

describe('the retryable and follow-up counts', () => {
  it('count 100,000 failed rows and 40,000 cancelled or expired ones less those a follow-up took, reading only those rows', async () => {
    const engine = await openEngine({ dataDir: tempDir('giftbatch-retryable-'), secrets: createMemorySecretStore(), env: {} });
    try {
      const { db } = engine;
      const { campaign } = makeCampaign(db, { rows: 1, baseUrl: 'http://127.0.0.1:1' });
      const { campaign: other } = makeCampaign(db, { rows: 1, baseUrl: 'http://127.0.0.1:1' });
      const now = Date.now();
      // 100,000 failed rows, 20,000 cancelled, 40,000 ordered (half of them with an acceptance link
      // expired an hour ago, half expiring in an hour) and 50,000 ready; every fourth failed,
      // cancelled or expired row taken by a follow-up.
      db.prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 210000)
         INSERT INTO recipients (campaign_id, line, name, email, amount_minor, currency, state, external_reference_id,
           order_id, acceptance_expiry, followed_up_in, created_at, updated_at)
         SELECT ?, i + 2, 'R', 'r' || i || '@example.com', 2500, 'USD',
           CASE WHEN i <= 100000 THEN 'failed' WHEN i <= 120000 THEN 'cancelled' WHEN i <= 160000 THEN 'ordered' ELSE 'ready' END,
           'gb-retry-' || i,
           CASE WHEN i > 100000 AND i <= 160000 THEN i END,
           CASE WHEN i > 120000 AND i <= 140000 THEN ? - ? WHEN i > 140000 AND i <= 160000 THEN ? + ? END,
           CASE WHEN i <= 140000 AND i % 4 = 0 THEN ? END, ?, ?
         FROM n`,
      ).run(campaign.id, now, HOUR, now, HOUR, other.id, now, now);
      tallyInserted(db, campaign.id, 'gb-retry-');
      const before = countByState(db, campaign.id);
      expect(before).toMatchObject({ failed: 100_000, cancelled: 20_000, ordered: 40_000 });
      expect(countFollowUpCandidates(db, campaign.id, now)).toEqual({ failed: 75_000, cancelled: 15_000, expired: 15_000 });
      // The follow-up's rows (listFollowUpCandidates: the kinds' conditions ORed) are exactly the rows counted.
      const anyKind = FOLLOW_UP_KINDS.map((k) => `(${FOLLOW_UP_ROWS_SQL[k]})`).join(' OR ');
      expect(db.prepare(`SELECT count(*) FROM recipients WHERE ${anyKind}`).pluck().get({ campaignId: campaign.id, now })).toBe(105_000);
      expect(failedRowsFollowedUp(db, campaign.id)).toEqual([{ id: other.id, name: other.name, rows: 25_000 }]);

      // Each kind's condition is read through its index.
      const plan = (sql: string, params: Record<string, unknown>) => JSON.stringify(db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params));
      const where = (kind: keyof typeof FOLLOW_UP_ROWS_SQL) => `SELECT count(*) FROM recipients WHERE ${FOLLOW_UP_ROWS_SQL[kind]}`;
      expect(plan(where('failed'), { campaignId: 'x' })).toContain('USING INDEX recipients_campaign_state (campaign_id=? AND state=?)');
      expect(plan(where('cancelled'), { campaignId: 'x' })).toContain('USING INDEX recipients_campaign_state (campaign_id=? AND state=?)');
      expect(plan(where('expired'), { campaignId: 'x', now })).toContain('USING INDEX recipients_acceptance (campaign_id=? AND acceptance_expiry<?)');
      const all = plan(`SELECT * FROM recipients WHERE ${anyKind}`, { campaignId: 'x', now });
      expect(all).toContain('MULTI-INDEX OR');
      expect(all).not.toMatch(/SCAN recipients|recipients_campaign_state \(campaign_id=\?\)"/);

      // What the summary pays for it, on this machine (reported, not asserted).
      const times: number[] = [];
      for (let i = 0; i < 7; i++) {
        const t0 = performance.now();
        countFollowUpCandidates(db, campaign.id, now);
        times.push(performance.now() - t0);
      }
      console.log(`countFollowUpCandidates, 105,000 of 140,000 rows counted: ${times.sort((a, b) => a - b)[3]?.toFixed(1)} ms median`);

      // The retry puts back exactly the failed rows counted, and then there are none left to count.
      expect(requeueFailedRows(db, campaign.id, now)).toBe(75_000);
      expect(countFollowUpCandidates(db, campaign.id, now)).toEqual({ failed: 0, cancelled: 15_000, expired: 15_000 });
      expect(countByState(db, campaign.id)).toMatchObject({ failed: 25_000, ready: before.ready + 75_000 });
    } finally {
      await engine.close();
    }
  }, 120_000);
});
