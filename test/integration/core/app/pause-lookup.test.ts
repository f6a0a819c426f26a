// A campaign the app sends pauses for repeated refusals (the balance ran out) just after one order's
// 200 was cut off: the run looks that row up by its key before it ends (send-queue.ts
// lookUpOnPause), so the campaign's charged total equals the service's at once and `campaign:finished`
// says the row was found ordered (the CLI prints it). Real parts: the app service, a SQLite file, the
// simulator over HTTP; the fault is the simulator's own, seeded: of the POSTs, only the second is
// cut off (seed 491, probability 0.5), and its retry is put a minute away so the pause comes first.
import { describe, expect, it } from 'vitest';
import { SIMULATOR_LOCAL_KEY } from '../../../../electron/core/connections.ts';
import { allRows, startSimulator, tempDir } from '../../../support/index.ts';
import { recipientsCsv, startService, waitFor } from '../../../support/app-harness.ts';

describe('a pause with the service reachable', () => {
  it('records the order whose answer was cut off as the balance ran out: charged total equal to the service\'s, nothing sent twice', async () => {
    const { sim, url } = await startSimulator({
      itemDelayMs: 60_000,
      accounts: { [SIMULATOR_LOCAL_KEY]: { currency: 'USD', balance: '60.00' } },
      faults: { truncate: 0.5, seed: 491 },
    });
    const h = await startService(tempDir(), {
      simulatorUrl: url,
      service: { queue: { concurrency: 2, backoff: { baseMs: 60_000, capMs: 60_000 }, random: () => 0.5 } },
    });
    const { products } = await h.ok('products:list', { environment: 'simulator', country: 'US' });
    const productId = products.find((p) => p.name === 'Northwind Books Gift Card $25')?.id ?? 0;
    const created = await h.ok('campaigns:create', { fileName: 'guests.csv', bytesBase64: recipientsCsv(8), environment: 'simulator', productId, name: 'Gala', senderName: 'Gala team' });
    await h.ok('campaigns:send', { campaignId: created.id, confirmed: true });
    const finished = await waitFor('the run to end', () => h.events.find((e) => e.name === 'campaign:finished')?.payload);

    const account = sim.audit().accounts[SIMULATOR_LOCAL_KEY];
    if (!account) throw new Error('no account at the simulator');
    // The race happened: two orders made (USD 50 of the 60), the second's answer cut off, then refusals.
    expect(account.faults.truncate).toBe(1);
    expect(account.orders).toHaveLength(2);
    const paused = await h.ok('campaigns:get', { campaignId: created.id });
    expect(paused).toMatchObject({ sendState: 'paused', pausedReason: 'refused' });
    expect(finished).toMatchObject({ lookedUp: { checked: 1, ordered: 1 } });
    expect(paused.counts).toMatchObject({ ordered: 2, sending: 0 });
    expect(paused.charged).toEqual(account.chargedTotals.map((m) => ({ currency: m.currency, amount: m.amount })));
    expect(paused.charged).toEqual([{ currency: 'USD', amount: '50.00' }]);
    // Nothing sent twice: one POST per row that left, no duplicate, no second order under a key.
    const rows = allRows(h.engine.db, created.id);
    const posted = Object.values(account.requests['POST /v1/orders'] ?? {}).reduce((a, b) => a + b, 0);
    expect(posted).toBe(rows.filter((r) => r.state !== 'ready').length);
    expect(account.duplicates).toEqual([]);
    for (const order of account.orders) expect(rows.find((r) => r.externalReferenceId === order.externalReferenceId)).toMatchObject({ state: 'ordered', orderId: order.id });
  });
});
