// A campaign sent while some rows needed fixing ends `done` with those rows unsent. Corrected on the
// campaign screen (rows:edit), they are sent through the same pre-flight and campaigns:send as the
// first send: one more order, for the corrected row only, with its corrected values, never a second
// order for a row already sent.
import { describe, expect, it } from 'vitest';
import { SIMULATOR_LOCAL_KEY } from '../../../../electron/core/connections.ts';
import { startSimulator, tempDir } from '../../../support/index.ts';
import { csvBase64, startService, usdRangeProduct, waitFor } from '../../../support/app-harness.ts';

describe('a sent campaign’s rows that need fixing', () => {
  it('a row corrected after the campaign is done is sent alone, with its corrected values, behind the pre-flight', async () => {
    const service = await startSimulator({ latencyMs: 1 });
    const h = await startService(tempDir(), { simulatorUrl: service.url });
    const productId = await usdRangeProduct(h);
    const created = await h.ok('campaigns:create', {
      environment: 'simulator',
      productId,
      fileName: 'guests.csv',
      bytesBase64: csvBase64(['Name,Email,Amount', 'Ann,ann@example.com,10', 'Bo,bo@example,12', 'Cy,cy@example.com,ten', 'Di,di@example.com,15']),
      name: 'Gala',
      senderName: 'Gala team',
    });
    expect(created.counts).toMatchObject({ ready: 2, invalid: 2 });
    const audit = () => service.sim.audit().accounts[SIMULATOR_LOCAL_KEY] ?? expect.fail('no simulator account');

    await h.ok('campaigns:send', { campaignId: created.id, confirmed: true });
    await waitFor('the first send to finish', () => h.events.some((e) => e.name === 'campaign:finished'));
    const done = await h.ok('campaigns:get', { campaignId: created.id });
    expect(done.sendState).toBe('done');
    expect(done.counts).toMatchObject({ invalid: 2, ready: 0 });
    expect(audit().orders).toHaveLength(2);

    const { rows } = await h.ok('campaigns:rows', { campaignId: created.id, offset: 0, limit: 10 });
    const line = (n: number) => rows.find((r) => r.line === n) ?? expect.fail(`no line ${n}`);
    const bo = line(3);
    const corrected = await h.ok('rows:edit', { rowId: bo.id, name: 'Bo', email: 'bo@example.com', amount: '12.50', message: null });
    expect(corrected).toMatchObject({ state: 'ready', email: 'bo@example.com', amount: { amount: '12.50', currency: 'USD' } });

    // The same pre-flight as the first send: one row, its total.
    const preflight = await h.ok('campaigns:preflight', { campaignId: created.id });
    expect(preflight).toMatchObject({ ok: true, rowsToSend: 1, totals: [{ currency: 'USD', amount: '12.50' }] });

    await h.ok('campaigns:send', { campaignId: created.id, confirmed: true, totals: preflight.totals });
    await waitFor('the corrected row to be ordered', async () => {
      const { rows: now } = await h.ok('campaigns:rows', { campaignId: created.id, offset: 0, limit: 10 });
      return now.find((r) => r.id === bo.id)?.orderId ?? false;
    });
    await waitFor('the second run to finish', () => h.events.filter((e) => e.name === 'campaign:finished').length >= 2);

    // Exactly one more order, under the corrected row's own key, for its corrected amount and address.
    const orders = audit().orders;
    expect(orders).toHaveLength(3);
    expect(audit().duplicates).toEqual([]);
    const { rows: after } = await h.ok('campaigns:rows', { campaignId: created.id, offset: 0, limit: 10 });
    const boAfter = after.find((r) => r.id === bo.id) ?? expect.fail('no row for Bo');
    const third = orders[2] ?? expect.fail('no third order');
    expect(third.externalReferenceId).toBe(boAfter.externalReferenceId);
    expect(boAfter.externalReferenceId).toBe(bo.externalReferenceId);
    expect(third.requestedAmount).toBe('12.50');
    const answer = await fetch(`${service.url}/v1/orders/${third.id}`, { headers: { accept: 'application/json', 'SERVICE-API-KEY': SIMULATOR_LOCAL_KEY } });
    expect(JSON.stringify(await answer.json())).toContain('"bo@example.com"');
    // The other row still needs fixing, and was not sent; the first two were not sent again.
    expect(after.find((r) => r.line === 4)).toMatchObject({ state: 'invalid', orderId: null });
    expect(new Set(orders.map((o) => o.externalReferenceId)).size).toBe(3);
    const summary = await h.ok('campaigns:get', { campaignId: created.id });
    expect(summary.counts).toMatchObject({ invalid: 1, ready: 0, sending: 0 });
    expect(summary.counts.ordered + summary.counts.delivered).toBe(3);
    expect(summary.sendState).toBe('done');
  });
});
