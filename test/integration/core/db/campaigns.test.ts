import { describe, expect, it } from 'vitest';
import { CorruptRowError } from '../../../../electron/core/db/parse.ts';
import {
  createCampaign,
  getCampaign,
  IllegalSendStateError,
  listCampaigns,
  pauseInterrupted,
  setSendState,
} from '../../../../electron/core/db/repos/campaigns.ts';
import { listEvents } from '../../../support/events.ts';
import { countByState, getRecipient, listByState } from '../../../../electron/core/db/repos/recipients.ts';
import { EXTERNAL_REFERENCE_ID_PATTERN } from '../../../../electron/core/db/ids.ts';
import { campaignInput, person, seed, T0, tempDb } from '../../../support/db-seed.ts';

describe('createCampaign (the import)', () => {
  it('stores the campaign and every row, each with its own key, and logs one imported event with the counts', () => {
    const { db } = tempDb();
    const rows = [
      person(0),
      person(1, { email: null, errors: [{ field: 'email', message: 'E-mail is missing' }] }),
      person(2, { warnings: [{ message: 'Same e-mail as line 2' }], source: { Email: 'p2@example.com' } }),
    ];
    const { campaign, counts } = createCampaign(db, campaignInput, rows, T0);
    expect(campaign).toMatchObject({ name: 'Speakers 2026', environment: 'simulator', sendState: 'draft', createdAt: T0 });
    expect(campaign.id).toMatch(/^c_[0-9a-z]{10}$/);
    expect(campaign.product).toEqual(campaignInput.product);
    expect(counts).toEqual({ invalid: 1, ready: 2, sending: 0, ordered: 0, delivered: 0, failed: 0, cancelled: 0, skipped: 0 });

    const stored = listByState(db, campaign.id, 'ready');
    expect(stored.map((r) => r.line)).toEqual([2, 4]);
    expect(stored[1]).toMatchObject({ warnings: [{ message: 'Same e-mail as line 2' }], source: { Email: 'p2@example.com' } });
    const invalid = listByState(db, campaign.id, 'invalid')[0]!;
    expect(invalid).toMatchObject({ line: 3, email: null, errors: [{ field: 'email', message: 'E-mail is missing' }] });

    const keys = [...stored, invalid].map((r) => r.externalReferenceId);
    expect(new Set(keys).size).toBe(3);
    for (const key of keys) expect(key).toMatch(EXTERNAL_REFERENCE_ID_PATTERN);

    const events = listEvents(db, campaign.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'imported', recipientId: null, detail: { inserted: 3, ready: 2, invalid: 1 } });
  });

  it('never half-happens: a row that breaks a constraint mid-import leaves neither the campaign nor any row', () => {
    const { db } = tempDb();
    const rows = [person(0), person(1), person(2, { amountMinor: -5 }), person(3)];
    expect(() => createCampaign(db, campaignInput, rows, T0)).toThrow(/CHECK constraint/);
    expect(db.prepare('SELECT count(*) FROM campaigns').pluck().get()).toBe(0);
    expect(db.prepare('SELECT count(*) FROM recipients').pluck().get()).toBe(0);
    expect(db.prepare('SELECT count(*) FROM events').pluck().get()).toBe(0);
  });

  it('refuses a product snapshot that lacks what the price kind needs', () => {
    const { db } = tempDb();
    const product = { priceKind: 'range', currency: 'USD', deliveryMethods: ['EMAIL'], availability: 'ON_SALE', minMinor: 100 };
    // @ts-expect-error the type forbids it too; the check must hold for untyped callers
    expect(() => createCampaign(db, { ...campaignInput, product }, [], T0)).toThrow();
    expect(db.prepare('SELECT count(*) FROM campaigns').pluck().get()).toBe(0);
  });

  it('a ready row without an e-mail or an amount is refused by the schema', () => {
    const { db } = tempDb();
    expect(() => createCampaign(db, campaignInput, [person(0, { email: null })], T0)).toThrow(/CHECK constraint/);
    expect(() => createCampaign(db, campaignInput, [person(0, { amountMinor: null })], T0)).toThrow(/CHECK constraint/);
  });
});

describe('STRICT tables', () => {
  it('refuse a value of the wrong type instead of storing it', () => {
    const { db } = tempDb();
    const { rowIds } = seed(db, 1);
    expect(() => db.prepare("UPDATE recipients SET amount_minor = '25 USD' WHERE id = ?").run(rowIds[0])).toThrow(
      /cannot store TEXT value in INTEGER column/,
    );
    expect(() => db.prepare('UPDATE recipients SET amount_minor = 25.5 WHERE id = ?').run(rowIds[0])).toThrow(
      /cannot store REAL value in INTEGER column/,
    );
    expect(() => db.prepare('UPDATE recipients SET order_id = 1.5 WHERE id = ?').run(rowIds[0])).toThrow(/REAL/);
  });

  it('refuse a state outside the list and an unknown environment', () => {
    const { db } = tempDb();
    const { rowIds, campaignId } = seed(db, 1);
    expect(() => db.prepare("UPDATE recipients SET state = 'lost' WHERE id = ?").run(rowIds[0])).toThrow(/CHECK/);
    expect(() => db.prepare("UPDATE campaigns SET environment = 'staging' WHERE id = ?").run(campaignId)).toThrow(/CHECK/);
  });
});

describe('rows are read back parsed', () => {
  it('a corrupted value in a recipient row stops with a message naming the table, row and field', () => {
    const { db } = tempDb();
    const { rowIds } = seed(db, 1);
    db.prepare("UPDATE recipients SET errors = '{\"not\":\"a list\"}' WHERE id = ?").run(rowIds[0]);
    expect(() => getRecipient(db, rowIds[0]!)).toThrow(CorruptRowError);
    expect(() => getRecipient(db, rowIds[0]!)).toThrow(new RegExp(`recipients row ${rowIds[0]}: .*errors`, 's'));
  });

  it('a campaign whose product snapshot no longer parses is reported, not cast', () => {
    const { db } = tempDb();
    const { campaignId } = seed(db, 0);
    db.prepare("UPDATE campaigns SET product_snapshot = '{\"priceKind\":\"fixed\"}' WHERE id = ?").run(campaignId);
    expect(() => getCampaign(db, campaignId)).toThrow(/campaigns row c_.*product_snapshot/s);
  });
});

describe('campaign send state', () => {
  it('moves by compare-and-set, logs each move, and keeps a pause reason only while paused', () => {
    const { db } = tempDb();
    const { campaignId } = seed(db, 1);
    expect(setSendState(db, campaignId, { from: 'draft', to: 'sending' }, T0 + 1)).toBe(true);
    expect(setSendState(db, campaignId, { from: 'draft', to: 'sending' }, T0 + 2)).toBe(false);
    expect(
      setSendState(db, campaignId, { from: 'sending', to: 'paused', reason: 'circuit-breaker', detail: '5 timeouts in a row' }, T0 + 3),
    ).toBe(true);
    expect(getCampaign(db, campaignId)).toMatchObject({ sendState: 'paused', pausedReason: 'circuit-breaker', pausedDetail: '5 timeouts in a row' });
    expect(setSendState(db, campaignId, { from: 'paused', to: 'sending' }, T0 + 4)).toBe(true);
    expect(getCampaign(db, campaignId)).toMatchObject({ sendState: 'sending', pausedReason: null, pausedDetail: null, updatedAt: T0 + 4 });
    expect(listEvents(db, campaignId).map((e) => e.kind)).toEqual(['imported', 'started', 'paused', 'resumed']);
  });

  it('refuses a move that is never allowed', () => {
    const { db } = tempDb();
    const { campaignId } = seed(db, 1);
    expect(() => setSendState(db, campaignId, { from: 'draft', to: 'done' }, T0)).toThrow(IllegalSendStateError);
  });

  it('the schema refuses a pause without a reason', () => {
    const { db } = tempDb();
    const { campaignId } = seed(db, 1);
    expect(() => db.prepare("UPDATE campaigns SET send_state = 'paused' WHERE id = ?").run(campaignId)).toThrow(/CHECK/);
  });

  it('pauseInterrupted pauses every campaign left sending, so nothing sends until a person resumes', () => {
    const { db } = tempDb();
    const a = seed(db, 1).campaignId;
    const b = seed(db, 1).campaignId;
    const c = seed(db, 1).campaignId;
    setSendState(db, a, { from: 'draft', to: 'sending' }, T0);
    setSendState(db, c, { from: 'draft', to: 'sending' }, T0);
    expect(pauseInterrupted(db, T0 + 10).sort()).toEqual([a, c].sort());
    expect(getCampaign(db, a)).toMatchObject({ sendState: 'paused', pausedReason: 'interrupted' });
    expect(getCampaign(db, b)).toMatchObject({ sendState: 'draft' });
    expect(pauseInterrupted(db, T0 + 20)).toEqual([]);
  });
});

describe('listCampaigns', () => {
  it('lists newest first, optionally by environment', () => {
    const { db } = tempDb();
    const a = seed(db, 0, {}, T0).campaignId;
    const b = seed(db, 0, { environment: 'sandbox' }, T0 + 1).campaignId;
    const c = seed(db, 0, {}, T0 + 2).campaignId;
    expect(listCampaigns(db).map((x) => x.id)).toEqual([c, b, a]);
    expect(listCampaigns(db, { environment: 'simulator' }).map((x) => x.id)).toEqual([c, a]);
    expect(countByState(db, a).ready).toBe(0);
  });
});
