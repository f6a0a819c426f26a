// Issue 13, repeated recipients: the import step's "Ready to send" and cost are what the draft will
// send under the choices ticked. The preview answers the figure for each of the four choices
// (totals.toSend); campaigns:create with that choice then holds exactly that many ready rows, that
// many skipped by a repeat policy, and that face value, per currency and per product.
import { describe, expect, it } from 'vitest';
import { SIMULATOR_LOCAL_KEY } from '../../../../electron/core/connections.ts';
import { csvBase64, startService, waitFor } from '../../../support/app-harness.ts';
import { startSimulator, tempDir } from '../../../support/index.ts';

describe('the preview counts what the draft will send under each repeat choice', () => {
  it('equals what campaigns:create with that choice has to send', async () => {
    const { url } = await startSimulator({ itemDelayMs: 60_000, accounts: { [SIMULATOR_LOCAL_KEY]: { currency: 'USD', balance: '1000.00' } } });
    const h = await startService(tempDir(), { simulatorUrl: url, service: { queue: { concurrency: 1 } } });
    const { products } = await h.ok('products:list', { environment: 'simulator', country: 'US' });
    const idOf = (name: string) => products.find((p) => p.name === name)?.id ?? 0;
    const books = idOf('Northwind Books Gift Card $25');
    const fifty = idOf('Pinecrest Outfitters $50');
    const market = idOf('Harborline Market eGift');

    // An earlier campaign gives Ada and Cleo a gift (ordered): they are earlier recipients now.
    const earlier = await h.ok('campaigns:create', {
      fileName: 'earlier.csv',
      bytesBase64: csvBase64(['Name,Email', 'Ada,ada@example.com', 'Cleo,cleo@example.com']),
      environment: 'simulator',
      productId: books,
      name: 'Earlier',
      senderName: 'Team',
    });
    await h.ok('campaigns:send', { campaignId: earlier.id, confirmed: true });
    await waitFor('the earlier campaign to be sent', () => h.events.find((e) => e.name === 'campaign:finished'));
    expect((await h.ok('campaigns:get', { campaignId: earlier.id })).counts).toMatchObject({ ordered: 2 });

    const file = {
      fileName: 'tiers.csv',
      bytesBase64: csvBase64([
        'Name,Email,Product,Amount',
        `Ada,ada@example.com,${fifty},`, // line 2: earlier recipient
        'Bo,bo@example.com,,', // 3: kept always
        `Bo again,BO@example.com,${fifty},`, // 4: repeats line 3
        'Ada again,ada@example.com,,', // 5: repeats line 2 and an earlier recipient
        'Cleo,cleo@example.com,Harborline Market eGift,40', // 6: earlier recipient
        'Dee,dee@example.com,Harborline Market eGift,30', // 7: kept always
        'Bad,not-an-address,,', // 8: invalid, neither sent nor skipped by a policy
        'Dee again,dee@example.com,Harborline Market eGift,20', // 9: repeats line 7
      ]),
      environment: 'simulator' as const,
      productId: books,
      country: 'US',
    };
    const preview = await h.ok('campaigns:previewImport', file);
    expect(preview.totals).toMatchObject({ rows: 8, valid: 7, invalid: 1 });
    const usd = (amount: string) => [{ currency: 'USD', amount }];
    const figure = (inCampaign: 'skip' | 'send', earlierChoice: 'skip' | 'send') =>
      preview.totals.toSend.find((f) => f.repeats.inCampaign === inCampaign && f.repeats.earlier === earlierChoice);
    // The figures themselves, worked out by hand from the file above.
    expect(figure('skip', 'skip')).toEqual({
      repeats: { inCampaign: 'skip', earlier: 'skip' },
      rows: 2,
      skipped: 5,
      amounts: usd('55.00'),
      byProduct: [
        { productId: books, rows: 1, amounts: usd('25.00') },
        { productId: market, rows: 1, amounts: usd('30.00') },
      ],
    });
    expect(figure('send', 'skip')).toMatchObject({ rows: 4, skipped: 3, amounts: usd('125.00') });
    expect(figure('skip', 'send')).toMatchObject({ rows: 4, skipped: 3, amounts: usd('145.00') });
    expect(figure('send', 'send')).toMatchObject({ rows: 7, skipped: 0, amounts: usd('240.00') });
    // Every valid row, whatever is chosen: the existing totals keep their meaning.
    expect(preview.totals.amounts).toEqual(usd('240.00'));
    expect(preview.totals.byProduct).toEqual(figure('send', 'send')?.byProduct);

    expect(preview.totals.toSend).toHaveLength(4);
    for (const f of preview.totals.toSend) {
      const made = await h.ok('campaigns:create', { ...file, name: `Tiers ${f.repeats.inCampaign}/${f.repeats.earlier}`, senderName: 'Team', repeats: f.repeats });
      const what = `${f.repeats.inCampaign}/${f.repeats.earlier}`;
      expect({ what, ready: made.counts.ready, skipped: made.counts.skipped, invalid: made.counts.invalid }).toEqual({ what, ready: f.rows, skipped: f.skipped, invalid: 1 });
      expect(made.remaining).toEqual(f.amounts);
      const preflight = await h.ok('campaigns:preflight', { campaignId: made.id });
      expect(preflight.rowsToSend).toBe(f.rows);
      expect(preflight.totals).toEqual(f.amounts);
      const perProduct = (list: readonly { productId: number; rows: number }[]) => [...list].map((p) => [p.productId, p.rows]).sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0));
      expect(perProduct(preflight.byProduct)).toEqual(perProduct(f.byProduct));
      for (const p of f.byProduct) expect(preflight.byProduct.find((q) => q.productId === p.productId)?.totals).toEqual(p.amounts);
    }
  }, 60_000);
});
