// Rows held for a person (left `sending`, their empty lookup by key proving nothing: heldAt set) have
// one definition in the engine, HELD_ROW_SQL: the summary's heldRows counts every one, and
// campaigns:rows' `held` filter lists them, however many there are. The command line's note on resume
// and the window's panel both read these (before, the CLI counted the held rows among the first 5,000
// rows `sending`, the window among the first 100).
import { describe, expect, it } from 'vitest';
import { createAppService } from '../../../../electron/core/app/index.ts';
import { openEngine } from '../../../../electron/core/engine.ts';
import { createMemorySecretStore } from '../../../../electron/core/secrets/secret-store.ts';
import { makeCampaign, tempDir } from '../../../support/index.ts';

describe('rows held for a person', () => {
  it('are counted in the summary and listed by campaigns:rows held: true, every one, beyond 5,000 rows sending', async () => {
    const engine = await openEngine({ dataDir: tempDir('giftbatch-held-rows-'), secrets: createMemorySecretStore(), env: {} });
    const app = createAppService({ engine, shell: 'browser', env: {}, polling: { startDelayMs: 3_600_000 } });
    try {
      const { campaign } = makeCampaign(engine.db, { rows: 6_000 });
      const { campaign: other } = makeCampaign(engine.db, { rows: 3 });
      const now = engine.clock.now();
      // 5,700 rows left sending, 5,200 of them held (the others wait for their next attempt); one
      // ordered row keeps an old held_at (held once, then recorded): not held now.
      const leave = engine.db.prepare(
        `UPDATE recipients SET state = 'sending', request_body = '{}', attempts = 1, sent_at = @now, held_at = CASE WHEN line <= @held + 1 THEN @now END
          WHERE campaign_id = @campaignId AND line <= @sending + 1`,
      );
      leave.run({ campaignId: campaign.id, now, held: 5_200, sending: 5_700 });
      engine.db.prepare(`UPDATE recipients SET state = 'ordered', order_id = 1, request_body = '{}', sent_at = @now, held_at = @now WHERE campaign_id = @campaignId AND line = 6001`).run({ campaignId: campaign.id, now });
      leave.run({ campaignId: other.id, now, held: 1, sending: 2 });
      const get = async (campaignId: string) => {
        const r = await app.invoke('campaigns:get', { campaignId });
        if (!r.ok) throw new Error(r.error.message);
        return r.value;
      };
      const heldPage = async (campaignId: string, offset: number, limit: number) => {
        const r = await app.invoke('campaigns:rows', { campaignId, held: true, offset, limit });
        if (!r.ok) throw new Error(r.error.message);
        return r.value;
      };

      const s = await get(campaign.id);
      expect(s.counts.sending).toBe(5_700);
      expect(s.heldRows).toBe(5_200);
      expect((await get(other.id)).heldRows).toBe(1);

      const first = await heldPage(campaign.id, 0, 100);
      expect(first.total).toBe(5_200);
      expect(first.rows).toHaveLength(100);
      expect(first.rows.every((r) => r.state === 'sending' && r.heldAt === now)).toBe(true);
      const last = await heldPage(campaign.id, 5_100, 200);
      expect(last.rows.map((r) => r.line)).toEqual(Array.from({ length: 100 }, (_, i) => 5_102 + i));
      // The filter goes with the others: the held rows among the rows sending, none among the ordered.
      const r = await app.invoke('campaigns:rows', { campaignId: campaign.id, held: true, states: ['ordered'] });
      expect(r.ok && r.value.total).toBe(0);

      // A campaign with no row sending reads no row to say so.
      const { campaign: none } = makeCampaign(engine.db, { rows: 2 });
      expect((await get(none.id)).heldRows).toBe(0);
    } finally {
      await app.close();
      await engine.close();
    }
  });
});
