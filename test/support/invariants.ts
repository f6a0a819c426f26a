// The checks every send test ends with (docs/architecture.md, "The invariants"): one order per key
// at the simulator, and the local rows agreeing with the simulator's record row by row and in
// totals.

import { expect } from 'vitest';
import type { Db } from '../../electron/core/db/open.ts';
import { chargedTotals } from '../../electron/core/db/repos/recipients.ts';
import type { AuditAccount } from '../../electron/simulator/index.ts';
import { allRows } from './campaign.ts';

/**
 * Every row of the campaign is `ordered` (or `delivered`) but the skipped ones, the simulator holds
 * exactly one order per such row's key, none for a skipped row and none without a key, each row
 * records the order the simulator has for its key, and the charged totals agree per currency.
 */
export function expectOneOrderPerRow(db: Db, campaignId: string, account: AuditAccount): void {
  const all = allRows(db, campaignId);
  const rows = all.filter((r) => r.state !== 'skipped');
  const skippedKeys = new Set<string | null>(all.filter((r) => r.state === 'skipped').map((r) => r.externalReferenceId));
  expect(account.orders.filter((o) => skippedKeys.has(o.externalReferenceId))).toEqual([]);
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
  expectTalliesMatchRows(db);
}

/**
 * The running tallies (schema 5) equal a recount of the rows, for every campaign: what the campaign
 * screen, the progress events and `status` show is what the rows say.
 */
export function expectTalliesMatchRows(db: Db): void {
  const nonZero = (sql: string) => db.prepare(sql).safeIntegers(true).all();
  expect(
    nonZero(`SELECT campaign_id, state, currency, rows, priced, amount_minor, flagged FROM recipient_tallies
              WHERE rows <> 0 OR priced <> 0 OR amount_minor <> 0 OR flagged <> 0 ORDER BY 1, 2, 3`),
  ).toEqual(
    nonZero(`SELECT campaign_id, state, coalesce(currency, '') AS currency, count(*) AS rows,
                    sum(currency IS NOT NULL AND amount_minor IS NOT NULL) AS priced,
                    sum(CASE WHEN currency IS NOT NULL THEN coalesce(amount_minor, 0) ELSE 0 END) AS amount_minor,
                    sum(discrepancies IS NOT NULL) AS flagged
               FROM recipients GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`),
  );
  expect(
    nonZero(`SELECT campaign_id, state, currency, scale, units, texts FROM charge_tallies WHERE texts <> 0 ORDER BY 1, 2, 3, 4`),
  ).toEqual(
    nonZero(`SELECT campaign_id, state, coalesce(charged_currency, '') AS currency,
                    CASE instr(charged_text, '.') WHEN 0 THEN 0 ELSE length(charged_text) - instr(charged_text, '.') END AS scale,
                    sum(CAST(replace(charged_text, '.', '') AS INTEGER)) AS units, count(*) AS texts
               FROM recipients WHERE charged_text IS NOT NULL GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`),
  );
}
