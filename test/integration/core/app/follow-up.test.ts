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
    const failed = await h.ok('campaigns:get', { campaignId: source.id });
    expect(failed).toMatchObject({ counts: { ordered: 2, failed: 3 }, retryable: 3 });
    // Why, grouped by the service's answer (each refusal's words name its own figures): what the screen's banner says.
    expect(failed.failedReasons).toEqual([{ answer: 'HTTP 402 INSUFFICIENT_BALANCE', message: expect.stringMatching(/^\S.*[^)]$/), rows: 3 }]);

    const followUp = await h.ok('campaigns:followUp', { campaignId: source.id, include: ['failed'], name: '  Gala, second try  ' });
    // The rows are the follow-up's now: still failed here, but none a retry would put back ("Retry N failed" is gone).
    expect(await h.ok('campaigns:get', { campaignId: source.id })).toMatchObject({ counts: { failed: 3 }, retryable: 0, failedReasons: [] });
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
    // Where they went, not a bare 'has no rows that failed' beside 3 failed rows.
    expect(twice).toMatchObject({ ok: false, error: { code: 'invalid-input', message: expect.stringContaining('the 3 it had were followed up already, in "Gala, second try". No campaign was made.') } });
    expect(sim.audit().accounts[SIMULATOR_LOCAL_KEY]?.orders).toHaveLength(5);
  }, 60_000);

  it('after a follow-up took its failed, cancelled and expired rows, the paused campaign counts none to take and no longer says retry', async () => {
    // A $100 voucher the recipient must accept, its link valid 4 s; room for five orders out of ten:
    // three refusals in a row pause the campaign with two rows still ready.
    const { sim, url } = await startSimulator({ itemDelayMs: 60_000, recipientExpiryMs: 4_000, accounts: { [SIMULATOR_LOCAL_KEY]: { currency: 'USD', balance: '500.00' } } });
    const h = await startService(tempDir(), { simulatorUrl: url, service: { queue: { concurrency: 1 } } });
    const { products } = await h.ok('products:list', { environment: 'simulator', country: 'US' });
    const productId = products.find((p) => p.name === 'Voyager Travel Voucher $100')?.id ?? 0;
    const source = await h.ok('campaigns:create', { fileName: 'guests.csv', bytesBase64: recipientsCsv(10), environment: 'simulator', productId, name: 'Summit', senderName: 'Summit team' });
    await h.ok('campaigns:send', { campaignId: source.id, confirmed: true });
    await waitFor('the run to end', () => h.events.find((e) => e.name === 'campaign:finished'));
    // The first order cancelled; the other four wait on recipients whose links then expire.
    const first = listCampaignRows(h.engine.db, source.id).find((r) => r.state === 'ordered');
    sim.forceStatus(SIMULATOR_LOCAL_KEY, first?.orderId ?? 0, { orderStatus: 'CANCELLED' });
    await h.ok('campaigns:checkNow', { campaignId: source.id });
    const expiries = listCampaignRows(h.engine.db, source.id).flatMap((r) => (r.state === 'ordered' && r.acceptanceExpiry !== null ? [r.acceptanceExpiry] : []));
    expect(expiries).toHaveLength(4);
    await waitFor('the links to expire', () => Date.now() > Math.max(...expiries) + 50, 10_000);

    const paused = await h.ok('campaigns:get', { campaignId: source.id });
    expect(paused).toMatchObject({
      sendState: 'paused',
      pausedReason: 'refused',
      counts: { ordered: 4, cancelled: 1, failed: 3, ready: 2 },
      acceptanceExpired: 4,
      retryable: 3,
      followUpRows: { failed: 3, cancelled: 1, expired: 4 },
      failedFollowedUp: [],
    });
    expect(paused.pausedDetail).toMatch(/retry the failed rows, then resume\.$/);

    const followUp = await h.ok('campaigns:followUp', { campaignId: source.id, include: ['failed', 'cancelled', 'expired'], name: 'Summit, again' });
    expect(followUp.counts.ready).toBe(8);
    const after = await h.ok('campaigns:get', { campaignId: source.id });
    // Nothing left for a retry or another follow-up (the screen offers neither), the rows as they were.
    expect(after).toMatchObject({
      sendState: 'paused',
      pausedReason: 'refused',
      counts: { ordered: 4, cancelled: 1, failed: 3, ready: 2 },
      retryable: 0,
      followUpRows: { failed: 0, cancelled: 0, expired: 0 },
      failedFollowedUp: [{ id: followUp.id, name: 'Summit, again', rows: 3 }],
    });
    // The pause says where the failed rows went and what resuming sends, not to retry them.
    expect(after.pausedDetail).toMatch(/^The service refused 3 orders in a row with the same answer: .*\(HTTP 402 INSUFFICIENT_BALANCE\)\. /);
    expect(after.pausedDetail).toContain(
      'Sending paused rather than fail every row. 3 failed rows went to follow-up campaign "Summit, again" and are sent from there; ' +
        'fix the cause with the service (a balance, a product), then resume to send the 2 rows still to send here.',
    );
    // (The service's own quoted words may say "retry with the same external_reference_id"; Giftbatch's advice does not.)
    expect(after.pausedDetail).not.toContain('retry the failed rows');
    expect(after.pausedDetail?.slice(after.pausedDetail.indexOf('Sending paused'))).not.toMatch(/retry/i);
    // The list answers the same summary.
    expect((await h.ok('campaigns:list', {})).campaigns.find((c) => c.id === source.id)).toMatchObject({ pausedDetail: after.pausedDetail, followUpRows: after.followUpRows });
    const twice = await h.service.invoke('campaigns:followUp', { campaignId: source.id, include: ['failed', 'cancelled', 'expired'] });
    expect(twice).toMatchObject({ ok: false, error: { code: 'invalid-input', message: expect.stringContaining('the 8 it had were followed up already, in "Summit, again". No campaign was made.') } });

    // Resumed with money: the two ready rows are sent, and the campaign is done with nothing to retry.
    sim.setAccount(SIMULATOR_LOCAL_KEY, { balance: '1000.00' });
    await h.ok('campaigns:send', { campaignId: source.id, confirmed: true });
    await waitFor('the resumed run to end', () => h.events.filter((e) => e.name === 'campaign:finished').length === 2);
    expect(await h.ok('campaigns:get', { campaignId: source.id })).toMatchObject({
      sendState: 'done',
      pausedDetail: null,
      counts: { ordered: 6, failed: 3 },
      retryable: 0,
      followUpRows: { failed: 0, cancelled: 0, expired: 0 },
    });
    expect(sim.audit().accounts[SIMULATOR_LOCAL_KEY]?.orders).toHaveLength(7);
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
