// The summary is made every 100 ms while a campaign is being sent (campaigns:progress). Two of its
// reads grow with the campaign and say nothing a screen shows then: why the failed rows failed
// (failedReasons: ~66 ms for 100,000 failed rows; the failed-rows banner waits for the end of the
// send) and whether any row uses the campaign's own product (a full read of a campaign whose rows all
// name other products: 13–34 ms at 100,000). While it is sent, the first is left out and the second
// keeps its last answer; before and after, both are read.
import { describe, expect, it } from 'vitest';
import { summarize } from '../../../../electron/core/app/summary.ts';
import { getCampaign } from '../../../../electron/core/db/repos/campaigns.ts';
import { openEngine } from '../../../../electron/core/engine.ts';
import { createMemorySecretStore } from '../../../../electron/core/secrets/secret-store.ts';
import { makeCampaign, tempDir } from '../../../support/index.ts';

describe('the summary of a campaign being sent', () => {
  it('leaves out why rows failed, and keeps the products its rows use as last read', async () => {
    const engine = await openEngine({ dataDir: tempDir(), secrets: createMemorySecretStore(), env: {} });
    try {
      const { campaign, rowIds } = makeCampaign(engine.db, { rows: 4 });
      // Its rows all name another product (a follow-up of a gift per row); two failed on a 402.
      engine.db.prepare(`INSERT INTO campaign_products (campaign_id, product_id, snapshot) VALUES (?, 999, ?)`).run(campaign.id, JSON.stringify(campaign.product));
      engine.db.prepare(`UPDATE recipients SET product_id = 999 WHERE campaign_id = ?`).run(campaign.id);
      const fail = engine.db.prepare(
        `UPDATE recipients SET state = 'failed', request_body = '{}', attempts = 1, sent_at = 1,
           last_error = 'the order costs USD 25.00 but the balance is USD 0.00 (HTTP 402 INSUFFICIENT_BALANCE)' WHERE id = ?`,
      );
      fail.run(rowIds[0]);
      fail.run(rowIds[1]);
      let running = false;
      const summary = () => summarize({ engine, isRunning: () => running, nextPollAt: () => null }, getCampaign(engine.db, campaign.id)!);

      const idle = summary();
      expect(idle.failedReasons).toEqual([{ answer: 'HTTP 402 INSUFFICIENT_BALANCE', message: expect.stringContaining('the balance is USD 0.00'), rows: 2 }]);
      expect(idle.productList.map((p) => p.productId)).toEqual([999]);

      // Being sent: no grouping of failed rows, and a row given the campaign's own product meanwhile
      // (not a thing a send does) is not read until the send ends.
      running = true;
      engine.db.prepare(`UPDATE recipients SET product_id = NULL WHERE id = ?`).run(rowIds[3]);
      const sending = summary();
      expect(sending.running).toBe(true);
      expect(sending.failedReasons).toEqual([]);
      expect(sending.productList.map((p) => p.productId)).toEqual([999]);

      running = false;
      const after = summary();
      expect(after.failedReasons).toHaveLength(1);
      expect(after.productList.map((p) => p.productId)).toEqual([campaign.productId, 999]);
    } finally {
      await engine.close();
    }
  });
});
