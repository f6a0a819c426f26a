// Issue 11, item 9: the charged totals counted cancelled and payment-expired orders without saying
// so. The app's summary (and the CLI's status) show that part apart.
import { campaignStatus } from '../../../../electron/cli/status.ts';
import { describe, expect, it } from 'vitest';
import { SIMULATOR_LOCAL_KEY } from '../../../../electron/core/connections.ts';
import { startSimulator, tempDir } from '../../../support/index.ts';
import { recipientsCsv, startService, waitFor } from '../../../support/app-harness.ts';

describe('charged totals of cancelled orders', () => {
  it('are shown apart from what was charged for gifts that can still deliver', async () => {
    const { sim, url } = await startSimulator({ itemDelayMs: 60_000 });
    const h = await startService(tempDir(), { simulatorUrl: url });
    const { products } = await h.ok('products:list', { environment: 'simulator', country: 'US' });
    const productId = products.find((p) => p.name === 'Northwind Books Gift Card $25')?.id ?? 0;
    const file = { fileName: 'guests.csv', bytesBase64: recipientsCsv(3) };
    const created = await h.ok('campaigns:create', { ...file, environment: 'simulator', productId, name: 'Gala', senderName: 'Gala team' });
    await h.ok('campaigns:send', { campaignId: created.id, confirmed: true });
    await waitFor('the run to finish', () => h.events.find((e) => e.name === 'campaign:finished'));

    const account = sim.audit().accounts[SIMULATOR_LOCAL_KEY];
    const [first, second] = account?.orders ?? [];
    sim.forceStatus(SIMULATOR_LOCAL_KEY, first?.id ?? 0, { orderStatus: 'CANCELLED' });
    sim.forceStatus(SIMULATOR_LOCAL_KEY, second?.id ?? 0, { orderStatus: 'PAYMENT_EXPIRED' });
    await h.ok('campaigns:checkNow', { campaignId: created.id });

    const summary = await h.ok('campaigns:get', { campaignId: created.id });
    expect(summary.counts).toMatchObject({ cancelled: 2, ordered: 1 });
    expect(summary.charged).toEqual([{ currency: 'USD', amount: '75.00' }]);
    expect(summary.chargedCancelled).toEqual([{ currency: 'USD', amount: '50.00' }]);
    expect(campaignStatus(summary).charged_cancelled).toEqual([{ currency: 'USD', amount: '50.00' }]);
  });
});
