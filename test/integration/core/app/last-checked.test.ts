// After a send, the campaign summary says when the service was last asked about its orders
// (lastPolledAt: "Last checked …" on the campaign screen, last_checked_at in `giftbatch status`),
// and how much of the charged total went to gifts whose recipient link expired unaccepted
// (chargedExpired, apart from the cancelled orders' chargedCancelled). Real SQLite, the simulator over HTTP.
import { describe, expect, it } from 'vitest';
import { campaignStatus } from '../../../../electron/cli/status.ts';
import { statusLine } from '../../../../electron/cli/commands/tracking.ts';
import { SIMULATOR_LOCAL_KEY } from '../../../../electron/core/connections.ts';
import { listCampaignRows } from '../../../../electron/core/db/repos/recipients.ts';
import { startSimulator, tempDir } from '../../../support/index.ts';
import { recipientsCsv, startService, waitFor } from '../../../support/app-harness.ts';

describe('the summary after a send', () => {
  it('says when the orders were last checked, and what the gifts whose link expired unaccepted were charged', async () => {
    // $100 vouchers the recipient must accept, their links valid 1.5 s.
    const { sim, url } = await startSimulator({ itemDelayMs: 60_000, recipientExpiryMs: 1_500, accounts: { [SIMULATOR_LOCAL_KEY]: { currency: 'USD', balance: '1000.00' } } });
    const h = await startService(tempDir(), { simulatorUrl: url });
    const { products } = await h.ok('products:list', { environment: 'simulator', country: 'US' });
    const productId = products.find((p) => p.name === 'Voyager Travel Voucher $100')?.id ?? 0;
    const created = await h.ok('campaigns:create', { fileName: 'guests.csv', bytesBase64: recipientsCsv(4), environment: 'simulator', productId, name: 'Summit', senderName: 'Summit team' });
    // A draft was never checked: nothing to say.
    expect(created.lastPolledAt).toBeNull();
    expect(campaignStatus(created).last_checked_at).toBeNull();
    expect(statusLine(campaignStatus(created))).not.toContain('last checked');

    await h.ok('campaigns:send', { campaignId: created.id, confirmed: true });
    await waitFor('the run to finish', () => h.events.find((e) => e.name === 'campaign:finished'));
    const [first] = sim.audit().accounts[SIMULATOR_LOCAL_KEY]?.orders ?? [];
    sim.forceStatus(SIMULATOR_LOCAL_KEY, first?.id ?? 0, { orderStatus: 'CANCELLED' });
    const expiries = () => listCampaignRows(h.engine.db, created.id).flatMap((r) => (r.state === 'ordered' && r.acceptanceExpiry !== null ? [r.acceptanceExpiry] : []));
    await h.ok('campaigns:checkNow', { campaignId: created.id });
    await waitFor('the links to expire', () => expiries().length === 3 && Date.now() > Math.max(...expiries()) + 50, 10_000);

    const asked = Date.now();
    await h.ok('campaigns:checkNow', { campaignId: created.id });
    const summary = await h.ok('campaigns:get', { campaignId: created.id });
    expect(summary).toMatchObject({ counts: { ordered: 3, cancelled: 1 }, acceptanceExpired: 3 });
    expect(summary.lastPolledAt).toBeGreaterThanOrEqual(asked);
    expect(summary.lastPolledAt).toBeLessThanOrEqual(Date.now());
    expect(summary.charged).toEqual([{ currency: 'USD', amount: '400.00' }]);
    expect(summary.chargedCancelled).toEqual([{ currency: 'USD', amount: '100.00' }]);
    expect(summary.chargedExpired).toEqual([{ currency: 'USD', amount: '300.00' }]);

    // The CLI reads the same summary: its JSON gains the fields, its line says them.
    const status = campaignStatus(summary);
    expect(status.last_checked_at).toBe(new Date(summary.lastPolledAt ?? 0).toISOString());
    expect(status.charged_expired).toEqual([{ currency: 'USD', amount: '300.00' }]);
    expect(status.charged_cancelled).toEqual([{ currency: 'USD', amount: '100.00' }]);
    const line = statusLine(status);
    expect(line).toContain('charged USD 400.00 (of which USD 100.00 for orders cancelled or never paid) (of which USD 300.00 for gifts whose recipient link expired unaccepted)');
    expect(line).toContain(`last checked ${status.last_checked_at?.slice(0, 19).replace('T', ' ')} UTC`);
  }, 60_000);
});
