// Through the contract's handlers, as the window and the command line reach the engine: a row left
// mid-send two days ago, not found under its key, with no earlier order of the service to show that
// its order list reaches back that far. The row waits for a person while the rest of the campaign is
// sent, and the run ends paused 'unconfirmed'; Resume alone changes nothing; Resume with the person's
// word (resendUnconfirmed: they found no order at the service) sends it once, under its key.
// Real parts: the app service and engine on a real SQLite file, the simulator over HTTP.
import { describe, expect, it } from 'vitest';
import { orderBodyFor } from '../../../../electron/core/campaigns/order-body.ts';
import { SIMULATOR_LOCAL_KEY } from '../../../../electron/core/connections.ts';
import { getCampaign } from '../../../../electron/core/db/repos/campaigns.ts';
import { markSending } from '../../../../electron/core/db/repos/recipient-transitions.ts';
import { allRows, startSimulator, tempDir } from '../../../support/index.ts';
import { recipientsCsv, startService, waitFor } from '../../../support/app-harness.ts';

const DAY = 24 * 3_600_000;

describe('a row whose empty lookup proves nothing, through the handlers', () => {
  it('sends the rest, pauses the campaign unconfirmed, and sends the row once when the person says the service has no order', async () => {
    const service = await startSimulator();
    const h = await startService(tempDir(), { simulatorUrl: service.url });
    const { products } = await h.ok('products:list', { environment: 'simulator', country: 'US' });
    const productId = products.find((p) => p.name === 'Northwind Books Gift Card $25')?.id ?? 0;
    const created = await h.ok('campaigns:create', { fileName: 'guests.csv', bytesBase64: recipientsCsv(2), environment: 'simulator', productId, name: 'Gala', senderName: 'Gala team' });
    const db = h.engine.db;
    const [first] = allRows(db, created.id);
    if (!first) throw new Error('no row');
    // An earlier run froze the first row's body two days ago and died before its POST left.
    markSending(db, first.id, orderBodyFor(getCampaign(db, created.id)!, first), Date.now() - 2 * DAY);
    db.prepare(`UPDATE campaigns SET send_state = 'paused', paused_reason = 'interrupted', paused_detail = 'closed' WHERE id = ?`).run(created.id);
    const orders = () => service.sim.audit().accounts[SIMULATOR_LOCAL_KEY]?.orders ?? [];
    const finished = () => h.events.filter((e) => e.name === 'campaign:finished').length;

    await h.ok('campaigns:send', { campaignId: created.id, confirmed: true });
    await waitFor('the run to end', () => finished() === 1);
    let summary = await h.ok('campaigns:get', { campaignId: created.id });
    expect(summary).toMatchObject({ sendState: 'paused', pausedReason: 'unconfirmed' });
    expect(summary.pausedDetail).toContain(`Look up the reference ${first.externalReferenceId}`);
    expect(summary.pausedDetail).toContain('press Resume and choose "Send them again"');
    // The other row went out; the held one did not.
    expect(allRows(db, created.id).map((r) => r.state)).toEqual(['sending', 'ordered']);
    expect(orders()).toHaveLength(1);
    const [row] = (await h.ok('campaigns:rows', { campaignId: created.id, states: ['sending'], offset: 0, limit: 10 })).rows;
    expect(row?.lastError).toMatch(/no earlier order of this service is known/);

    // Resume without the person's word: held again, nothing more sent.
    await h.ok('campaigns:send', { campaignId: created.id, confirmed: true });
    await waitFor('the second run to end', () => finished() === 2);
    expect((await h.ok('campaigns:get', { campaignId: created.id })).pausedReason).toBe('unconfirmed');
    expect(orders()).toHaveLength(1);

    await h.ok('campaigns:send', { campaignId: created.id, confirmed: true, resendUnconfirmed: true });
    await waitFor('the third run to end', () => finished() === 3);
    summary = await h.ok('campaigns:get', { campaignId: created.id });
    expect(summary.sendState).toBe('done');
    expect(orders().map((o) => o.externalReferenceId).sort()).toEqual(allRows(db, created.id).map((r) => r.externalReferenceId).sort());
    expect(allRows(db, created.id).map((r) => r.state)).toEqual(['ordered', 'ordered']);
    await h.close();
  });
});

describe('a held row whose order the person found at the service', () => {
  it('is given that order by its id (rows:recordOrder): another row\'s order and an unknown id are refused, the right one is recorded with its charge', async () => {
    // The service's clock starts two days back: the row's order is made then, and by now its list,
    // which shows only the last 6 hours unless given a date range, no longer shows it.
    let simNow = Date.now() - 2 * DAY;
    const service = await startSimulator({ now: () => simNow, dialect: { listWindowMs: 6 * 3_600_000 } });
    const h = await startService(tempDir(), { simulatorUrl: service.url });
    const { products } = await h.ok('products:list', { environment: 'simulator', country: 'US' });
    const productId = products.find((p) => p.name === 'Northwind Books Gift Card $25')?.id ?? 0;
    const created = await h.ok('campaigns:create', { fileName: 'guests.csv', bytesBase64: recipientsCsv(2), environment: 'simulator', productId, name: 'Gala', senderName: 'Gala team' });
    const db = h.engine.db;
    const [first, second] = allRows(db, created.id);
    if (!first || !second) throw new Error('no rows');
    const body = orderBodyFor(getCampaign(db, created.id)!, first);
    markSending(db, first.id, body, Date.now() - 2 * DAY);
    db.prepare(`UPDATE campaigns SET send_state = 'paused', paused_reason = 'interrupted', paused_detail = 'closed' WHERE id = ?`).run(created.id);
    const { client } = service.makeClient({ key: SIMULATOR_LOCAL_KEY });
    const made = await client.createOrder(body);
    if (made.kind !== 'ok') throw new Error('no order');
    simNow = Date.now();

    await h.ok('campaigns:send', { campaignId: created.id, confirmed: true });
    await waitFor('the run to end', () => h.events.some((e) => e.name === 'campaign:finished'));
    expect((await h.ok('campaigns:get', { campaignId: created.id })).pausedReason).toBe('unconfirmed');
    const held = (await h.ok('campaigns:rows', { campaignId: created.id, states: ['sending'], offset: 0, limit: 10 })).rows[0];
    expect(held?.heldAt).toEqual(expect.any(Number));
    const other = allRows(db, created.id).find((r) => r.id === second.id)?.orderId ?? 0;

    const wrong = await h.service.invoke('rows:recordOrder', { rowId: first.id, orderId: other });
    expect(wrong).toMatchObject({ ok: false, error: { code: 'invalid-input', message: expect.stringContaining("it is not this row's order") } });
    // It says whose order it is: two references may differ only in their last characters.
    expect(wrong).toMatchObject({ error: { message: expect.stringContaining(`(it is line ${second.line}'s, ${second.name ?? ''})`) } });
    const unknown = await h.service.invoke('rows:recordOrder', { rowId: first.id, orderId: 987_654 });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'not-found', message: expect.stringContaining('has no order 987654') } });

    const recorded = await h.ok('rows:recordOrder', { rowId: first.id, orderId: made.value.id });
    // Its gift was delivered meanwhile: recorded as its statuses say, not left 'ordered' until a poll.
    expect(recorded).toMatchObject({ state: 'delivered', orderId: made.value.id, itemStatus: 'COMPLETED', findings: [], charged: { currency: 'USD', amount: '25.00' }, heldAt: null });
    // Nothing more to hold or send: the campaign is done, with one order per row.
    expect((await h.ok('campaigns:get', { campaignId: created.id })).sendState).toBe('done');
    const orders = service.sim.audit().accounts[SIMULATOR_LOCAL_KEY]?.orders ?? [];
    expect(orders.map((o) => o.externalReferenceId).sort()).toEqual([first.externalReferenceId, second.externalReferenceId].sort());
    await h.close();
  });
});
