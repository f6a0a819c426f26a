import { sql as initial } from './0001-initial.ts';
import { sql as authPause } from './0002-auth-pause.ts';
import { sql as sendLeases } from './0003-send-leases.ts';
import { sql as verifiedOrders } from './0004-verified-orders.ts';
import { sql as tallies } from './0005-tallies.ts';
import { sql as skipPolicies } from './0006-skip-policies.ts';
import { sql as productsPerRow } from './0007-products-per-row.ts';
import { sql as giftPerRow } from './0008-gift-per-row.ts';
import { sql as lastPolled } from './0009-last-polled.ts';
import { sql as amountText } from './0010-amount-text.ts';
import { sql as unconfirmedPause } from './0011-unconfirmed-pause.ts';
import { sql as heldRows } from './0012-held-rows.ts';
import { sql as witnessIndex } from './0013-witness-index.ts';

export interface Migration {
  /** The schema version this migration brings the database to (1, 2, 3…, no gaps). */
  readonly version: number;
  readonly name: string;
  readonly sql: string;
  /** Rebuilds a table that others refer to: runs with foreign keys off, checked before commit. */
  readonly rebuildsTables?: boolean;
}

// Migrations are TypeScript modules exporting their SQL, so a bundle carries them with no file copying.
// Append only: a released migration is never edited, a change is a new one.
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: '0001-initial', sql: initial },
  { version: 2, name: '0002-auth-pause', sql: authPause, rebuildsTables: true },
  { version: 3, name: '0003-send-leases', sql: sendLeases },
  { version: 4, name: '0004-verified-orders', sql: verifiedOrders, rebuildsTables: true },
  { version: 5, name: '0005-tallies', sql: tallies },
  { version: 6, name: '0006-skip-policies', sql: skipPolicies },
  { version: 7, name: '0007-products-per-row', sql: productsPerRow },
  { version: 8, name: '0008-gift-per-row', sql: giftPerRow },
  { version: 9, name: '0009-last-polled', sql: lastPolled },
  { version: 10, name: '0010-amount-text', sql: amountText },
  { version: 11, name: '0011-unconfirmed-pause', sql: unconfirmedPause, rebuildsTables: true },
  { version: 12, name: '0012-held-rows', sql: heldRows },
  { version: 13, name: '0013-witness-index', sql: witnessIndex },
];

export const SCHEMA_VERSION = MIGRATIONS.length;
