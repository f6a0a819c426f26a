import { describe, expect, it } from 'vitest';
import { canTransition, type RowState } from '../../../../shared/domain/rows.ts';
import { openDatabase, type Db } from '../../../../electron/core/db/open.ts';
import { listEvents } from '../../../support/events.ts';
import { getRecipient } from '../../../../electron/core/db/repos/recipients.ts';
import {
  beginRetry,
  IllegalTransitionError,
  markFailed,
  markOrdered,
  markSending,
  recordAttemptError,
  updateOrderStatus,
  type OrderOutcome,
} from '../../../../electron/core/db/repos/recipient-transitions.ts';
import { editRow, requeueFailed, skip, unskip } from '../../../../electron/core/db/repos/recipient-edits.ts';
import { createCampaign } from '../../../../electron/core/db/repos/campaigns.ts';
import { campaignInput, person, seed, T0, tempDb } from '../../../support/db-seed.ts';

const BODY = '{"item":{"id":101},"external_reference_id":"k"}';

const ORDER: OrderOutcome = {
  orderId: 9001,
  orderStatus: 'COMPLETED',
  itemId: 7001,
  itemStatus: 'PENDING',
  charged: { minor: 1917, currency: 'EUR' },
  chargedText: '19.17',
  issued: { text: '25', currency: 'USD' },
  findings: [],
  exchangeRate: { rate: '0.7668', from: 'USD', to: 'EUR' },
  feeRate: '0.015',
  acceptanceExpiry: T0 + 86_400_000,
};

function row(db: Db, id: number) {
  const r = getRecipient(db, id);
  if (!r) throw new Error(`row ${id} missing`);
  return r;
}

function setup(n = 1) {
  const { db } = tempDb();
  const { campaignId, rowIds } = seed(db, n);
  return { db, campaignId, id: rowIds[0]!, rowIds };
}

describe('markSending', () => {
  it('moves ready → sending once: a second call on the same row returns null (compare-and-set)', () => {
    const { db, id } = setup();
    const first = markSending(db, id, BODY, T0 + 1);
    expect(first).toEqual({ externalReferenceId: row(db, id).externalReferenceId, requestBody: BODY, attempts: 1 });
    expect(markSending(db, id, BODY, T0 + 2)).toBeNull();
    expect(row(db, id)).toMatchObject({ state: 'sending', attempts: 1, sentAt: T0 + 1, requestBody: BODY, updatedAt: T0 + 1 });
  });

  it('commits the intent before returning: another connection already sees the row as sending', () => {
    const { db, id } = setup();
    markSending(db, id, BODY, T0);
    const other = openDatabase(db.name);
    try {
      expect(other.prepare('SELECT state, request_body FROM recipients WHERE id = ?').get(id)).toEqual({ state: 'sending', request_body: BODY });
    } finally {
      other.close();
    }
  });

  it('two connections to the same file each trying to send the same row: exactly one succeeds', () => {
    const { db, rowIds } = setup(20);
    const other = openDatabase(db.name);
    try {
      const wins = rowIds.map((id, i) => {
        const [first, second] = i % 2 === 0 ? [db, other] : [other, db];
        return [markSending(first, id, BODY, T0), markSending(second, id, BODY, T0)].filter((r) => r !== null).length;
      });
      expect(wins).toEqual(rowIds.map(() => 1));
      expect(db.prepare("SELECT count(*) FROM events WHERE kind = 'sending'").pluck().get()).toBe(20);
    } finally {
      other.close();
    }
  });

  it('refuses rows that are not ready', () => {
    const { db, rowIds } = setup(2);
    skip(db, rowIds[1]!, T0);
    expect(markSending(db, rowIds[1]!, BODY, T0)).toBeNull();
    expect(row(db, rowIds[1]!).state).toBe('skipped');
  });
});

describe('request body', () => {
  it('is frozen on the first send: retries and a re-send after a definite rejection carry the same bytes', () => {
    const { db, id } = setup();
    markSending(db, id, BODY, T0);
    expect(recordAttemptError(db, id, { error: 'timeout after 30 s', nextAttemptAt: T0 + 2000 }, T0 + 1)).toBe(true);
    expect(beginRetry(db, id, T0 + 2000)).toMatchObject({ requestBody: BODY, attempts: 2 });
    markFailed(db, id, '400 invalid e-mail', T0 + 3000);
    requeueFailed(db, id, T0 + 4000);
    const again = markSending(db, id, '{"a different":"body"}', T0 + 5000);
    expect(again).toMatchObject({ requestBody: BODY, attempts: 3 });
    expect(row(db, id)).toMatchObject({ requestBody: BODY, sentAt: T0 });
  });

  it('cannot be rewritten by any UPDATE once the row may have an order', () => {
    const { db, id } = setup();
    markSending(db, id, BODY, T0);
    expect(() => db.prepare("UPDATE recipients SET request_body = '{}' WHERE id = ?").run(id)).toThrow(/never changes/);
    expect(() => db.prepare('UPDATE recipients SET request_body = NULL WHERE id = ?').run(id)).toThrow(/never changes/);
    markOrdered(db, id, ORDER, T0 + 1);
    expect(() => db.prepare("UPDATE recipients SET request_body = '{}' WHERE id = ?").run(id)).toThrow(/never changes/);
  });

  it('a sending row must have one (schema check)', () => {
    const { db, id } = setup();
    expect(() => db.prepare("UPDATE recipients SET state = 'sending' WHERE id = ?").run(id)).toThrow(/CHECK/);
  });
});

describe('ambiguous attempts', () => {
  it('recordAttemptError keeps the row sending, with the error and the time of the next attempt', () => {
    const { db, id, campaignId } = setup();
    markSending(db, id, BODY, T0);
    recordAttemptError(db, id, { error: 'connection reset', nextAttemptAt: T0 + 1500 }, T0 + 10);
    expect(row(db, id)).toMatchObject({ state: 'sending', lastError: 'connection reset', nextAttemptAt: T0 + 1500, attempts: 1 });
    expect(listEvents(db, campaignId).map((e) => e.kind)).toEqual(['imported', 'sending', 'ambiguous']);
  });

  it('beginRetry and recordAttemptError only apply to a sending row', () => {
    const { db, id } = setup();
    expect(beginRetry(db, id, T0)).toBeNull();
    expect(recordAttemptError(db, id, { error: 'x', nextAttemptAt: null }, T0)).toBe(false);
    expect(row(db, id)).toMatchObject({ state: 'ready', attempts: 0, lastError: null });
  });
});

describe('markOrdered / markFailed', () => {
  it('markOrdered records the order, the charge in the account currency, the rate as text, and clears the error', () => {
    const { db, id, campaignId } = setup();
    markSending(db, id, BODY, T0);
    recordAttemptError(db, id, { error: 'timeout', nextAttemptAt: T0 + 1 }, T0);
    beginRetry(db, id, T0 + 1);
    expect(markOrdered(db, id, ORDER, T0 + 2)).toBe(true);
    expect(markOrdered(db, id, ORDER, T0 + 3)).toBe(false);
    expect(row(db, id)).toMatchObject({
      state: 'ordered',
      orderId: 9001,
      orderStatus: 'COMPLETED',
      itemId: 7001,
      itemStatus: 'PENDING',
      charged: { minor: 1917, currency: 'EUR' },
      exchangeRate: { rate: '0.7668', from: 'USD', to: 'EUR' },
      feeRate: '0.015',
      acceptanceExpiry: T0 + 86_400_000,
      orderedAt: T0 + 2,
      lastError: null,
      nextAttemptAt: null,
      attempts: 2,
    });
    expect(listEvents(db, campaignId).at(-1)).toMatchObject({ kind: 'ordered', recipientId: id, detail: { orderId: 9001, via: 'response' } });
  });

  it('an order found by reconciliation is logged as reconciled', () => {
    const { db, id, campaignId } = setup();
    markSending(db, id, BODY, T0);
    markOrdered(db, id, ORDER, T0 + 1, 'reconciliation');
    expect(listEvents(db, campaignId).at(-1)).toMatchObject({ kind: 'reconciled', detail: { via: 'reconciliation' } });
  });

  it('refuses a rate that is not plain decimal text', () => {
    const { db, id } = setup();
    markSending(db, id, BODY, T0);
    expect(() => markOrdered(db, id, { ...ORDER, exchangeRate: { rate: '1e-7', from: 'KRW', to: 'USD' } }, T0)).toThrow();
    expect(row(db, id).state).toBe('sending');
  });

  it('markFailed moves sending → failed with the service message, once', () => {
    const { db, id } = setup();
    expect(markFailed(db, id, 'no', T0)).toBe(false);
    markSending(db, id, BODY, T0);
    expect(markFailed(db, id, '422: custom_amount out of range', T0 + 1)).toBe(true);
    expect(markFailed(db, id, 'again', T0 + 2)).toBe(false);
    expect(row(db, id)).toMatchObject({ state: 'failed', lastError: '422: custom_amount out of range' });
    expect(markOrdered(db, id, ORDER, T0 + 3)).toBe(false);
  });
});

describe('updateOrderStatus', () => {
  it('ordered → delivered stamps delivered_at; ordered → ordered refreshes statuses without an event', () => {
    const { db, id, campaignId } = setup();
    markSending(db, id, BODY, T0);
    markOrdered(db, id, ORDER, T0 + 1);
    const before = listEvents(db, campaignId).length;
    expect(updateOrderStatus(db, id, { state: 'ordered', orderStatus: 'COMPLETED', itemStatus: 'PENDING' }, T0 + 2)).toBe(true);
    expect(listEvents(db, campaignId)).toHaveLength(before);
    expect(updateOrderStatus(db, id, { state: 'delivered', orderStatus: 'COMPLETED', itemStatus: 'COMPLETED' }, T0 + 3)).toBe(true);
    expect(row(db, id)).toMatchObject({ state: 'delivered', itemStatus: 'COMPLETED', deliveredAt: T0 + 3 });
    expect(listEvents(db, campaignId).at(-1)).toMatchObject({ kind: 'delivered', recipientId: id });
    expect(updateOrderStatus(db, id, { state: 'delivered', orderStatus: 'COMPLETED', itemStatus: 'COMPLETED' }, T0 + 4)).toBe(false);
  });

  it('ordered → cancelled', () => {
    const { db, id } = setup();
    markSending(db, id, BODY, T0);
    markOrdered(db, id, ORDER, T0 + 1);
    expect(updateOrderStatus(db, id, { state: 'cancelled', orderStatus: 'PAYMENT_EXPIRED', itemStatus: 'CANCELLED' }, T0 + 2)).toBe(true);
    expect(row(db, id)).toMatchObject({ state: 'cancelled', orderStatus: 'PAYMENT_EXPIRED', deliveredAt: null });
  });

  it('refuses an illegal target state, and does nothing to a row that is not ordered', () => {
    const { db, id } = setup();
    expect(() =>
      // @ts-expect-error 'ready' is not a state an order status can lead to
      updateOrderStatus(db, id, { state: 'ready', orderStatus: 'COMPLETED', itemStatus: null }, T0),
    ).toThrow(IllegalTransitionError);
    expect(updateOrderStatus(db, id, { state: 'delivered', orderStatus: 'COMPLETED', itemStatus: 'COMPLETED' }, T0)).toBe(false);
    expect(row(db, id).state).toBe('ready');
  });
});

describe('skip / unskip / requeueFailed', () => {
  it('skip takes ready and invalid rows only; unskip returns a row to ready or invalid by its stored findings', () => {
    const { db } = tempDb();
    const { campaign } = createCampaign(
      db,
      campaignInput,
      [person(0), person(1, { email: 'bad', errors: [{ field: 'email', message: 'not an e-mail address' }] })],
      T0,
    );
    const [good, bad] = db.prepare('SELECT id FROM recipients WHERE campaign_id = ? ORDER BY id').pluck().all(campaign.id) as number[];
    expect(skip(db, good!, T0)).toBe(true);
    expect(skip(db, good!, T0)).toBe(false);
    expect(skip(db, bad!, T0)).toBe(true);
    expect(unskip(db, good!, T0)).toBe(true);
    expect(unskip(db, bad!, T0)).toBe(true);
    expect(row(db, good!).state).toBe('ready');
    expect(row(db, bad!).state).toBe('invalid');
    expect(unskip(db, good!, T0)).toBe(false);
    markSending(db, good!, BODY, T0);
    expect(skip(db, good!, T0)).toBe(false);
    expect(row(db, good!).state).toBe('sending');
  });

  it('requeueFailed applies only to failed rows and keeps key and body', () => {
    const { db, id } = setup();
    expect(requeueFailed(db, id, T0)).toBe(false);
    markSending(db, id, BODY, T0);
    const key = row(db, id).externalReferenceId;
    markFailed(db, id, '400', T0);
    expect(requeueFailed(db, id, T0 + 1)).toBe(true);
    expect(row(db, id)).toMatchObject({ state: 'ready', externalReferenceId: key, requestBody: BODY });
  });
});

describe('editRow', () => {
  const fixed = { name: 'Ada', email: 'ada@example.com', amountMinor: 2500, currency: 'USD', errors: [] };

  it('fixes an invalid row into a ready one, and a ready row with new errors becomes invalid', () => {
    const { db } = tempDb();
    const { campaign } = createCampaign(db, campaignInput, [person(0, { email: null, errors: [{ message: 'E-mail is missing' }] })], T0);
    const id = db.prepare('SELECT id FROM recipients WHERE campaign_id = ?').pluck().get(campaign.id) as number;
    expect(editRow(db, id, fixed, T0 + 1)).toBe(true);
    expect(row(db, id)).toMatchObject({ state: 'ready', email: 'ada@example.com', errors: [] });
    expect(editRow(db, id, { ...fixed, email: 'nope', errors: [{ field: 'email', message: 'not an e-mail' }] }, T0 + 2)).toBe(true);
    expect(row(db, id)).toMatchObject({ state: 'invalid', email: 'nope', errors: [{ field: 'email', message: 'not an e-mail' }] });
    expect(listEvents(db, campaign.id).filter((e) => e.kind === 'edited')).toHaveLength(2);
  });

  it('refuses rows past ready, leaving them untouched', () => {
    const { db, id } = setup();
    markSending(db, id, BODY, T0);
    expect(editRow(db, id, { ...fixed, email: 'x@example.com' }, T0 + 1)).toBe(false);
    expect(row(db, id).email).toBe('p0@example.com');
  });

  it('drops a body frozen by an earlier, definitely rejected send, so the corrected values go next time', () => {
    const { db, id } = setup();
    markSending(db, id, BODY, T0);
    markFailed(db, id, '400 invalid e-mail', T0);
    requeueFailed(db, id, T0);
    editRow(db, id, fixed, T0 + 1);
    expect(row(db, id).requestBody).toBeNull();
    expect(markSending(db, id, '{"new":true}', T0 + 2)).toMatchObject({ requestBody: '{"new":true}' });
  });
});

describe('external_reference_id', () => {
  it('never changes through any transition or edit', () => {
    const { db, rowIds } = setup(3);
    const [a, b, c] = rowIds as [number, number, number];
    const keys = rowIds.map((id) => row(db, id).externalReferenceId);
    editRow(db, a, { name: 'A', email: 'a@example.com', amountMinor: 100, currency: 'USD', errors: [] }, T0);
    markSending(db, a, BODY, T0);
    recordAttemptError(db, a, { error: 'timeout', nextAttemptAt: T0 }, T0);
    beginRetry(db, a, T0);
    markOrdered(db, a, ORDER, T0);
    updateOrderStatus(db, a, { state: 'delivered', orderStatus: 'COMPLETED', itemStatus: 'COMPLETED' }, T0);
    skip(db, b, T0);
    unskip(db, b, T0);
    markSending(db, c, BODY, T0);
    markFailed(db, c, '400', T0);
    requeueFailed(db, c, T0);
    expect(rowIds.map((id) => row(db, id).externalReferenceId)).toEqual(keys);
  });

  it('cannot be changed by a plain UPDATE either', () => {
    const { db, id } = setup();
    expect(() => db.prepare("UPDATE recipients SET external_reference_id = 'gb-other' WHERE id = ?").run(id)).toThrow(/never changes/);
  });

  it('is unique across campaigns', () => {
    const { db, id } = setup();
    const key = row(db, id).externalReferenceId;
    const other = seed(db, 1).rowIds[0]!;
    expect(() =>
      db.prepare("UPDATE recipients SET external_reference_id = ? WHERE id = ?").run(key, other),
    ).toThrow();
  });
});

describe('illegal transitions per rows.ts', () => {
  it('no function moves a row along a transition canTransition forbids', () => {
    // Walk a row to every reachable state and try every mover on it; whatever applies must be allowed.
    const { db } = tempDb();
    const movers = {
      markSending: (id: number) => markSending(db, id, BODY, T0) !== null,
      markOrdered: (id: number) => markOrdered(db, id, ORDER, T0),
      markFailed: (id: number) => markFailed(db, id, 'x', T0),
      delivered: (id: number) => updateOrderStatus(db, id, { state: 'delivered', orderStatus: 'COMPLETED', itemStatus: 'COMPLETED' }, T0),
      cancelled: (id: number) => updateOrderStatus(db, id, { state: 'cancelled', orderStatus: 'CANCELLED', itemStatus: 'CANCELLED' }, T0),
      skip: (id: number) => skip(db, id, T0),
      unskip: (id: number) => unskip(db, id, T0),
      requeueFailed: (id: number) => requeueFailed(db, id, T0),
    };
    const paths: Record<RowState, (keyof typeof movers)[]> = {
      invalid: [],
      ready: [],
      sending: ['markSending'],
      ordered: ['markSending', 'markOrdered'],
      delivered: ['markSending', 'markOrdered', 'delivered'],
      failed: ['markSending', 'markFailed'],
      cancelled: ['markSending', 'markOrdered', 'cancelled'],
      skipped: ['skip'],
    };
    for (const [state, path] of Object.entries(paths)) {
      for (const [name, mover] of Object.entries(movers)) {
        const { campaign } = createCampaign(
          db,
          campaignInput,
          [state === 'invalid' ? person(0, { errors: [{ message: 'bad' }] }) : person(0)],
          T0,
        );
        const id = db.prepare('SELECT id FROM recipients WHERE campaign_id = ?').pluck().get(campaign.id) as number;
        for (const step of path) expect(movers[step](id)).toBe(true);
        expect(row(db, id).state).toBe(state);
        const applied = mover(id);
        const after = row(db, id).state;
        if (applied) expect(canTransition(state as RowState, after), `${name} moved ${state} -> ${after}`).toBe(true);
        else expect(after, `${name} on ${state}`).toBe(state);
      }
    }
  });
});
