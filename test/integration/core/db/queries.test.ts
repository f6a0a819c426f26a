import { describe, expect, it } from 'vitest';
import { toDecimal } from '../../../../shared/domain/money.ts';
import type { Db } from '../../../../electron/core/db/open.ts';
import { createCampaign } from '../../../../electron/core/db/repos/campaigns.ts';
import {
  markFailed,
  markOrdered,
  markSending,
  completeOrderRecord,
  updateOrderStatus,
  type OrderOutcome,
} from '../../../../electron/core/db/repos/recipient-transitions.ts';
import { skip } from '../../../../electron/core/db/repos/recipient-edits.ts';
import {
  chargedTotals,
  countByState,
  countFlagged,
  countUnchargedOrders,
  faceValueTotals,
  getRecipientByExternalReferenceId,
  getRecipient,
  listReadyToSend,
  listSendingRows,
  hasTrackedOrders,
  listTrackedOrders,
  pageRecipients,
  usedEmails,
} from '../../../../electron/core/db/repos/recipients.ts';
import { expectTalliesMatchRows } from '../../../support/invariants.ts';
import { campaignInput, person, seed, T0, tempDb } from '../../../support/db-seed.ts';

let nextOrder = 1;
function order(charged: OrderOutcome['charged']): OrderOutcome {
  const id = nextOrder++;
  return { orderId: id, orderStatus: 'COMPLETED', itemId: id, itemStatus: 'PENDING', charged, chargedText: charged ? toDecimal(charged) : null, issued: null, findings: [], exchangeRate: null, feeRate: null, acceptanceExpiry: null };
}

function send(db: Db, id: number, charged: OrderOutcome['charged'] = { minor: 2500, currency: 'USD' }): OrderOutcome {
  markSending(db, id, '{}', T0);
  const o = order(charged);
  markOrdered(db, id, o, T0);
  return o;
}

describe('counts and totals', () => {
  it('counts every state, with zeros for the empty ones', () => {
    const { db } = tempDb();
    const { campaignId, rowIds } = seed(db, 6);
    const [a, b, c, d, e] = rowIds as [number, number, number, number, number];
    markSending(db, a, '{}', T0);
    send(db, b);
    send(db, c);
    updateOrderStatus(db, c, { state: 'delivered', orderStatus: 'COMPLETED', itemStatus: 'COMPLETED' }, T0);
    markSending(db, d, '{}', T0);
    markFailed(db, d, '400', T0);
    skip(db, e, T0);
    expect(countByState(db, campaignId)).toEqual({
      invalid: 0, ready: 1, sending: 1, ordered: 1, delivered: 1, failed: 1, cancelled: 0, skipped: 1,
    });
    expect(countByState(db, 'c_nothing')).toEqual({
      invalid: 0, ready: 0, sending: 0, ordered: 0, delivered: 0, failed: 0, cancelled: 0, skipped: 0,
    });
  });

  it('charged totals are per account currency, never summed across currencies, and only for this campaign', () => {
    const { db } = tempDb();
    const { campaignId, rowIds } = seed(db, 4);
    send(db, rowIds[0]!, { minor: 1917, currency: 'EUR' });
    send(db, rowIds[1]!, { minor: 1918, currency: 'EUR' });
    send(db, rowIds[2]!, { minor: 3_000_000, currency: 'KRW' });
    send(db, seed(db, 1).rowIds[0]!, { minor: 99, currency: 'EUR' });
    expect(chargedTotals(db, campaignId)).toEqual([
      { currency: 'EUR', amount: '38.35' },
      { currency: 'KRW', amount: '3000000' },
    ]);
  });

  it('charged totals are exact sums of the amounts as the service sent them, extra decimals and all', () => {
    const { db } = tempDb();
    const { campaignId, rowIds } = seed(db, 3);
    // Three converted charges of 7.4925 + 0.0075 + 12.1: rounded per row they would add up to 19.61.
    const exact = ['7.4925', '0.0075', '12.1'];
    rowIds.forEach((id, i) => {
      markSending(db, id, '{}', T0);
      const text = exact[i] ?? '0';
      markOrdered(db, id, { ...order({ minor: Math.round(Number(text) * 100), currency: 'USD' }), chargedText: text }, T0);
    });
    expect(chargedTotals(db, campaignId)).toEqual([{ currency: 'USD', amount: '19.60' }]);
    expect(getRecipient(db, rowIds[0]!)?.chargedText).toBe('7.4925');
  });

  it('counts the ordered rows whose charge is not stated yet, until a record states it', () => {
    const { db } = tempDb();
    const { campaignId, rowIds } = seed(db, 5);
    const [a, b, c, d] = rowIds as [number, number, number, number];
    send(db, a);
    const late = send(db, b, null);
    send(db, c, null);
    send(db, d, null);
    updateOrderStatus(db, d, { state: 'delivered', orderStatus: 'COMPLETED', itemStatus: 'COMPLETED' }, T0);
    // b and c ordered without a charge (d is delivered: a poll no longer reads it); another campaign's does not count.
    send(db, seed(db, 1).rowIds[0]!, null);
    expect(countUnchargedOrders(db, campaignId)).toBe(2);
    expect(chargedTotals(db, campaignId)).toEqual([{ currency: 'USD', amount: '25.00' }]);
    completeOrderRecord(db, b, { ...late, charged: { minor: 1250, currency: 'USD' }, chargedText: '12.50' }, T0, { onlyWithoutCharge: true });
    expect(countUnchargedOrders(db, campaignId)).toBe(1);
    expect(chargedTotals(db, campaignId)).toEqual([{ currency: 'USD', amount: '37.50' }]);
    expectTalliesMatchRows(db);
  });

  it('face value totals count the rows in the given states', () => {
    const { db } = tempDb();
    const { campaign } = createCampaign(db, campaignInput, [person(0), person(1, { amountMinor: 1000 }), person(2)], T0);
    const ids = db.prepare('SELECT id FROM recipients WHERE campaign_id = ? ORDER BY id').pluck().all(campaign.id) as number[];
    send(db, ids[0]!);
    expect(faceValueTotals(db, campaign.id, ['ready'])).toEqual([{ currency: 'USD', minor: 3500 }]);
    expect(faceValueTotals(db, campaign.id, ['ready', 'ordered'])).toEqual([{ currency: 'USD', minor: 6000 }]);
    expect(faceValueTotals(db, campaign.id, [])).toEqual([]);
  });

  it('counts and totals come from running tallies that stay equal to a recount through every change', () => {
    const { db } = tempDb();
    const { campaignId, rowIds } = seed(db, 5);
    const [a, b, c, d, e] = rowIds as [number, number, number, number, number];
    send(db, a, { minor: 1917, currency: 'EUR' });
    send(db, b);
    markSending(db, c, '{}', T0);
    markFailed(db, c, '400', T0);
    skip(db, d, T0);
    db.prepare(`UPDATE recipients SET discrepancies = '[]' WHERE id = ?`).run(e);
    expectTalliesMatchRows(db);
    expect(countFlagged(db, campaignId)).toBe(1);
    expect(faceValueTotals(db, campaignId, ['ready'])).toEqual([{ currency: 'USD', minor: 2500 }]);
    expect(chargedTotals(db, campaignId)).toEqual([{ currency: 'EUR', amount: '19.17' }, { currency: 'USD', amount: '25.00' }]);
    // A deleted row's tallies go with it (the app never deletes one; the tallies hold anyway).
    db.prepare('DELETE FROM recipients WHERE id = ?').run(e);
    expectTalliesMatchRows(db);
    expect(countFlagged(db, campaignId)).toBe(0);
    expect(countByState(db, campaignId)).toMatchObject({ ordered: 2, ready: 0, failed: 1, skipped: 1 });
  });

  it('charged totals stay exact where an integer sum cannot hold them: a long text, a sum past 64 bits', () => {
    const { db } = tempDb();
    const { campaignId, rowIds } = seed(db, 4);
    const texts = ['0.0000000000000000001', '1.5', '9000000000000000000', '9000000000000000000'];
    rowIds.forEach((id, i) => {
      markSending(db, id, '{}', T0);
      markOrdered(db, id, { ...order({ minor: 1, currency: 'USD' }), chargedText: texts[i] ?? '0' }, T0);
    });
    expect(chargedTotals(db, campaignId)).toEqual([{ currency: 'USD', amount: '18000000000000000001.5000000000000000001' }]);
    // The long text alone (no overflow) is still exact.
    const other = seed(db, 2);
    other.rowIds.forEach((id, i) => {
      markSending(db, id, '{}', T0);
      markOrdered(db, id, { ...order({ minor: 1, currency: 'USD' }), chargedText: ['0.0000000000000000001', '2'][i] ?? '0' }, T0);
    });
    expect(chargedTotals(db, other.campaignId)).toEqual([{ currency: 'USD', amount: '2.0000000000000000001' }]);
  });
});

describe('queues', () => {
  it('listReadyToSend pages ready rows in import order with exactly what an order needs', () => {
    const { db } = tempDb();
    const { campaignId, rowIds } = seed(db, 6);
    markSending(db, rowIds[0]!, '{}', T0);
    skip(db, rowIds[2]!, T0);
    const first = listReadyToSend(db, campaignId, { limit: 2 });
    expect(first.map((r) => r.id)).toEqual([rowIds[1], rowIds[3]]);
    expect(listReadyToSend(db, campaignId, { limit: 10, afterId: first[1]!.id }).map((r) => r.id)).toEqual([rowIds[4], rowIds[5]]);
    const full = getRecipient(db, rowIds[1]!)!;
    expect(first[0]).toEqual({
      id: full.id,
      line: full.line,
      name: full.name,
      email: full.email,
      amountMinor: full.amountMinor,
      currency: full.currency,
      message: full.message,
      externalReferenceId: full.externalReferenceId,
      // Its message's {column} fields are filled from its cells; its product may be its own (schema 7).
      source: full.source,
      productId: full.productId,
    });
  });

  it('listSendingRows finds rows left in sending, per campaign or per environment', () => {
    const { db } = tempDb();
    const sim = seed(db, 2);
    const sandbox = seed(db, 2, { environment: 'sandbox' });
    markSending(db, sim.rowIds[1]!, '{}', T0);
    markSending(db, sandbox.rowIds[0]!, '{}', T0);
    expect(listSendingRows(db).map((r) => r.id)).toEqual([sim.rowIds[1], sandbox.rowIds[0]]);
    expect(listSendingRows(db, { environment: 'sandbox' }).map((r) => r.id)).toEqual([sandbox.rowIds[0]]);
    expect(listSendingRows(db, { campaignId: sim.campaignId }).map((r) => r.id)).toEqual([sim.rowIds[1]]);
  });

  it('listTrackedOrders gives the ordered rows of every campaign of one environment and address, or of one campaign', () => {
    const { db } = tempDb();
    const a = seed(db, 2);
    const b = seed(db, 1);
    const other = seed(db, 1, { environment: 'production' });
    send(db, a.rowIds[0]!);
    send(db, a.rowIds[1]!);
    updateOrderStatus(db, a.rowIds[1]!, { state: 'delivered', orderStatus: 'COMPLETED', itemStatus: 'COMPLETED' }, T0);
    send(db, b.rowIds[0]!);
    send(db, other.rowIds[0]!);
    const elsewhere = seed(db, 1, { baseUrl: 'http://127.0.0.1:4999' });
    send(db, elsewhere.rowIds[0]!);
    const scope = { environment: 'simulator' as const, baseUrl: campaignInput.baseUrl };
    expect(listTrackedOrders(db, scope).map((r) => r.id)).toEqual([a.rowIds[0], b.rowIds[0]]);
    expect(listTrackedOrders(db, { ...scope, campaignId: b.campaignId }).map((r) => r.id)).toEqual([b.rowIds[0]]);
    expect(listTrackedOrders(db, scope)[0]).toMatchObject({ campaignId: a.campaignId, orderStatus: 'COMPLETED', itemStatus: 'PENDING', requestBody: '{}' });
    expect(hasTrackedOrders(db, scope)).toBe(true);
    expect(hasTrackedOrders(db, { ...scope, baseUrl: 'http://127.0.0.1:1' })).toBe(false);
  });

  it('finds a row by its key', () => {
    const { db } = tempDb();
    const { rowIds } = seed(db, 1);
    send(db, rowIds[0]!);
    const row = getRecipient(db, rowIds[0]!);
    expect(getRecipientByExternalReferenceId(db, row!.externalReferenceId)?.id).toBe(rowIds[0]);
    expect(getRecipientByExternalReferenceId(db, 'gb-unknown')).toBeNull();
  });
});

describe('pageRecipients', () => {
  it('pages in import order with a total, filters by state and searches name, e-mail and key', () => {
    const { db } = tempDb();
    const { campaignId, rowIds } = seed(db, 30);
    skip(db, rowIds[3]!, T0);
    const page = pageRecipients(db, campaignId, { offset: 10, limit: 5 });
    expect(page.total).toBe(30);
    expect(page.rows.map((r) => r.id)).toEqual(rowIds.slice(10, 15));
    expect(pageRecipients(db, campaignId, { states: ['skipped'] })).toMatchObject({ total: 1, rows: [{ id: rowIds[3] }] });
    expect(pageRecipients(db, campaignId, { search: 'PERSON 2' }).total).toBe(11); // 2, 20..29
    expect(pageRecipients(db, campaignId, { search: 'p7@' }).rows.map((r) => r.id)).toEqual([rowIds[7]]);
    const key = page.rows[0]!.externalReferenceId;
    expect(pageRecipients(db, campaignId, { search: key }).rows.map((r) => r.id)).toEqual([rowIds[10]]);
    // Rows by id, with the other filters; an empty list names none.
    expect(pageRecipients(db, campaignId, { ids: [rowIds[12]!, rowIds[3]!] })).toMatchObject({ total: 2, rows: [{ id: rowIds[3] }, { id: rowIds[12] }] });
    expect(pageRecipients(db, campaignId, { ids: [rowIds[12]!, rowIds[3]!], states: ['ready'] }).rows.map((r) => r.id)).toEqual([rowIds[12]]);
    expect(pageRecipients(db, campaignId, { ids: [] }).total).toBe(0);
  });

  it('treats % and _ in the search text literally', () => {
    const { db } = tempDb();
    const { campaign } = createCampaign(db, campaignInput, [person(0, { name: '100% Ada' }), person(1, { name: 'Bob' })], T0);
    expect(pageRecipients(db, campaign.id, { search: '%' }).total).toBe(1);
    expect(pageRecipients(db, campaign.id, { search: '_' }).total).toBe(0);
  });
});

describe('usedEmails', () => {
  it('gives the lower-cased addresses with a gift in other campaigns of the same environment', () => {
    const { db } = tempDb();
    const { campaign: earlier } = createCampaign(
      db,
      campaignInput,
      [person(0, { email: 'Ada@Example.com' }), person(1, { email: 'bob@example.com' }), person(2, { email: 'cy@example.com' })],
      T0,
    );
    const ids = db.prepare('SELECT id FROM recipients WHERE campaign_id = ? ORDER BY id').pluck().all(earlier.id) as number[];
    send(db, ids[0]!);
    markSending(db, ids[1]!, '{}', T0);
    // cy@ was never sent: it does not count
    const sandbox = createCampaign(db, { ...campaignInput, environment: 'sandbox' }, [person(3, { email: 'dee@example.com' })], T0);
    send(db, db.prepare('SELECT id FROM recipients WHERE campaign_id = ?').pluck().get(sandbox.campaign.id) as number);
    const current = seed(db, 1);
    send(db, current.rowIds[0]!);

    expect(usedEmails(db, 'simulator', { excludeCampaignId: current.campaignId })).toEqual(
      new Set(['ada@example.com', 'bob@example.com']),
    );
    expect(usedEmails(db, 'simulator')).toEqual(new Set(['ada@example.com', 'bob@example.com', 'p0@example.com']));
    expect(usedEmails(db, 'simulator', { states: ['ready'] })).toEqual(new Set(['cy@example.com']));
    expect(usedEmails(db, 'sandbox')).toEqual(new Set(['dee@example.com']));
  });
});
