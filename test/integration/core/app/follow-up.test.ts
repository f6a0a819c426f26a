// campaigns:followUp through the app service: the follow-up campaign is made in the import worker
// and answered as the new draft's summary; its refusals cross as data with their own words.
import { describe, expect, it } from 'vitest';
import { SIMULATOR_LOCAL_KEY } from '../../../../electron/core/connections.ts';
import { listCampaignRows } from '../../../../electron/core/db/repos/recipients.ts';
import { recipientsCsv, startService, waitFor } from '../../../support/app-harness.ts';
import { startSimulator, tempDir } from '../../../support/index.ts';

describe('campaigns:followUp', () => {
  it('answers the new draft made from the failed rows, which then sends the usual way', async () => {
    // Room for two $25 gifts out of five: three refusals in a row pause the campaign.
    const { sim, url } = await startSimulator({ itemDelayMs: 60_000, accounts: { [SIMULATOR_LOCAL_KEY]: { currency: 'USD', balance: '50.00' } } });
    const h = await startService(tempDir(), { simulatorUrl: url, service: { queue: { concurrency: 1 } } });
    const { products } = await h.ok('products:list', { environment: 'simulator', country: 'US' });
    const productId = products.find((p) => p.name === 'Northwind Books Gift Card $25')?.id ?? 0;
    const file = { fileName: 'guests.csv', bytesBase64: recipientsCsv(5) };
    const source = await h.ok('campaigns:create', { ...file, environment: 'simulator', productId, name: 'Gala', senderName: 'Gala team' });

    // Nothing failed yet: a clear refusal, as data, and no campaign made.
    const early = await h.service.invoke('campaigns:followUp', { campaignId: source.id, include: ['failed', 'cancelled', 'expired'] });
    expect(early).toEqual({
      ok: false,
      error: {
        code: 'invalid-input',
        message: '"Gala" has no rows that failed, whose order was cancelled or whose acceptance link expired, so there is nothing to follow up and no campaign was made.',
      },
    });
    expect((await h.ok('campaigns:list', {})).campaigns).toHaveLength(1);
    const unknown = await h.service.invoke('campaigns:followUp', { campaignId: 'c_nosuchthing', include: ['failed'] });
    expect(unknown.ok ? null : unknown.error.code).toBe('not-found');
    const none = await h.service.invoke('campaigns:followUp', { campaignId: source.id, include: [] });
    expect(none.ok ? null : none.error.code).toBe('invalid-input');

    await h.ok('campaigns:send', { campaignId: source.id, confirmed: true });
    await waitFor('the run to end', () => h.events.find((e) => e.name === 'campaign:finished'));
    // Before a follow-up, every failed row is one a retry would put back.
    expect(await h.ok('campaigns:get', { campaignId: source.id })).toMatchObject({ counts: { ordered: 2, failed: 3 }, retryable: 3 });

    const followUp = await h.ok('campaigns:followUp', { campaignId: source.id, include: ['failed'], name: '  Gala, second try  ' });
    // The rows are the follow-up's now: still failed here, but none a retry would put back ("Retry N failed" is gone).
    expect(await h.ok('campaigns:get', { campaignId: source.id })).toMatchObject({ counts: { failed: 3 }, retryable: 0 });
    expect(followUp).toMatchObject({ name: 'Gala, second try', environment: 'simulator', productId, sendState: 'draft', currency: 'USD', running: false });
    expect(followUp.id).not.toBe(source.id);
    expect(followUp.counts).toMatchObject({ ready: 3, invalid: 0, ordered: 0, failed: 0 });
    expect(followUp.remaining).toEqual([{ currency: 'USD', amount: '75.00' }]);
    const sourceKeys = new Set(listCampaignRows(h.engine.db, source.id).map((r) => r.externalReferenceId));
    const rows = listCampaignRows(h.engine.db, followUp.id);
    expect(rows.map((r) => r.email)).toEqual(['guest2@example.com', 'guest3@example.com', 'guest4@example.com']);
    expect(rows.some((r) => sourceKeys.has(r.externalReferenceId))).toBe(false);

    sim.setAccount(SIMULATOR_LOCAL_KEY, { balance: '100.00' });
    const preflight = await h.ok('campaigns:preflight', { campaignId: followUp.id });
    expect(preflight).toMatchObject({ ok: true, rowsToSend: 3, totals: [{ currency: 'USD', amount: '75.00' }], repeatRecipients: { count: 0 } });
    await h.ok('campaigns:send', { campaignId: followUp.id, confirmed: true, totals: [{ currency: 'USD', amount: '75.00' }] });
    await waitFor('the follow-up to be sent', () => h.events.filter((e) => e.name === 'campaign:finished').length === 2);
    expect((await h.ok('campaigns:get', { campaignId: followUp.id })).counts).toMatchObject({ ordered: 3 });
    expect((await h.ok('campaigns:get', { campaignId: source.id })).counts).toMatchObject({ ordered: 2, failed: 3 });
    expect(sim.audit().accounts[SIMULATOR_LOCAL_KEY]?.orders).toHaveLength(5);

    // The source's failed rows are the follow-up's now: never retried there, nor followed up again
    // (before either, two drafts of the same rows could both pass their pre-flights and both pay).
    const retried = await h.ok('campaigns:retryFailed', { campaignId: source.id });
    expect(retried).toMatchObject({ requeued: 0, campaign: { counts: { failed: 3 }, retryable: 0 } });
    const failedRow = listCampaignRows(h.engine.db, source.id).find((r) => r.state === 'failed');
    expect(failedRow?.followedUpIn).toBe(followUp.id);
    const one = await h.service.invoke('rows:retry', { rowId: failedRow?.id ?? 0 });
    expect(one).toMatchObject({ ok: false, error: { code: 'conflict', message: expect.stringContaining('taken into a follow-up campaign') } });
    const twice = await h.service.invoke('campaigns:followUp', { campaignId: source.id, include: ['failed'] });
    expect(twice).toMatchObject({ ok: false, error: { code: 'invalid-input', message: expect.stringContaining('nothing to follow up') } });
    expect(sim.audit().accounts[SIMULATOR_LOCAL_KEY]?.orders).toHaveLength(5);
  }, 60_000);

  it('refuses while the campaign is being sent: its rows still move', async () => {
    const { url } = await startSimulator({ itemDelayMs: 60_000, latencyMs: 300 });
    const h = await startService(tempDir(), { simulatorUrl: url, service: { queue: { concurrency: 1 } } });
    const { products } = await h.ok('products:list', { environment: 'simulator', country: 'US' });
    const productId = products.find((p) => p.name === 'Northwind Books Gift Card $25')?.id ?? 0;
    const file = { fileName: 'guests.csv', bytesBase64: recipientsCsv(10) };
    const source = await h.ok('campaigns:create', { ...file, environment: 'simulator', productId, name: 'Gala', senderName: 'Gala team' });
    await h.ok('campaigns:send', { campaignId: source.id, confirmed: true });
    const busy = await h.service.invoke('campaigns:followUp', { campaignId: source.id, include: ['failed'] });
    expect(busy).toEqual({
      ok: false,
      error: { code: 'conflict', message: '"Gala" is being sent right now: pause it or let it finish, then make the follow-up campaign.' },
    });
    await h.ok('campaigns:pause', { campaignId: source.id });
  }, 60_000);
});
