import { describe, expect, it } from 'vitest';
import { appendEvent, eventTimeline } from '../../../../electron/core/db/repos/events.ts';
import { markOrdered, markSending, updateOrderStatus } from '../../../../electron/core/db/repos/recipient-transitions.ts';
import { seed, T0, tempDb } from '../../../support/db-seed.ts';

describe('events', () => {
  it('are append-only: UPDATE and DELETE are refused by the database', () => {
    const { db } = tempDb();
    const { campaignId } = seed(db, 1);
    const id = appendEvent(db, { campaignId, kind: 'paused', detail: { reason: 'user' } }, T0);
    expect(() => db.prepare("UPDATE events SET kind = 'resumed' WHERE id = ?").run(id)).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM events WHERE id = ?').run(id)).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM events').run()).toThrow(/append-only/);
    expect(db.prepare('SELECT kind, detail, at FROM events WHERE id = ?').get(id)).toEqual({ kind: 'paused', detail: '{"reason":"user"}', at: T0 });
  });

  it('refuse an unknown kind', () => {
    const { db } = tempDb();
    const { campaignId } = seed(db, 0);
    // @ts-expect-error not a kind
    expect(() => appendEvent(db, { campaignId, kind: 'exploded' }, T0)).toThrow();
  });

  it('timeline counts orders and deliveries per bucket', () => {
    const { db } = tempDb();
    const { campaignId, rowIds } = seed(db, 3);
    const minute = 60_000;
    const base = Math.floor(T0 / minute) * minute;
    rowIds.forEach((id, i) => {
      markSending(db, id, '{}', base);
      markOrdered(
        db,
        id,
        { orderId: i + 1, orderStatus: 'COMPLETED', itemId: i + 1, itemStatus: 'PENDING', charged: null, chargedText: null, issued: null, findings: [], exchangeRate: null, feeRate: null, acceptanceExpiry: null },
        base + i * 20_000,
      );
    });
    updateOrderStatus(db, rowIds[0]!, { state: 'delivered', orderStatus: 'COMPLETED', itemStatus: 'COMPLETED' }, base + 61_000);
    expect(eventTimeline(db, campaignId, minute)).toEqual([
      { start: base, ordered: 3, delivered: 0 },
      { start: base + minute, ordered: 0, delivered: 1 },
    ]);
    expect(() => eventTimeline(db, campaignId, 0)).toThrow(RangeError);
  });
});
