// What becomes of a gift whose recipient link expired is "not shown" in the spec (section 3; the
// link's validity too, section 8). The simulator's guess is that the link closes for good; with
// `expiredLink: 'accept-late'` the recipient can still accept it. A follow-up of the expired rows
// then sends that recipient a second, paid-for gift, unless its pre-flight reads the replaced gifts
// again: it does (campaigns/replaced-gifts.ts), and stops the send until the row is skipped.
// Real parts: the app service and engine on a real SQLite data folder, the simulator over HTTP.
import { describe, expect, it } from 'vitest';
import { SIMULATOR_LOCAL_KEY } from '../../../../electron/core/connections.ts';
import { listCampaignRows } from '../../../../electron/core/db/repos/recipients.ts';
import { recipientsCsv, startService, waitFor } from '../../../support/app-harness.ts';
import { startSimulator, tempDir } from '../../../support/index.ts';

describe('a follow-up of expired recipient links, on a service that still lets recipients accept', () => {
  it('does not send a second gift to a recipient who accepted the first after its expiry; the other rows go', async () => {
    const { sim, url } = await startSimulator({
      itemDelayMs: 60_000,
      recipientExpiryMs: 1_500,
      dialect: { expiredLink: 'accept-late' },
      accounts: { [SIMULATOR_LOCAL_KEY]: { currency: 'USD', balance: '1000.00' } },
    });
    // No background polling: what the pre-flight finds, it reads itself.
    const never = () => 3_600_000;
    const h = await startService(tempDir(), { simulatorUrl: url, service: { queue: { concurrency: 1 }, polling: { delayMs: never, startDelayMs: 3_600_000, retryDelayMs: 3_600_000 } } });
    const orders = () => sim.audit().accounts[SIMULATOR_LOCAL_KEY]?.orders ?? [];
    const finished = (campaignId: string) => h.events.filter((e) => e.name === 'campaign:finished' && 'campaign' in e.payload && e.payload.campaign.id === campaignId).length;
    const { products } = await h.ok('products:list', { environment: 'simulator', country: 'US' });
    const productId = products.find((p) => p.name === 'Voyager Travel Voucher $100')?.id ?? 0;
    const source = await h.ok('campaigns:create', { fileName: 'guests.csv', bytesBase64: recipientsCsv(3), environment: 'simulator', productId, name: 'Retreat', senderName: 'Retreat team' });
    await h.ok('campaigns:send', { campaignId: source.id, confirmed: true });
    await waitFor('the run to end', () => finished(source.id) > 0);
    await h.ok('campaigns:checkNow', { campaignId: source.id });
    const sent = listCampaignRows(h.engine.db, source.id);
    const expiries = sent.flatMap((r) => (r.state === 'ordered' && r.acceptanceExpiry !== null ? [r.acceptanceExpiry] : []));
    expect(expiries).toHaveLength(3);
    await waitFor('the links to expire', () => Date.now() > Math.max(...expiries) + 50, 10_000);

    const followUp = await h.ok('campaigns:followUp', { campaignId: source.id, include: ['expired'] });
    expect(followUp.counts.ready).toBe(3);
    // Guest 0 takes the first gift after all, past its expiry: this service lets them.
    const taken = sent.find((r) => r.email === 'guest0@example.com');
    sim.acceptRecipient(SIMULATOR_LOCAL_KEY, taken?.orderId ?? 0);

    const preflight = await h.ok('campaigns:preflight', { campaignId: followUp.id });
    expect(preflight.ok).toBe(false);
    expect(preflight.problems).toEqual([
      `1 row replaces a gift whose recipient link had expired, but the service now says the recipient accepted it after all (line ${taken?.line ?? 0}): ` +
        "sent, it would give that recipient a second gift. Skip that row (in the app, on the campaign's rows), then send.",
    ]);
    const refused = await h.service.invoke('campaigns:send', { campaignId: followUp.id, confirmed: true });
    expect(refused).toMatchObject({ ok: false, error: { code: 'preflight', message: expect.stringContaining('the recipient accepted it after all') } });
    expect(orders()).toHaveLength(3);
    // The pre-flight recorded what it read: the first gift is delivered.
    expect(listCampaignRows(h.engine.db, source.id).find((r) => r.id === taken?.id)?.state).toBe('delivered');

    // Skipped, the row stays out; the two recipients who never took theirs get their new gift.
    const again = listCampaignRows(h.engine.db, followUp.id).find((r) => r.email === 'guest0@example.com');
    await h.ok('rows:skip', { rowId: again?.id ?? 0 });
    expect(await h.ok('campaigns:preflight', { campaignId: followUp.id })).toMatchObject({ ok: true, rowsToSend: 2 });
    await h.ok('campaigns:send', { campaignId: followUp.id, confirmed: true, totals: [{ currency: 'USD', amount: '200.00' }] });
    await waitFor('the follow-up to be sent', () => finished(followUp.id) > 0 && !h.engine.campaigns().some((c) => c.id === followUp.id && c.sendState === 'sending'));
    expect((await h.ok('campaigns:get', { campaignId: followUp.id })).counts).toMatchObject({ ordered: 2, skipped: 1 });
    expect(orders()).toHaveLength(5);
    const emailOf = new Map([...listCampaignRows(h.engine.db, source.id), ...listCampaignRows(h.engine.db, followUp.id)].map((r) => [r.externalReferenceId, r.email]));
    expect(orders().filter((o) => emailOf.get(o.externalReferenceId ?? '') === 'guest0@example.com')).toHaveLength(1);
  }, 30_000);
});
