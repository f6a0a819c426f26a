import { describe, expect, it } from 'vitest';
import { SIMULATOR_LOCAL_KEY } from '../../../../electron/core/connections.ts';
import { allRows, expectOneOrderPerRow, startSimulator, tempDir } from '../../../support/index.ts';
import { recipientsCsv, startService, waitFor, type Harness } from '../../../support/app-harness.ts';

async function productId(h: Harness, name: string, country = 'US'): Promise<number> {
  const { products } = await h.ok('products:list', { environment: 'simulator', country });
  const found = products.find((p) => p.name === name);
  if (!found) throw new Error(`no product ${name}`);
  return found.id;
}

const progressOf = (h: Harness, campaignId: string) =>
  h.events.filter((e) => e.name === 'campaign:progress' && 'changedRowIds' in e.payload && e.payload.campaign.id === campaignId);

describe('app service on a real engine and simulator', () => {
  it('takes the sample CSV through fix → send → delivered, with batched progress and a report', async () => {
    const sim = await startSimulator({ itemDelayMs: 200, latencyMs: 15 });
    const h = await startService(tempDir(), { simulatorUrl: sim.url });

    const info = await h.ok('app:info', {});
    expect(info).toMatchObject({ shell: 'browser', environment: 'simulator', firstLaunch: true, sampleCsvName: 'sample-recipients.csv' });
    expect(info.keychain).toMatchObject({ available: false });
    expect(info.keychain.notice).toMatch(/keychain/i);

    const { products } = await h.ok('products:list', { environment: 'simulator', country: 'US' });
    const soldOut = products.find((p) => p.availability === 'SOLD_OUT');
    expect(soldOut?.unorderableReason).toMatch(/not on sale/);
    const book = products.find((p) => p.name === 'Northwind Books Gift Card $25');
    expect(book?.price).toEqual({ kind: 'fixed', amount: { currency: 'USD', amount: '25.00' } });
    const id = book?.id ?? 0;

    const sample = await h.ok('app:sampleCsv', {});
    const file = { fileName: sample.fileName, bytesBase64: sample.bytesBase64 };
    const preview = await h.ok('campaigns:previewImport', { ...file, environment: 'simulator', productId: id });
    expect(preview.totals).toMatchObject({ invalid: 1, duplicateEmails: 1 });
    expect(preview.totals.amounts).toEqual([{ currency: 'USD', amount: (25 * preview.totals.valid).toFixed(2) }]);

    const created = await h.ok('campaigns:create', { ...file, environment: 'simulator', productId: id, name: 'Meetup thanks', senderName: 'Meetup team' });
    // The repeated "Ada Lovelace (again)" row is skipped by default (one gift per person), and says why.
    expect(created).toMatchObject({ sendState: 'draft', running: false, counts: { invalid: 1, skipped: 1 } });
    const { rows: skipped } = await h.ok('campaigns:rows', { campaignId: created.id, states: ['skipped'] });
    expect(skipped.map((r) => [r.name, r.skippedBy])).toEqual([['Ada Lovelace (again)', 'repeat-in-campaign']]);

    const { rows: invalid } = await h.ok('campaigns:rows', { campaignId: created.id, states: ['invalid'] });
    const bad = invalid[0];
    if (!bad) throw new Error('the sample has an invalid row');
    // Still wrong: the same shared validation says why, per field.
    const stillBad = await h.ok('rows:edit', { rowId: bad.id, name: bad.name ?? '', email: 'tim@@example.org', amount: null, message: null });
    expect(stillBad.state).toBe('invalid');
    expect(stillBad.errors.map((e) => e.field)).toContain('email');
    const fixed = await h.ok('rows:edit', { rowId: bad.id, name: bad.name ?? '', email: 'tim@example.org', amount: null, message: bad.message });
    expect(fixed).toMatchObject({ state: 'ready', email: 'tim@example.org', errors: [], amount: { currency: 'USD', amount: '25.00' } });
    expect(fixed.externalReferenceId).toBe(bad.externalReferenceId);

    const preflight = await h.ok('campaigns:preflight', { campaignId: created.id });
    expect(preflight).toMatchObject({ ok: true, problems: [], rowsToSend: 11, repeatsInCampaign: { people: 0, rows: 0 } });

    const sending = await h.ok('campaigns:send', { campaignId: created.id, confirmed: true });
    expect(sending).toMatchObject({ sendState: 'sending', running: true });
    const finished = await waitFor('campaign:finished', () => h.events.find((e) => e.name === 'campaign:finished'));
    expect(finished.payload.campaign).toMatchObject({ sendState: 'done', running: false });
    expect('message' in finished.payload && finished.payload.message).toBe('Sending is done: 11 ordered, 0 failed, 1 skipped.');

    const done = await waitFor('every row delivered by polling', async () => {
      const s = await h.ok('campaigns:get', { campaignId: created.id });
      return s.counts.delivered === 11 ? s : undefined;
    });
    expect(done.counts).toMatchObject({ delivered: 11, ready: 0, sending: 0, invalid: 0, skipped: 1 });
    expect(done.charged).toEqual([{ currency: 'USD', amount: '275.00' }]);
    expect(done.nextPollAt).toBeNull();

    // Batched: never two progress events of one campaign closer than the interval, and together
    // they name every row that changed.
    const progress = progressOf(h, created.id);
    expect(progress.length).toBeGreaterThan(1);
    for (let i = 1; i < progress.length; i++) {
      expect((progress[i]?.at ?? 0) - (progress[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(90);
    }
    const named = new Set(progress.flatMap((e) => ('changedRowIds' in e.payload ? e.payload.changedRowIds : [])));
    const sent = allRows(h.engine.db, created.id).filter((r) => r.state === 'delivered');
    for (const row of sent) expect(named.has(row.id), `row ${row.id} in some progress event`).toBe(true);

    const report = await h.ok('campaigns:report', { campaignId: created.id });
    expect(report.fileName).toMatch(/^giftbatch-meetup-thanks-report-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(report.savedTo).toBeNull();
    expect(report.csv.startsWith('\uFEFFname,email,amount')).toBe(true);
    expect(report.csv).toContain('tim@example.org');
    expect(report.csv.match(/,delivered,/g)?.length).toBe(11);
    expect(report.csv).toContain('Skipped by policy: its address repeats an earlier line of this campaign');
    expect(report.csv).toContain('TOTAL charged,,275.00,USD');

    const { buckets } = await h.ok('campaigns:timeline', { campaignId: created.id, bucketMs: 60_000 });
    expect(buckets.reduce((n, b) => n + b.ordered, 0)).toBe(11);
    expect(buckets.reduce((n, b) => n + b.delivered, 0)).toBe(11);

    expectOneOrderPerRow(h.engine.db, created.id, sim.account(SIMULATOR_LOCAL_KEY));
  });

  it('a campaign closed mid-send is paused as interrupted after a restart, waits for Resume, and resumes with no duplicate order', async () => {
    const sim = await startSimulator({ itemDelayMs: 100, latencyMs: 40 });
    const dataDir = tempDir();
    const first = await startService(dataDir, { simulatorUrl: sim.url, service: { queue: { concurrency: 2 } } });
    const id = await productId(first, 'Northwind Books Gift Card $25');
    const created = await first.ok('campaigns:create', {
      fileName: 'guests.csv',
      bytesBase64: recipientsCsv(40),
      environment: 'simulator',
      productId: id,
      name: 'Big night',
      senderName: 'Hosts',
    });
    await first.ok('campaigns:send', { campaignId: created.id, confirmed: true });
    await waitFor('a few orders', () => progressOf(first, created.id).some((e) => e.payload.campaign.counts.ordered >= 5));
    await first.close();

    const second = await startService(dataDir, { service: { queue: { concurrency: 4 } } });
    const after = await second.ok('campaigns:get', { campaignId: created.id });
    expect(after).toMatchObject({ sendState: 'paused', pausedReason: 'interrupted', running: false });
    expect(after.pausedDetail).toMatch(/closed while this campaign was sending/);
    const sentSoFar = after.counts.ordered + after.counts.delivered;
    expect(sentSoFar).toBeGreaterThanOrEqual(5);
    expect(after.counts.ready).toBeGreaterThan(0);
    expect(after.counts.sending).toBe(0);
    expect(after.remaining).toEqual([{ currency: 'USD', amount: (25 * after.counts.ready).toFixed(2) }]);
    const listed = await second.ok('campaigns:list', {});
    expect(listed.campaigns.find((c) => c.id === created.id)?.pausedReason).toBe('interrupted');

    // Not resumed by itself: polling may run, sending does not.
    const ordersBefore = sim.account(SIMULATOR_LOCAL_KEY).orders.length;
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(sim.account(SIMULATOR_LOCAL_KEY).orders.length).toBe(ordersBefore);
    expect((await second.ok('campaigns:get', { campaignId: created.id })).sendState).toBe('paused');

    // Polling, though, resumes by itself: what was ordered before the restart gets delivered.
    await waitFor('orders from before the restart delivered by polling alone', async () => {
      const s = await second.ok('campaigns:get', { campaignId: created.id });
      return s.counts.delivered >= sentSoFar && s.sendState === 'paused';
    });

    await second.ok('campaigns:send', { campaignId: created.id, confirmed: true });
    await waitFor('the resumed run to finish', () => second.events.find((e) => e.name === 'campaign:finished'));
    expectOneOrderPerRow(second.engine.db, created.id, sim.account(SIMULATOR_LOCAL_KEY));
  });

  it('pause stops a run and leaves the campaign paused by the user; send resumes it; one run per campaign', async () => {
    const sim = await startSimulator({ itemDelayMs: 100, latencyMs: 40 });
    const h = await startService(tempDir(), { simulatorUrl: sim.url, service: { queue: { concurrency: 1 } } });
    const id = await productId(h, 'Northwind Books Gift Card $25');
    const created = await h.ok('campaigns:create', { fileName: 'g.csv', bytesBase64: recipientsCsv(30), environment: 'simulator', productId: id, name: 'P', senderName: 'S' });
    const [a, b] = await Promise.all([
      h.ok('campaigns:send', { campaignId: created.id, confirmed: true }),
      h.ok('campaigns:send', { campaignId: created.id, confirmed: true }),
    ]);
    expect(a.running && b.running).toBe(true);
    await waitFor('an order', () => progressOf(h, created.id).some((e) => e.payload.campaign.counts.ordered >= 2));
    const paused = await h.ok('campaigns:pause', { campaignId: created.id });
    expect(paused).toMatchObject({ sendState: 'paused', pausedReason: 'user', running: false });
    expect(paused.counts.ready).toBeGreaterThan(0);
    await h.ok('campaigns:send', { campaignId: created.id, confirmed: true });
    await waitFor('two finished events', () => h.events.filter((e) => e.name === 'campaign:finished').length >= 2);
    expectOneOrderPerRow(h.engine.db, created.id, sim.account(SIMULATOR_LOCAL_KEY));
  });
});
