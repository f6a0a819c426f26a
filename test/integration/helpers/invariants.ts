// The checks every send test ends with (DESIGN "Testing the invariants"): one order per key at the
// simulator, and the local rows agreeing with the simulator's record row by row and in totals.

import { expect } from 'vitest';
import type { Db } from '../../../electron/core/db/open.ts';
import { chargedTotals } from '../../../electron/core/db/repos/recipients.ts';
import type { AuditAccount } from '../../../electron/simulator/index.ts';
import { allRows } from './campaign.ts';

/**
 * Every row of the campaign is `ordered` (or `delivered`), the simulator holds exactly one order per
 * row's key and none without a key, each row records the order the simulator has for its key, and
 * the charged totals agree per currency.
 */
export function expectOneOrderPerRow(db: Db, campaignId: string, account: AuditAccount): void {
  const rows = allRows(db, campaignId);
  expect(account.duplicates).toEqual([]);
  expect(account.withoutExternalReferenceId).toEqual([]);
  expect(account.conflictingRetries).toEqual([]);
  expect(account.orders.length).toBe(rows.length);
  const byKey = new Map(account.orders.map((o) => [o.externalReferenceId, o]));
  for (const row of rows) {
    expect(['ordered', 'delivered'], `row ${row.id} (line ${row.line})`).toContain(row.state);
    const order = byKey.get(row.externalReferenceId);
    expect(order, `an order for ${row.externalReferenceId}`).toBeDefined();
    expect(row.orderId).toBe(order?.id);
    expect(row.itemId).toBe(order?.itemId);
    expect(row.charged).toEqual({ minor: order?.charged.minor, currency: order?.charged.currency });
  }
  expect(chargedTotals(db, campaignId)).toEqual(account.chargedTotals.map((m) => ({ currency: m.currency, amount: m.amount })));
}
