// The campaign summary is read on every progress event of a send (about ten a second) and for every
// campaign of the list. At 100,000 rows: both figures that rest on expired acceptances
// (acceptanceExpired, every one; followUpRows.expired, those a follow-up may still take) count the
// rows of one condition, EXPIRED_ACCEPTANCE_SQL, which agrees with isAcceptanceExpired row by row;
// each is read through the partial index of ordered rows by expiry, never every row of the campaign.
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/temp-dirs.ts';
import { isAcceptanceExpired, type AcceptanceFacts } from '../../../../shared/domain/acceptance.ts';
import { summarize } from '../../../../electron/core/app/summary.ts';
import { getCampaign } from '../../../../electron/core/db/repos/campaigns.ts';
import { chargedExpiredAcceptances, countExpiredAcceptances, EXPIRED_ACCEPTANCE_SQL, FOLLOW_UP_ROWS_SQL } from '../../../../electron/core/db/repos/recipients.ts';
import { openEngine } from '../../../../electron/core/engine.ts';
import { createMemorySecretStore } from '../../../../electron/core/secrets/secret-store.ts';
import { tallyInserted } from '../../../support/db-seed.ts';
import { makeCampaign } from '../../../support/index.ts';

const HOUR = 3_600_000;

describe('the summary of a 100,000-row campaign', () => {
  it('counts expired acceptances, those a follow-up took, and the follow-up rows of each kind, in milliseconds', async () => {
    const engine = await openEngine({ dataDir: tempDir('giftbatch-summary-large-'), secrets: createMemorySecretStore(), env: {} });
    try {
      const { db } = engine;
      const { campaign } = makeCampaign(db, { rows: 1, baseUrl: 'http://127.0.0.1:1' });
      const { campaign: other } = makeCampaign(db, { rows: 1, baseUrl: 'http://127.0.0.1:1' });
      const now = engine.clock.now();
      // 30,000 failed rows, 10,000 cancelled, 40,000 ordered (30,000 with an acceptance link expired
      // an hour ago, 10,000 expiring in an hour) and 20,000 ready; every fourth failed, cancelled or
      // expired row taken by a follow-up.
      db.prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
         INSERT INTO recipients (campaign_id, line, name, email, amount_minor, currency, state, external_reference_id,
           order_id, acceptance_expiry, followed_up_in, created_at, updated_at)
         SELECT ?, i + 2, 'R', 'r' || i || '@example.com', 2500, 'USD',
           CASE WHEN i <= 30000 THEN 'failed' WHEN i <= 40000 THEN 'cancelled' WHEN i <= 80000 THEN 'ordered' ELSE 'ready' END,
           'gb-summary-' || i,
           CASE WHEN i > 30000 AND i <= 80000 THEN i END,
           CASE WHEN i > 40000 AND i <= 70000 THEN ? - ? WHEN i > 70000 AND i <= 80000 THEN ? + ? END,
           CASE WHEN i <= 70000 AND i % 4 = 0 THEN ? END, ?, ?
         FROM n`,
      ).run(campaign.id, now, HOUR, now, HOUR, other.id, now, now);
      tallyInserted(db, campaign.id, 'gb-summary-');
      const stored = getCampaign(db, campaign.id);
      if (!stored) throw new Error('campaign not stored');
      const deps = { engine, isRunning: () => false, nextPollAt: () => null };

      const s = summarize(deps, stored);
      expect(s.counts).toMatchObject({ failed: 30_000, cancelled: 10_000, ordered: 40_000 });
      // Every expired acceptance, whether or not a follow-up took it; of them, the ones a follow-up may still take.
      expect(s.acceptanceExpired).toBe(30_000);
      expect(s.followUpRows).toEqual({ failed: 22_500, cancelled: 7_500, expired: 22_500 });
      expect(s.retryable).toBe(22_500);
      expect(s.failedFollowedUp).toEqual([{ id: other.id, name: other.name, rows: 7_500 }]);

      // One condition: the follow-up's expired rows are the expired acceptances not taken yet, and
      // the rows it counts are exactly those isAcceptanceExpired calls expired (an expiry of exactly
      // now is not yet expired, in both).
      expect(FOLLOW_UP_ROWS_SQL.expired.startsWith(`${EXPIRED_ACCEPTANCE_SQL} AND `)).toBe(true);
      expect(db.prepare(`UPDATE recipients SET acceptance_expiry = ? WHERE campaign_id = ? AND line = 70002`).run(now, campaign.id).changes).toBe(1);
      const facts = db.prepare(`SELECT state, acceptance_expiry AS acceptanceExpiry FROM recipients WHERE campaign_id = ?`).all(campaign.id) as AcceptanceFacts[];
      const expiredByRule = facts.filter((r) => isAcceptanceExpired(r, now)).length;
      expect(expiredByRule).toBe(29_999);
      expect(countExpiredAcceptances(db, campaign.id, now)).toBe(expiredByRule);
      const plan = (sql: string) => JSON.stringify(db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ campaignId: 'x', now }));
      expect(plan(`SELECT count(*) FROM recipients WHERE ${EXPIRED_ACCEPTANCE_SQL}`)).toContain(
        'USING COVERING INDEX recipients_acceptance (campaign_id=? AND acceptance_expiry<?)',
      );
      expect(plan(`SELECT count(*) FROM recipients WHERE ${FOLLOW_UP_ROWS_SQL.expired}`)).toContain('USING INDEX recipients_acceptance (campaign_id=? AND acceptance_expiry<?)');

      // What the expired acceptances were charged (the Charged card's line, chargedExpired): the
      // same rows under the same condition, read through the same index, not every row.
      db.prepare(`UPDATE recipients SET charged_minor = 2500, charged_currency = 'USD', charged_text = '25.00' WHERE campaign_id = ? AND state = 'ordered'`).run(campaign.id);
      expect(chargedExpiredAcceptances(db, campaign.id, now)).toEqual([{ currency: 'USD', amount: '749975.00' }]);
      expect(plan(`SELECT charged_currency, decimal_sum(charged_text) FROM recipients WHERE ${EXPIRED_ACCEPTANCE_SQL} AND charged_text IS NOT NULL GROUP BY charged_currency`)).toContain(
        'USING INDEX recipients_acceptance (campaign_id=? AND acceptance_expiry<?)',
      );
      expect(summarize(deps, stored).chargedExpired).toEqual([{ currency: 'USD', amount: expect.stringMatching(/^(749975|750000)\.00$/) }]);
      // A charge too long to add as an integer: the texts themselves are summed, exactly.
      db.prepare(`UPDATE recipients SET charged_text = '1234567890123456789.00' WHERE campaign_id = ? AND line = 70001`).run(campaign.id);
      expect(chargedExpiredAcceptances(db, campaign.id, now)).toEqual([{ currency: 'USD', amount: '1234567890124206739.00' }]);
      db.prepare(`UPDATE recipients SET charged_text = '25.00' WHERE campaign_id = ? AND line = 70001`).run(campaign.id);

      // What a summary costs at this size, on this machine (reported, not asserted).
      const times: number[] = [];
      for (let i = 0; i < 9; i++) {
        const t0 = performance.now();
        summarize(deps, stored);
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      console.log(`summarize, 100,000 rows (30,000 expired acceptances, their charges summed): ${times[4]?.toFixed(1)} ms median, ${times[0]?.toFixed(1)}–${times[8]?.toFixed(1)} ms`);
    } finally {
      await engine.close();
    }
  }, 120_000);
});
