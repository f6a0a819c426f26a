// Issue 11, item 2: every start and resume runs the pre-flight, in every shell; a changed price
// charges nothing until the new totals are confirmed; a failed pre-flight never blocks the
// read-only reconciliation of rows that were being sent.
import { describe, expect, it } from 'vitest';
import { orderBodyFor } from '../../../../electron/core/campaigns/order-body.ts';
import { SIMULATOR_LOCAL_KEY } from '../../../../electron/core/connections.ts';
import { getCampaign } from '../../../../electron/core/db/repos/campaigns.ts';
import { markSending } from '../../../../electron/core/db/repos/recipient-transitions.ts';
import { allRows, startSimulator, tempDir } from '../../../support/index.ts';
import { recipientsCsv, startService, waitFor } from '../../../support/app-harness.ts';

async function draft(amountRows = 4) {
  const service = await startSimulator({ itemDelayMs: 60_000 });
  const h = await startService(tempDir(), { simulatorUrl: service.url });
  const { products } = await h.ok('products:list', { environment: 'simulator', country: 'US' });
  const productId = products.find((p) => p.name === 'Northwind Books Gift Card $25')?.id ?? 0;
  const file = { fileName: 'guests.csv', bytesBase64: recipientsCsv(amountRows) };
  const created = await h.ok('campaigns:create', { ...file, environment: 'simulator', productId, name: 'Gala', senderName: 'Gala team' });
  const posts = () => service.sim.audit().accounts[SIMULATOR_LOCAL_KEY]?.requests['POST /v1/orders'] ?? {};
  return { ...service, h, campaignId: created.id, posts };
}

/**
 * A previous run left the first row mid-send (its POST had reached the service) and was interrupted;
 * since then the catalog prices the product differently from what the rows were checked against.
 */
async function interruptedAfterProductChanged(t: Awaited<ReturnType<typeof draft>>): Promise<void> {
  const db = t.h.engine.db;
  const row = allRows(db, t.campaignId)[0]!;
  const body = orderBodyFor(getCampaign(db, t.campaignId)!, row);
  markSending(db, row.id, body, Date.now());
  db.prepare(`UPDATE campaigns SET send_state = 'paused', paused_reason = 'interrupted', paused_detail = 'closed' WHERE id = ?`).run(t.campaignId);
  const { client } = t.makeClient({ key: SIMULATOR_LOCAL_KEY });
  expect((await client.createOrder(body)).kind).toBe('ok');
  db.prepare(`UPDATE campaigns SET product_snapshot = json_set(product_snapshot, '$.amountMinor', 2000) WHERE id = ?`).run(t.campaignId);
}

describe('resume runs the pre-flight', () => {
  it('a product whose price changed since the import: Resume sends nothing, says why, and still looks up the row that was mid-send', async () => {
    const t = await draft();
    const db = t.h.engine.db;
    await interruptedAfterProductChanged(t);

    const refused = await t.h.service.invoke('campaigns:send', { campaignId: t.campaignId, confirmed: true });
    expect(refused).toMatchObject({ ok: false, error: { code: 'preflight', message: expect.stringContaining('changed since the rows were checked') } });
    await waitFor('the mid-send row to be looked up', () => allRows(db, t.campaignId)[0]?.state === 'ordered');
    // One POST in all (the one before), nothing sent now; the other rows stay ready.
    expect(Object.values(t.posts()).reduce((a, b) => a + b, 0)).toBe(1);
    expect(allRows(db, t.campaignId).filter((r) => r.state === 'ready')).toHaveLength(3);
  });

  it('totals that are not the ones confirmed send nothing; the confirmed ones send', async () => {
    const t = await draft();
    const wrong = await t.h.service.invoke('campaigns:send', { campaignId: t.campaignId, confirmed: true, totals: [{ currency: 'USD', amount: '50.00' }] });
    expect(wrong).toMatchObject({ ok: false, error: { code: 'preflight', message: expect.stringContaining('not the USD 50.00 that was confirmed') } });
    await waitFor('the held run to end', () => t.h.events.some((e) => e.name === 'campaign:finished'));
    expect(Object.keys(t.posts())).toHaveLength(0);

    await t.h.ok('campaigns:send', { campaignId: t.campaignId, confirmed: true, totals: [{ currency: 'USD', amount: '100.00' }] });
    await waitFor('the run to finish', () => t.h.events.filter((e) => e.name === 'campaign:finished').length === 2);
    expect(allRows(t.h.engine.db, t.campaignId).map((r) => r.state)).toEqual(['ordered', 'ordered', 'ordered', 'ordered']);
  });
});

describe('a product that changed: the rows are checked again in place', () => {
  it('keeps every key, so the row already ordered is not ordered again, and the rest are sent once', async () => {
    const t = await draft();
    const db = t.h.engine.db;
    await interruptedAfterProductChanged(t);
    const keys = allRows(db, t.campaignId).map((r) => r.externalReferenceId);

    const held = await t.h.service.invoke('campaigns:send', { campaignId: t.campaignId, confirmed: true });
    expect(held).toMatchObject({ ok: false, error: { code: 'preflight', message: expect.stringContaining('Check rows again') } });
    await waitFor('the hold to end', () => t.h.events.some((e) => e.name === 'campaign:finished'));
    expect(await t.h.ok('campaigns:get', { campaignId: t.campaignId })).toMatchObject({ sendState: 'paused', pausedReason: 'preflight' });

    const checked = await t.h.ok('campaigns:revalidate', { campaignId: t.campaignId });
    expect(checked).toMatchObject({ checked: 3, ready: 3, invalid: 0 });
    await t.h.ok('campaigns:send', { campaignId: t.campaignId, confirmed: true });
    await waitFor('the run to finish', () => t.h.events.filter((e) => e.name === 'campaign:finished').length === 2);

    const rows = allRows(db, t.campaignId);
    expect(rows.map((r) => r.externalReferenceId)).toEqual(keys);
    expect(rows.every((r) => r.state === 'ordered')).toBe(true);
    const orders = t.sim.audit().accounts[SIMULATOR_LOCAL_KEY]?.orders ?? [];
    expect(orders).toHaveLength(4);
    expect(new Set(orders.map((o) => o.externalReferenceId))).toEqual(new Set(keys));
  });
});

describe('recipients who already have a gift from this environment', () => {
  it('need an explicit confirmation before a second campaign sends them a second gift', async () => {
    const t = await draft(3);
    await t.h.ok('campaigns:send', { campaignId: t.campaignId, confirmed: true });
    await waitFor('the first campaign', () => t.h.events.some((e) => e.name === 'campaign:finished'));
    // The same three people, and one new one, in another campaign.
    const { products } = await t.h.ok('products:list', { environment: 'simulator', country: 'US' });
    const productId = products.find((p) => p.name === 'Northwind Books Gift Card $25')?.id ?? 0;
    // Imported on purpose (by default the import would skip them: issue 13).
    const again = await t.h.ok('campaigns:create', {
      fileName: 'again.csv',
      bytesBase64: recipientsCsv(4),
      environment: 'simulator',
      productId,
      name: 'Again',
      senderName: 'Gala team',
      repeats: { inCampaign: 'skip', earlier: 'send' },
    });
    const preflight = await t.h.ok('campaigns:preflight', { campaignId: again.id });
    expect(preflight.repeatRecipients).toEqual({ count: 3, lines: [2, 3, 4] });

    const refused = await t.h.service.invoke('campaigns:send', { campaignId: again.id, confirmed: true });
    expect(refused).toMatchObject({ ok: false, error: { code: 'repeat-recipients', message: expect.stringContaining('3 rows (lines 2, 3, 4) are for recipients who already have a gift') } });
    await waitFor('the hold to end', () => t.h.events.filter((e) => e.name === 'campaign:finished').length === 2);
    expect(t.sim.audit().accounts[SIMULATOR_LOCAL_KEY]?.orders).toHaveLength(3);

    await t.h.ok('campaigns:send', { campaignId: again.id, confirmed: true, allowRepeats: true });
    await waitFor('the second campaign', () => t.h.events.filter((e) => e.name === 'campaign:finished').length === 3);
    expect(t.sim.audit().accounts[SIMULATOR_LOCAL_KEY]?.orders).toHaveLength(7);
  });
});
