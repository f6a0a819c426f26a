// The campaign summary carries the campaign's default amount (defaultAmount): what a row without an
// amount of its own is given, so a window that reopens a draft from the list checks an edited row as
// the engine will (a cleared amount takes the default). Every call that answers a summary says it;
// a campaign made without one says null. Real SQLite, the simulator over HTTP.
import { describe, expect, it } from 'vitest';
import { startSimulator, tempDir } from '../../../support/index.ts';
import { csvBase64, startService } from '../../../support/app-harness.ts';

async function rangeCampaigns() {
  const service = await startSimulator({ itemDelayMs: 60_000 });
  const h = await startService(tempDir(), { simulatorUrl: service.url });
  const { products } = await h.ok('products:list', { environment: 'simulator', country: 'US' });
  const range = products.find((p) => p.unorderableReason === null && p.price.kind === 'range' && p.currency === 'USD');
  if (!range) throw new Error('the simulator lists no orderable USD range product for US');
  const create = (name: string, defaultAmount?: string) =>
    h.ok('campaigns:create', {
      // Line 2 has its own amount, line 3 none.
      fileName: 'guests.csv',
      bytesBase64: csvBase64(['Name,Email,Amount', 'Guest A,a@example.com,40', 'Guest B,b@example.com,']),
      environment: 'simulator',
      productId: range.id,
      country: 'US',
      name,
      senderName: 'Events team',
      ...(defaultAmount !== undefined ? { defaultAmount } : {}),
    });
  return { h, create };
}

describe('the campaign summary carries its default amount', () => {
  it('is the amount a range-product campaign was made with, in what create, get and list answer; null without one', async () => {
    const { h, create } = await rangeCampaigns();
    const withDefault = await create('With a default', '25');
    const without = await create('Without a default');
    expect(withDefault.defaultAmount).toEqual({ currency: 'USD', amount: '25.00' });
    expect(without.defaultAmount).toBeNull();
    expect((await h.ok('campaigns:get', { campaignId: withDefault.id })).defaultAmount).toEqual({ currency: 'USD', amount: '25.00' });
    expect((await h.ok('campaigns:get', { campaignId: without.id })).defaultAmount).toBeNull();
    const { campaigns } = await h.ok('campaigns:list', {});
    expect(Object.fromEntries(campaigns.map((c) => [c.name, c.defaultAmount]))).toEqual({
      'With a default': { currency: 'USD', amount: '25.00' },
      'Without a default': null,
    });
    // The row without an amount took it at import; without a default it is invalid and says so.
    expect(withDefault.counts).toMatchObject({ ready: 2, invalid: 0 });
    expect(without.counts).toMatchObject({ ready: 1, invalid: 1 });
  });

  it('is what the engine gives a row whose amount an edit clears: the default, or the missing-amount error without one', async () => {
    const { h, create } = await rangeCampaigns();
    for (const [name, defaultAmount] of [['With a default', '25'], ['Without a default', undefined]] as const) {
      const campaign = await create(name, defaultAmount);
      const { rows } = await h.ok('campaigns:rows', { campaignId: campaign.id, offset: 0, limit: 10 });
      const first = rows.find((r) => r.line === 2);
      if (!first) throw new Error('line 2 is missing');
      expect(first.amount).toEqual({ currency: 'USD', amount: '40.00' });
      const edited = await h.ok('rows:edit', { rowId: first.id, name: first.name ?? '', email: first.email ?? '', amount: null, message: null });
      if (campaign.defaultAmount) {
        expect(edited).toMatchObject({ state: 'ready', amount: campaign.defaultAmount, errors: [] });
      } else {
        expect(edited.state).toBe('invalid');
        expect(edited.errors.map((e) => e.message)).toEqual(['Line 2: no amount and no default amount: enter an amount or set a default amount']);
      }
    }
  });
});
