// Issue 11, item 1, through the contract: a row corrected in the app while its campaign is being
// sent is sent with the corrected values, and the app shows what was sent.
import { describe, expect, it } from 'vitest';
import { SIMULATOR_LOCAL_KEY } from '../../../../electron/core/connections.ts';
import { startSimulator, tempDir } from '../../../support/index.ts';
import { recipientsCsv, startService, waitFor } from '../../../support/app-harness.ts';

describe('an edit while the campaign is sending', () => {
  it('a row still waiting is sent with its corrected address', async () => {
    const { sim, url } = await startSimulator({ itemDelayMs: 60_000 });
    const h = await startService(tempDir(), { simulatorUrl: url });
    // Two orders a second: the last rows wait for their turn, already read by the queue.
    await h.ok('environments:update', { environment: 'simulator', rate: 2 });
    const { products } = await h.ok('products:list', { environment: 'simulator', country: 'US' });
    const productId = products.find((p) => p.name === 'Northwind Books Gift Card $25')?.id ?? 0;
    const created = await h.ok('campaigns:create', { fileName: 'g.csv', bytesBase64: recipientsCsv(4), environment: 'simulator', productId, name: 'Gala', senderName: 'Gala team' });
    await h.ok('campaigns:send', { campaignId: created.id, confirmed: true });

    const { rows } = await h.ok('campaigns:rows', { campaignId: created.id });
    const last = rows.at(-1)!;
    expect(last.state).toBe('ready');
    const edited = await h.ok('rows:edit', { rowId: last.id, name: 'Fixed Name', email: 'fixed@example.com', amount: null, message: null });
    expect(edited).toMatchObject({ state: 'ready', email: 'fixed@example.com' });

    await waitFor('the run to finish', () => h.events.find((e) => e.name === 'campaign:finished'), 30_000);
    const after = (await h.ok('campaigns:rows', { campaignId: created.id })).rows.find((r) => r.id === last.id);
    expect(after).toMatchObject({ state: 'ordered', email: 'fixed@example.com' });
    // The service's own record: the gift went to the corrected address.
    const order = sim.audit().accounts[SIMULATOR_LOCAL_KEY]?.orders.find((o) => o.externalReferenceId === last.externalReferenceId);
    expect(order).toBeDefined();
    const fetched = await fetch(`${url}/v1/orders/${order?.id}`, { headers: { 'SERVICE-API-KEY': SIMULATOR_LOCAL_KEY } });
    expect(((await fetched.json()) as { delivery: { recipient: { email: string; name: string } } }).delivery.recipient).toEqual({ name: 'Fixed Name', email: 'fixed@example.com' });
  }, 40_000);
});
