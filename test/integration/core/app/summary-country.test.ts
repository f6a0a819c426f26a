// The campaign summary carries its country (countryCode): the country of the product it was
// validated against, so a window that reopens a draft from the list can read that country's catalog
// (the gifts its row editor offers). Every call that answers a summary says it; a product whose
// record stated no country says null. Real SQLite, the simulator over HTTP.
import { describe, expect, it } from 'vitest';
import { createCampaign } from '../../../../electron/core/db/repos/campaigns.ts';
import { campaignInput, person } from '../../../support/db-seed.ts';
import { startSimulator, tempDir } from '../../../support/index.ts';
import { recipientsCsv, startService } from '../../../support/app-harness.ts';

describe('the campaign summary names its country', () => {
  it('is the country of the product, in what create, get and list answer', async () => {
    const service = await startSimulator({ itemDelayMs: 60_000 });
    const h = await startService(tempDir(), { simulatorUrl: service.url });
    const made: Record<string, string> = {};
    for (const country of ['US', 'GB'] as const) {
      const { products } = await h.ok('products:list', { environment: 'simulator', country });
      const product = products.find((p) => p.unorderableReason === null && p.price.kind === 'fixed');
      if (!product) throw new Error(`the simulator lists no fixed-price product for ${country}`);
      const created = await h.ok('campaigns:create', {
        fileName: 'guests.csv',
        bytesBase64: recipientsCsv(2),
        environment: 'simulator',
        productId: product.id,
        country,
        name: `Guests ${country}`,
        senderName: 'Events team',
      });
      expect(created.countryCode).toBe(country);
      expect((await h.ok('campaigns:get', { campaignId: created.id })).countryCode).toBe(country);
      made[created.id] = country;
    }
    const { campaigns } = await h.ok('campaigns:list', {});
    expect(Object.fromEntries(campaigns.map((c) => [c.id, c.countryCode]))).toEqual(made);
  });

  it('is null for a campaign whose product stated no country', async () => {
    const h = await startService(tempDir());
    // The seed's snapshot, as a service that states no country_code leaves it.
    expect('countryCode' in campaignInput.product).toBe(false);
    const { campaign } = createCampaign(h.engine.db, campaignInput, [person(0)], h.engine.clock.now());
    const summary = await h.ok('campaigns:get', { campaignId: campaign.id });
    expect(summary.countryCode).toBeNull();
    expect((await h.ok('campaigns:list', {})).campaigns.map((c) => c.countryCode)).toEqual([null]);
  });
});
