// Issue 10, one way in: the giftbatch command calls the contract's handlers as the app does. What it
// needs of them beyond the app's screens: a send that only looks rows up (its pre-flight failed
// before anyone confirmed), a pre-flight that asks nothing under another account's key, a poll of a
// whole environment, and a clear refusal while another process sends the campaign.
import { describe, expect, it } from 'vitest';
import { orderBodyFor } from '../../../../electron/core/campaigns/order-body.ts';
import { keyFingerprint, SIMULATOR_LOCAL_KEY } from '../../../../electron/core/connections.ts';
import { getCampaign } from '../../../../electron/core/db/repos/campaigns.ts';
import { markSending } from '../../../../electron/core/db/repos/recipient-transitions.ts';
import { takeSendLease } from '../../../../electron/core/db/repos/send-leases.ts';
import { hostname } from 'node:os';
import { allRows, startSimulator, tempDir } from '../../../support/index.ts';
import { recipientsCsv, startService, waitFor } from '../../../support/app-harness.ts';

async function draft(rows = 4) {
  const service = await startSimulator({ itemDelayMs: 60_000 });
  const h = await startService(tempDir(), { simulatorUrl: service.url });
  const { products } = await h.ok('products:list', { environment: 'simulator', country: 'US' });
  const productId = products.find((p) => p.name === 'Northwind Books Gift Card $25')?.id ?? 0;
  const created = await h.ok('campaigns:create', { fileName: 'guests.csv', bytesBase64: recipientsCsv(rows), environment: 'simulator', productId, name: 'Gala', senderName: 'Gala team' });
  const requests = () => service.sim.audit().accounts[SIMULATOR_LOCAL_KEY]?.requests ?? {};
  const posts = () => Object.values(requests()['POST /v1/orders'] ?? {}).reduce((a, b) => a + b, 0);
  return { ...service, h, campaignId: created.id, requests, posts };
}

describe('what the command line asks of the handlers', () => {
  it('lookUpOnly sends nothing, even with a pre-flight that passes, and records what the row left sending became', async () => {
    const t = await draft();
    const db = t.h.engine.db;
    const row = allRows(db, t.campaignId)[0]!;
    const body = orderBodyFor(getCampaign(db, t.campaignId)!, row);
    markSending(db, row.id, body, Date.now());
    const { client } = t.makeClient({ key: SIMULATOR_LOCAL_KEY });
    expect((await client.createOrder(body)).kind).toBe('ok');

    const preflight = await t.h.ok('campaigns:preflight', { campaignId: t.campaignId });
    expect(preflight).toMatchObject({ ok: true, problems: [], rowsToSend: 4, accountChanged: null });
    const answer = await t.h.ok('campaigns:send', { campaignId: t.campaignId, confirmed: true, lookUpOnly: true });
    expect(answer.id).toBe(t.campaignId);
    const finished = await waitFor('the look-up to end', () => t.h.events.find((e) => e.name === 'campaign:finished')?.payload);
    expect(finished).toMatchObject({ lookedUp: { checked: 1, ordered: 1 } });
    expect(t.posts()).toBe(1);
    expect(allRows(db, t.campaignId).map((r) => r.state)).toEqual(['ordered', 'ready', 'ready', 'ready']);
  });

  it('a pre-flight under another account names it; with stopIfAccountChanged it asks the service nothing', async () => {
    const t = await draft();
    t.h.engine.db.prepare('UPDATE campaigns SET account_fingerprint = ? WHERE id = ?').run(keyFingerprint('another-account-key'), t.campaignId);
    const catalogReads = () => Object.values(t.requests()['GET /v1/products'] ?? {}).reduce((a, b) => a + b, 0);

    const before = catalogReads();
    const stopped = await t.h.ok('campaigns:preflight', { campaignId: t.campaignId, stopIfAccountChanged: true });
    expect(stopped).toMatchObject({ ok: false, rowsToSend: 4, totals: [{ currency: 'USD', amount: '100.00' }], accountChanged: expect.stringContaining('was sent under another API key') });
    expect(catalogReads()).toBe(before);

    const full = await t.h.ok('campaigns:preflight', { campaignId: t.campaignId });
    expect(full).toMatchObject({ ok: true, accountChanged: expect.stringContaining('--same-account') });
    expect(catalogReads()).toBeGreaterThan(before);
    expect(t.posts()).toBe(0);
  });

  it('environments:checkNow polls every undelivered order of the environment, with the next round by the schedule', async () => {
    const t = await draft(3);
    await t.h.ok('campaigns:send', { campaignId: t.campaignId, confirmed: true });
    await waitFor('the send to finish', () => t.h.events.some((e) => e.name === 'campaign:finished'));
    const round = await t.h.ok('environments:checkNow', { environment: 'simulator' });
    expect(round).toMatchObject({ tracked: 3, waiting: 3, settled: 0, expired: 0, error: null });
    expect(round.requests).toBeGreaterThan(0);
    expect(round.nextCheckInMs).toBeGreaterThanOrEqual(30_000);
    const one = await t.h.ok('campaigns:checkNow', { campaignId: t.campaignId });
    expect(one).toMatchObject({ tracked: 3, waiting: 3 });
  });

  it('a campaign another live process sends is refused at once with who sends it (not an internal error), and nothing is posted', async () => {
    const t = await draft();
    // The test runner's parent stands in for the other Giftbatch: a live process of this host.
    const taken = takeSendLease(t.h.engine.db, t.campaignId, { owner: 'other', host: hostname(), pid: process.ppid }, { now: Date.now(), ttlMs: 30_000 });
    expect(taken.ok).toBe(true);
    const refused = await t.h.service.invoke('campaigns:send', { campaignId: t.campaignId, confirmed: true });
    expect(refused).toMatchObject({ ok: false, error: { code: 'conflict', message: expect.stringMatching(/is being sent right now by another Giftbatch \(process \d+, since .*\).*nothing was sent from here/) } });
    expect(t.posts()).toBe(0);
  });

  it("products:availability: the supplier's stock of the one product asked about (the Gift step's warning)", async () => {
    const t = await draft(1);
    const { products } = await t.h.ok('products:list', { environment: 'simulator', country: 'US' });
    const idOf = (brand: string) => products.find((p) => p.brand === brand)?.id ?? 0;
    const reads = () => Object.entries(t.requests()).filter(([k]) => k.includes('/availability')).reduce((n, [, v]) => n + Object.values(v).reduce((a, b) => a + b, 0), 0);
    const before = reads();
    expect(await t.h.ok('products:availability', { environment: 'simulator', productId: idOf('Lumen Cinema') })).toMatchObject({ inStock: false, message: expect.stringContaining('no stock') });
    expect(await t.h.ok('products:availability', { environment: 'simulator', productId: idOf('Northwind Books') })).toMatchObject({ inStock: true });
    expect(reads() - before).toBe(2);
  });
});
