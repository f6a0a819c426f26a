// Issue 11, item 6: the same refusal again and again (here: the balance ran out) pauses the campaign
// with the service's words instead of failing every row at full speed; failed rows are retried in
// bulk with their keys, and none is paid twice.
import { describe, expect, it } from 'vitest';
import { SIMULATOR_LOCAL_KEY } from '../../../../electron/core/connections.ts';
import { allRows, startSimulator, tempDir } from '../../../support/index.ts';
import { recipientsCsv, startService, waitFor } from '../../../support/app-harness.ts';

describe('a service that refuses every order the same way', () => {
  it('pauses the campaign after a few identical refusals, and the failed rows retried in bulk are each ordered once', async () => {
    const { sim, url } = await startSimulator({ itemDelayMs: 60_000, accounts: { [SIMULATOR_LOCAL_KEY]: { currency: 'USD', balance: '60.00' } } });
    const h = await startService(tempDir(), { simulatorUrl: url, service: { queue: { concurrency: 2 } } });
    const { products } = await h.ok('products:list', { environment: 'simulator', country: 'US' });
    const productId = products.find((p) => p.name === 'Northwind Books Gift Card $25')?.id ?? 0;
    const file = { fileName: 'guests.csv', bytesBase64: recipientsCsv(30) };
    const created = await h.ok('campaigns:create', { ...file, environment: 'simulator', productId, name: 'Gala', senderName: 'Gala team' });
    await h.ok('campaigns:send', { campaignId: created.id, confirmed: true });
    await waitFor('the run to end', () => h.events.find((e) => e.name === 'campaign:finished'));

    const paused = await h.ok('campaigns:get', { campaignId: created.id });
    expect(paused).toMatchObject({ sendState: 'paused', pausedReason: 'refused' });
    expect(paused.pausedDetail).toMatch(/refused 3 orders in a row with the same answer: the order costs USD 25.00 but the balance is USD 10.00.*\(HTTP 402 INSUFFICIENT_BALANCE\)/);
    // Two gifts fitted the balance; a few rows failed (3, and at most one more already on its way); the rest wait.
    expect(paused.counts.ordered).toBe(2);
    expect(paused.counts.failed).toBeGreaterThanOrEqual(3);
    expect(paused.counts.failed).toBeLessThanOrEqual(4);
    expect(paused.counts.ready).toBe(30 - 2 - paused.counts.failed);

    // The balance is topped up; the failed rows go back in one step, and the campaign is sent again.
    sim.setAccount(SIMULATOR_LOCAL_KEY, { balance: '10000.00' });
    const retried = await h.ok('campaigns:retryFailed', { campaignId: created.id });
    expect(paused.retryable).toBe(paused.counts.failed);
    expect(retried.requeued).toBe(paused.retryable);
    expect(retried.campaign.counts).toMatchObject({ failed: 0, ready: 28 });
    expect(retried.campaign.retryable).toBe(0);
    await h.ok('campaigns:send', { campaignId: created.id, confirmed: true });
    await waitFor('the second run to end', () => h.events.filter((e) => e.name === 'campaign:finished').length === 2);

    const rows = allRows(h.engine.db, created.id);
    expect(rows.every((r) => r.state === 'ordered')).toBe(true);
    const orders = sim.audit().accounts[SIMULATOR_LOCAL_KEY]?.orders ?? [];
    expect(orders).toHaveLength(30);
    expect(new Set(orders.map((o) => o.externalReferenceId))).toEqual(new Set(rows.map((r) => r.externalReferenceId)));
  });
});
