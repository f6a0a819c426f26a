// Issue 13, follow-up campaigns: from a campaign with failed, cancelled and expired rows (made by
// the real send path against the real simulator, on a real SQLite file), a new draft campaign of
// each kind, each row carrying its data under a NEW key, nothing else copied, the source untouched;
// the new campaign sends the usual way; a campaign with none of them answers a clear message.
import { describe, expect, it } from 'vitest';
import { createFollowUp, FollowUpError } from '../../../../electron/core/campaigns/follow-up.ts';
import { SIMULATOR_LOCAL_KEY } from '../../../../electron/core/connections.ts';
import { getCampaign } from '../../../../electron/core/db/repos/campaigns.ts';
import { listCampaignRows } from '../../../../electron/core/db/repos/recipients.ts';
import { csvBase64, startService, waitFor, type Harness } from '../../../support/app-harness.ts';
import { startSimulator, tempDir } from '../../../support/index.ts';

const DAY = 86_400_000;
const VOUCHER = 'Voyager Travel Voucher $100';

/** Events of a campaign, oldest first, as stored. */
function eventsOf(h: Harness, campaignId: string): { kind: string; detail: Record<string, unknown> | null }[] {
  const raws = h.engine.db.prepare('SELECT kind, detail FROM events WHERE campaign_id = ? ORDER BY id').all(campaignId) as { kind: string; detail: string | null }[];
  return raws.map((r) => ({ kind: r.kind, detail: r.detail === null ? null : (JSON.parse(r.detail) as Record<string, unknown>) }));
}

/**
 * A sent campaign of a $100 voucher the recipient must accept (its link expires after 7 days):
 * line 2 invalid, line 3 skipped, lines 4-10 sent with room for five orders (lines 9 and 10 fail
 * for the balance), then line 4 accepted (delivered) and line 5's order cancelled; lines 6-8 stay
 * ordered, waiting for their recipients.
 */
async function sentCampaign() {
  const test = await startSimulator({ itemDelayMs: 60_000, accounts: { [SIMULATOR_LOCAL_KEY]: { currency: 'USD', balance: '500.00' } } });
  const h = await startService(tempDir(), { simulatorUrl: test.url, service: { queue: { concurrency: 1 } } });
  const { products } = await h.ok('products:list', { environment: 'simulator', country: 'US' });
  const productId = products.find((p) => p.name === VOUCHER)?.id ?? 0;
  const lines = [
    'Name,Email,Message,Team',
    ',nobody@example.com,,Ops',
    'Skip Me,skip@example.com,,Ops',
    ...Array.from({ length: 7 }, (_, i) => `Guest ${i + 4},guest${i + 4}@example.com,Thanks for line ${i + 4}!,Team ${i + 4}`),
  ];
  const created = await h.ok('campaigns:create', {
    fileName: 'guests.csv',
    bytesBase64: csvBase64(lines),
    environment: 'simulator',
    productId,
    name: 'Summit speakers',
    senderName: 'Summit team',
    message: 'With our thanks',
  });
  const id = created.id;
  const skip = listCampaignRows(h.engine.db, id).find((r) => r.line === 3);
  await h.ok('rows:skip', { rowId: skip?.id ?? 0 });
  await h.ok('campaigns:send', { campaignId: id, confirmed: true });
  await waitFor('the run to end', () => h.events.find((e) => e.name === 'campaign:finished'));

  const orderOf = (line: number) => {
    const key = listCampaignRows(h.engine.db, id).find((r) => r.line === line)?.externalReferenceId;
    return test.account(SIMULATOR_LOCAL_KEY).orders.find((o) => o.externalReferenceId === key)?.id ?? 0;
  };
  test.sim.acceptRecipient(SIMULATOR_LOCAL_KEY, orderOf(4));
  test.sim.forceStatus(SIMULATOR_LOCAL_KEY, orderOf(5), { orderStatus: 'CANCELLED' });
  await h.ok('campaigns:checkNow', { campaignId: id });
  return { test, h, id };
}

describe('a follow-up campaign', () => {
  it('takes the failed, cancelled or expired rows with their data under new keys, and sends them as a new campaign', async () => {
    const { test, h, id } = await sentCampaign();
    const db = h.engine.db;
    const byLine = () => new Map(listCampaignRows(db, id).map((r) => [r.line, r]));
    expect([...byLine().values()].map((r) => [r.line, r.state])).toEqual([
      [2, 'invalid'],
      [3, 'skipped'],
      [4, 'delivered'],
      [5, 'cancelled'],
      [6, 'ordered'],
      [7, 'ordered'],
      [8, 'ordered'],
      [9, 'failed'],
      [10, 'failed'],
    ]);
    const sourceBefore = listCampaignRows(db, id);
    const source = getCampaign(db, id);
    const now = h.engine.clock.now();
    const afterExpiry = now + 8 * DAY;

    // Before their links expire, the waiting rows are not expired: nothing of that kind to follow up.
    expect(() => createFollowUp(db, { campaignId: id, include: ['expired'] }, now)).toThrow(FollowUpError);
    // Each kind alone: the rows of that kind, in file order.
    const failed = createFollowUp(db, { campaignId: id, include: ['failed'] }, now);
    const cancelled = createFollowUp(db, { campaignId: id, include: ['cancelled'], name: 'Cancelled again' }, now);
    const expired = createFollowUp(db, { campaignId: id, include: ['expired'] }, afterExpiry);
    const lines = (c: { campaign: { id: string } }) => listCampaignRows(db, c.campaign.id).map((r) => r.line);
    expect(lines(failed)).toEqual([9, 10]);
    expect(lines(cancelled)).toEqual([5]);
    expect(lines(expired)).toEqual([6, 7, 8]);
    expect(expired.carried).toEqual({ failed: 0, cancelled: 0, expired: 3 });
    // A row a follow-up took is sent from there: taken by no other follow-up (two drafts of the same
    // rows could both pass their pre-flights and both pay), and its follow-up is named on it.
    // Asked again, it says where they went: 'has no rows that failed' alone reads as wrong beside 2 failed rows.
    expect(() => createFollowUp(db, { campaignId: id, include: ['expired', 'failed', 'cancelled'] }, afterExpiry)).toThrow(
      '"Summit speakers" has no rows that failed, whose order was cancelled or whose acceptance link expired left to follow up: ' +
        'the 6 it had were followed up already, in "Cancelled again" (1), "Summit speakers (follow-up)" (3) and "Summit speakers (follow-up)" (2). No campaign was made.',
    );
    expect(() => createFollowUp(db, { campaignId: id, include: ['failed'] }, afterExpiry)).toThrow(
      '"Summit speakers" has no rows that failed left to follow up: the 2 it had were followed up already, in "Summit speakers (follow-up)". No campaign was made.',
    );
    expect([5, 6, 7, 8, 9, 10].map((line) => byLine().get(line)?.followedUpIn)).toEqual([
      cancelled.campaign.id,
      expired.campaign.id,
      expired.campaign.id,
      expired.campaign.id,
      failed.campaign.id,
      failed.campaign.id,
    ]);

    // The same environment, address, product (as validated), sender and message; a draft of its own.
    expect(failed.campaign).toMatchObject({
      name: 'Summit speakers (follow-up)',
      environment: source?.environment,
      baseUrl: source?.baseUrl,
      productId: source?.productId,
      product: source?.product,
      senderName: 'Summit team',
      message: 'With our thanks',
      currency: 'USD',
      sendState: 'draft',
      accountFingerprint: null,
    });
    expect(cancelled.campaign.name).toBe('Cancelled again');

    // Each row carries its data and source cells, under a new key, and nothing of the old row's send.
    const sourceKeys = new Set(sourceBefore.map((r) => r.externalReferenceId));
    const newRows = [failed, cancelled, expired].flatMap((c) => listCampaignRows(db, c.campaign.id));
    expect(new Set(newRows.map((r) => r.externalReferenceId)).size).toBe(newRows.length);
    for (const row of newRows) {
      const old = byLine().get(row.line);
      expect(sourceKeys.has(row.externalReferenceId)).toBe(false);
      expect(row).toMatchObject({
        name: old?.name,
        email: old?.email,
        amountMinor: 10000,
        currency: 'USD',
        message: `Thanks for line ${row.line}!`,
        source: { Name: `Guest ${row.line}`, Email: `guest${row.line}@example.com`, Message: `Thanks for line ${row.line}!`, Team: `Team ${row.line}` },
        state: 'ready',
        requestBody: null,
        orderId: null,
        orderStatus: null,
        itemId: null,
        charged: null,
        chargedText: null,
        issued: null,
        findings: [],
        acceptanceExpiry: null,
        attempts: 0,
        lastError: null,
        errors: [],
        sentAt: null,
      });
    }
    // The cancelled and expired rows' recipients had (or still have) an order: the check says so.
    const expiredRow = listCampaignRows(db, expired.campaign.id)[0];
    expect(expiredRow?.warnings.map((w) => w.message)).toEqual(['Line 6: "guest6@example.com" was already a recipient in an earlier campaign']);

    // Both campaigns' events say which followed which.
    expect(eventsOf(h, id).filter((e) => e.kind === 'followed-up').map((e) => e.detail)).toEqual([
      { followUp: failed.campaign.id, include: ['failed'], rows: { failed: 2, cancelled: 0, expired: 0 } },
      { followUp: cancelled.campaign.id, include: ['cancelled'], rows: { failed: 0, cancelled: 1, expired: 0 } },
      { followUp: expired.campaign.id, include: ['expired'], rows: { failed: 0, cancelled: 0, expired: 3 } },
    ]);
    expect(eventsOf(h, failed.campaign.id).map((e) => e.kind)).toEqual(['imported', 'follow-up-of']);
    expect(eventsOf(h, failed.campaign.id)[1]?.detail).toEqual({ source: id, include: ['failed'], rows: { failed: 2, cancelled: 0, expired: 0 } });

    // The follow-up of the failed rows is sent the usual way once the balance allows it: one new order per row.
    test.sim.setAccount(SIMULATOR_LOCAL_KEY, { balance: '1000.00' });
    await h.ok('campaigns:send', { campaignId: failed.campaign.id, confirmed: true, totals: [{ currency: 'USD', amount: '200.00' }] });
    await waitFor('the follow-up to be sent', () => h.events.filter((e) => e.name === 'campaign:finished').length === 2);
    const sent = listCampaignRows(db, failed.campaign.id);
    expect(sent.map((r) => r.state)).toEqual(['ordered', 'ordered']);
    const orders = test.account(SIMULATOR_LOCAL_KEY).orders;
    for (const row of sent) expect(orders.filter((o) => o.externalReferenceId === row.externalReferenceId)).toHaveLength(1);
    // The old failed rows never got an order, and the source campaign's rows are as they were.
    for (const line of [9, 10]) expect(orders.some((o) => o.externalReferenceId === byLine().get(line)?.externalReferenceId)).toBe(false);
    expect(listCampaignRows(db, id).map(({ followedUpIn: _taken, ...row }) => row)).toEqual(sourceBefore.map(({ followedUpIn: _taken, ...row }) => row));
  }, 60_000);

  it('answers a clear message when the campaign has no rows of the kinds asked, and makes nothing', async () => {
    const { h, id } = await sentCampaign();
    const db = h.engine.db;
    const campaigns = () => db.prepare('SELECT count(*) AS n FROM campaigns').get() as { n: number };
    const before = campaigns().n;
    const now = h.engine.clock.now();
    expect(() => createFollowUp(db, { campaignId: id, include: ['expired'] }, now)).toThrow(
      '"Summit speakers" has no rows whose acceptance link expired, so there is nothing to follow up and no campaign was made. ' +
        'It has 2 rows that failed and 1 row whose order was cancelled: choose those kinds instead.',
    );
    expect(() => createFollowUp(db, { campaignId: id, include: [] }, now)).toThrow('Choose which rows to follow up: failed, cancelled, expired.');
    expect(() => createFollowUp(db, { campaignId: 'c_nosuchthing', include: ['failed'] }, now)).toThrow('There is no campaign "c_nosuchthing" to follow up.');

    // A campaign whose every row was delivered or is still waiting in time has nothing of any kind.
    const failed = createFollowUp(db, { campaignId: id, include: ['failed'] }, now);
    expect(() => createFollowUp(db, { campaignId: failed.campaign.id, include: ['failed', 'cancelled', 'expired'] }, now)).toThrow(
      /^"Summit speakers \(follow-up\)" has no rows that failed, whose order was cancelled or whose acceptance link expired, so there is nothing to follow up and no campaign was made\.$/,
    );
    expect(campaigns().n).toBe(before + 1);
  }, 60_000);
});
