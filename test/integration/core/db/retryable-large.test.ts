// "Retry N failed" counts the failed rows a retry would put back (not those a follow-up campaign
// took), and the campaign summary reads it on every progress event of a send: the count reads the
// campaign's failed rows through the (campaign_id, state) index, never every row of the campaign.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countRetryable, requeueFailedRows } from '../../../../electron/core/db/repos/recipient-edits.ts';
import { countByState } from '../../../../electron/core/db/repos/recipients.ts';
import { openEngine } from '../../../../electron/core/engine.ts';
import { createMemorySecretStore } from '../../../../electron/core/secrets/secret-store.ts';
import { makeCampaign } from '../../../support/index.ts';

describe('the retryable count', () => {
  it('counts 100,000 failed rows less those a follow-up took, reading only the failed rows', async () => {
    const engine = await openEngine({ dataDir: mkdtempSync(join(tmpdir(), 'giftbatch-retryable-')), secrets: createMemorySecretStore(), env: {} });
    try {
      const { db } = engine;
      const { campaign } = makeCampaign(db, { rows: 1, baseUrl: 'http://127.0.0.1:1' });
      const { campaign: other } = makeCampaign(db, { rows: 1, baseUrl: 'http://127.0.0.1:1' });
      const now = Date.now();
      // 100,000 failed rows in one statement, every fourth taken by a follow-up, and 50,000 ready.
      db.prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 150000)
         INSERT INTO recipients (campaign_id, line, name, email, amount_minor, currency, state, external_reference_id,
           followed_up_in, created_at, updated_at)
         SELECT ?, i + 2, 'R', 'r' || i || '@example.com', 2500, 'USD', CASE WHEN i <= 100000 THEN 'failed' ELSE 'ready' END,
           'gb-retry-' || i, CASE WHEN i <= 100000 AND i % 4 = 0 THEN ? END, ?, ?
         FROM n`,
      ).run(campaign.id, other.id, now, now);
      // Tallied as the import tallies what it stores (an insert has no trigger).
      db.prepare(
        `INSERT INTO recipient_tallies (campaign_id, state, currency, rows, priced, amount_minor, flagged)
         SELECT campaign_id, state, currency, count(*), count(*), sum(amount_minor), 0 FROM recipients
         WHERE campaign_id = ? AND external_reference_id LIKE 'gb-retry-%' GROUP BY state, currency
         ON CONFLICT DO UPDATE SET rows = rows + excluded.rows, priced = priced + excluded.priced, amount_minor = amount_minor + excluded.amount_minor`,
      ).run(campaign.id);
      const before = countByState(db, campaign.id);
      expect(before.failed).toBe(100_000);
      expect(countRetryable(db, campaign.id)).toBe(75_000);
      const plan = db.prepare(`EXPLAIN QUERY PLAN SELECT count(*) FROM recipients WHERE campaign_id = ? AND state = 'failed' AND followed_up_in IS NULL`).all('x');
      expect(JSON.stringify(plan)).toContain('USING INDEX recipients_campaign_state (campaign_id=? AND state=?)');
      // The retry puts back exactly what was counted, and then there is nothing left to count.
      expect(requeueFailedRows(db, campaign.id, now)).toBe(75_000);
      expect(countRetryable(db, campaign.id)).toBe(0);
      expect(countByState(db, campaign.id)).toMatchObject({ failed: 25_000, ready: before.ready + 75_000 });
    } finally {
      await engine.close();
    }
  }, 120_000);
});
