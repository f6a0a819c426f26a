// Issue 11, item 8: a run that lost its send lease (it stalled past it, and another process took
// the campaign over) sends nothing more, and leaves the campaign's state to the new holder.

import { describe, expect, it } from 'vitest';
import { createSendQueue } from '../../../../electron/core/campaigns/send-queue.ts';
import { getCampaign } from '../../../../electron/core/db/repos/campaigns.ts';
import { allRows, makeCampaign, startSimulator, tempDb } from '../../../support/index.ts';

const waitFor = async (check: () => boolean, timeoutMs = 5_000) => {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('a send lease lost mid-run', () => {
  it('stops the run before anything more is sent, and leaves the campaign to the process that holds it now', async () => {
    // Four requests a second: the rows after the first leave one by one, so there is time to act.
    const service = await startSimulator({}, { rate: 4, burst: 1 });
    const { db } = tempDb();
    const { campaign } = makeCampaign(db, { rows: 8, key: service.key, baseUrl: service.url });
    const queue = createSendQueue({ db, client: service.client, limiter: service.limiter, concurrency: 2, leaseTtlMs: 300 });
    const running = queue.run(campaign.id);

    await waitFor(() => allRows(db, campaign.id).some((r) => r.state === 'ordered'));
    // Another Giftbatch took the campaign over (this one had stalled past its lease).
    db.prepare(`UPDATE send_leases SET owner = 'elsewhere:77:x', host = 'elsewhere', pid = 77 WHERE campaign_id = ?`).run(campaign.id);
    const sentBefore = allRows(db, campaign.id).filter((r) => r.state !== 'ready').length;

    const result = await running;
    expect(result.stoppedBy).toBe('lease');
    expect(result.message).toMatch(/lost its hold on the campaign/);
    // At most the row already on its way when the lease went; every other row untouched.
    const rows = allRows(db, campaign.id);
    expect(rows.filter((r) => r.state !== 'ready').length).toBeLessThanOrEqual(sentBefore + 1);
    expect(rows.filter((r) => r.state === 'ready').length).toBeGreaterThanOrEqual(8 - sentBefore - 1);
    expect(service.account().orders.length).toBe(rows.filter((r) => r.orderId !== null).length);
    // Not paused from here: the campaign is the other process's to keep.
    expect(getCampaign(db, campaign.id)?.sendState).toBe('sending');
    // Its lease is left alone too.
    expect(db.prepare('SELECT owner FROM send_leases WHERE campaign_id = ?').pluck().get(campaign.id)).toBe('elsewhere:77:x');
  });
});
