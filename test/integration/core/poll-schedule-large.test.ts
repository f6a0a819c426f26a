// Issue 11, item 9: the poll schedule of a very large environment. It used Math.max(...rows) over
// every tracked row, which throws past ~125,000 rows and broke polling.

import { describe, expect, it } from 'vitest';
import { tempDir } from '../../support/temp-dirs.ts';
import type { Connection } from '../../../electron/core/connections.ts';
import { openEngine } from '../../../electron/core/engine.ts';
import { createMemorySecretStore } from '../../../electron/core/secrets/secret-store.ts';
import { makeCampaign } from '../../support/index.ts';

describe('the poll schedule', () => {
  it('works out the next round for 150,000 tracked orders', async () => {
    const engine = await openEngine({ dataDir: tempDir('giftbatch-poll-'), secrets: createMemorySecretStore(), env: {} });
    try {
      const baseUrl = 'http://127.0.0.1:1';
      const { campaign } = makeCampaign(engine.db, { rows: 1, baseUrl });
      const now = Date.now();
      // 150,000 ordered rows in one statement (an import of that size takes far longer).
      engine.db
        .prepare(
          `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 150000)
           INSERT INTO recipients (campaign_id, line, name, email, amount_minor, currency, state, external_reference_id,
             request_body, order_id, ordered_at, created_at, updated_at)
           SELECT ?, i + 2, 'R', 'r' || i || '@example.com', 2500, 'USD', 'ordered', 'gb-poll-' || i, '{}', i, ? - i, ?, ?
           FROM n`,
        )
        .run(campaign.id, now, now, now);
      const connection = { environment: 'simulator', baseUrl, url: baseUrl } as Connection;
      // The newest order is seconds old: the next round is 30–60 s away.
      const delay = engine.nextPollDelay(connection);
      expect(delay).toBeGreaterThanOrEqual(30_000);
      expect(delay).toBeLessThanOrEqual(60_000);
      expect(engine.nextPollDelay(connection, campaign.id)).toBeLessThanOrEqual(60_000);
    } finally {
      await engine.close();
    }
  }, 60_000);
});
