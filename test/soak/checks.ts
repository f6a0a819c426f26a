// The end-of-soak verdict: what the simulator holds against what our data file says, read
// straight from the SQLite file (read-only), never through the engine being tested.
import Database from 'better-sqlite3';
import type { AuditAccount } from '../../electron/simulator/audit.ts';

export interface LocalRow {
  line: number;
  state: string;
  external_reference_id: string;
  order_id: number | null;
  order_status: string | null;
  item_id: number | null;
  charged_minor: number | null;
  charged_currency: string | null;
  exchange_rate: string | null;
}

export interface DataFileFacts {
  integrity: string;
  rows: LocalRow[];
  states: Record<string, number>;
}

/** Opens the data file read-only: `PRAGMA integrity_check`, and every row of the campaign. */
export function readDataFile(file: string, campaignId: string): DataFileFacts {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const integrity = (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('; ');
    const rows = db
      .prepare(
        `SELECT line, state, external_reference_id, order_id, order_status, item_id, charged_minor, charged_currency, exchange_rate
           FROM recipients WHERE campaign_id = ? ORDER BY line, id`,
      )
      .all(campaignId) as LocalRow[];
    const states: Record<string, number> = {};
    for (const row of rows) states[row.state] = (states[row.state] ?? 0) + 1;
    return { integrity, rows, states };
  } finally {
    db.close();
  }
}

export interface Verdict {
  /** Every broken invariant, one sentence each; empty when the soak passed. */
  failures: string[];
  orders: number;
  duplicates: string[];
  rowMismatches: number;
}

const MAX_LISTED = 10;

/**
 * One order per key at the service and none without a key; as many orders as valid rows; each
 * row records exactly the order the service holds for its key (id, item, status, charge, rate);
 * charged totals equal per currency.
 */
export function compareWithAudit(
  facts: DataFileFacts,
  account: AuditAccount | undefined,
  expectedRows: number,
  localCharged: readonly { currency: string; amount: string }[],
): Verdict {
  const failures: string[] = [];
  if (!account) return { failures: ['the simulator has no account for the key: nothing was ordered'], orders: 0, duplicates: [], rowMismatches: 0 };
  if (facts.integrity !== 'ok') failures.push(`PRAGMA integrity_check: ${facts.integrity}`);
  if (account.duplicates.length > 0) failures.push(`${account.duplicates.length} key(s) with more than one order: ${account.duplicates.slice(0, MAX_LISTED).join(', ')}`);
  if (account.withoutExternalReferenceId.length > 0) failures.push(`${account.withoutExternalReferenceId.length} order(s) without a key`);
  if (account.conflictingRetries.length > 0) failures.push(`${account.conflictingRetries.length} retries whose body differed from the first`);
  if (account.orders.length !== expectedRows) failures.push(`${account.orders.length} orders at the simulator for ${expectedRows} valid rows`);
  if (facts.rows.length !== expectedRows) failures.push(`${facts.rows.length} rows in the data file for ${expectedRows} in the CSV`);

  const byKey = new Map(account.orders.map((o) => [o.externalReferenceId, o]));
  let mismatches = 0;
  const mismatch = (text: string) => {
    mismatches += 1;
    if (mismatches <= MAX_LISTED) failures.push(text);
  };
  for (const row of facts.rows) {
    const order = byKey.get(row.external_reference_id);
    if (row.state !== 'ordered' && row.state !== 'delivered') mismatch(`line ${row.line} ended ${row.state}, not ordered`);
    if (!order) {
      mismatch(`line ${row.line}: no order at the simulator under ${row.external_reference_id}`);
      continue;
    }
    const local = [row.order_id, row.item_id, row.order_status, row.charged_minor, row.charged_currency, row.exchange_rate];
    const remote = [order.id, order.itemId, order.status, order.charged.minor, order.charged.currency, order.charged.rate];
    if (JSON.stringify(local) !== JSON.stringify(remote)) {
      mismatch(`line ${row.line}: local ${JSON.stringify(local)} but the simulator holds ${JSON.stringify(remote)}`);
    }
  }
  if (mismatches > MAX_LISTED) failures.push(`… and ${mismatches - MAX_LISTED} more row mismatches`);

  const remoteCharged = account.chargedTotals.map((t) => ({ currency: t.currency, amount: t.amount }));
  if (JSON.stringify(localCharged) !== JSON.stringify(remoteCharged)) {
    failures.push(`charged totals differ: local ${JSON.stringify(localCharged)}, simulator ${JSON.stringify(remoteCharged)}`);
  }
  return { failures, orders: account.orders.length, duplicates: account.duplicates, rowMismatches: mismatches };
}
