// The test-only record of what the simulator did, per key: every order, every charge, retries
// that conflicted, requests and injected faults. Tests compare it with the client's own records.
// An account is named by its API key when this process has been given that key (a request, a
// control call, or the `keys`/`accounts` options); an account replayed from a state file whose key
// has not come up since the restart is named `sha256:<account id>` (hiddenKeyLabel), since the
// file holds only that hash.

import { fromNumber, MoneyError, toDecimal, totalsByCurrency } from '../../shared/domain/money.ts';
import { labelOfAccountId } from './account-id.ts';
import { decToString } from './decimal.ts';
import { requestedAmountOf } from './order-request.ts';
import type { Account, OrderRecord, Store } from './store.ts';
import { FAULT_KINDS, type FaultKind, type FaultSettings, type ItemStatus, type OrderStatus } from './types.ts';

export interface AuditAmount {
  /** Decimal text with the currency's number of decimals ("22.95", "30000"). */
  amount: string;
  minor: number;
  currency: string;
}

export interface AuditOrder {
  id: number;
  itemId: number;
  externalReferenceId: string | null;
  productId: number;
  productSlug: string;
  /**
   * The custom_amount the request asked for (item.custom_amount, else the top-level one), as
   * decimal text in the product currency, or null. Set beside `price` it shows whether the
   * service issued what was asked (the item-or-minimum dialect issues the minimum instead).
   */
  requestedAmount: string | null;
  price: AuditAmount;
  charged: AuditAmount & { rate: string; feeRate: string };
  status: OrderStatus;
  itemStatus: ItemStatus;
  createdAt: string;
}

export interface AuditAccount {
  currency: string;
  balance: AuditAmount;
  orders: AuditOrder[];
  /** external_reference_ids with more than one order. Must always be empty. */
  duplicates: string[];
  /** Retries whose body differed from the one that created the order (the order was returned anyway). */
  conflictingRetries: { externalReferenceId: string; orderId: number; at: string }[];
  /** Orders created without an external_reference_id (a client should always send one). */
  withoutExternalReferenceId: number[];
  chargedTotals: AuditAmount[];
  /** Route label → HTTP status → count. */
  requests: Record<string, Record<string, number>>;
  faults: Record<FaultKind, number>;
}

export interface AuditReport {
  /**
   * By API key; by `sha256:<account id>` for an account loaded from a state file whose key this
   * process has not been given since it started (hiddenKeyLabel(key) names it).
   */
  accounts: Record<string, AuditAccount>;
  /** Requests refused before a key was accepted (401), and unknown routes without a key. */
  unauthenticatedRequests: Record<string, Record<string, number>>;
  faultSettings: FaultSettings;
}

export function buildAudit(store: Store, unauthenticated: Map<string, number>, faultSettings: FaultSettings): AuditReport {
  const accounts: Record<string, AuditAccount> = {};
  for (const account of store.allAccounts()) {
    accounts[store.keyOf(account) ?? labelOfAccountId(account.id)] = auditAccount(store, account);
  }
  return { accounts, unauthenticatedRequests: nestCounts(unauthenticated), faultSettings };
}

function auditAccount(store: Store, a: Account): AuditAccount {
  const refCounts = new Map<string, number>();
  for (const o of a.orders) {
    if (o.externalReferenceId !== null) refCounts.set(o.externalReferenceId, (refCounts.get(o.externalReferenceId) ?? 0) + 1);
  }
  const faults = Object.fromEntries(FAULT_KINDS.map((k) => [k, a.faults.get(k) ?? 0])) as Record<FaultKind, number>;
  return {
    currency: a.currency,
    balance: amount({ minor: a.balanceMinor, currency: a.currency }),
    orders: a.orders.map((o) => ({
      id: o.id,
      itemId: o.itemId,
      externalReferenceId: o.externalReferenceId,
      productId: o.productId,
      productSlug: o.product.slug,
      requestedAmount: requestedAmount(o),
      price: amount(o.price),
      charged: { ...amount(o.charged), rate: decToString(o.rate), feeRate: decToString(o.feeRate) },
      status: store.orderStatus(o),
      itemStatus: store.itemStatus(o),
      createdAt: new Date(o.createdAt).toISOString(),
    })),
    duplicates: [...refCounts].filter(([, n]) => n > 1).map(([ref]) => ref),
    conflictingRetries: a.conflictingRetries.map((c) => ({
      externalReferenceId: c.externalReferenceId,
      orderId: c.orderId,
      at: new Date(c.at).toISOString(),
    })),
    withoutExternalReferenceId: a.orders.filter((o) => o.externalReferenceId === null).map((o) => o.id),
    chargedTotals: totalsByCurrency(a.orders.map((o) => o.charged)).map(amount),
    requests: nestCounts(a.requests),
    faults,
  };
}

// Read back from the stored request body, so orders replayed from a state file have it too.
function requestedAmount(o: OrderRecord): string | null {
  const asked = requestedAmountOf(JSON.parse(o.fingerprint) as unknown);
  if (asked === null) return null;
  try {
    return toDecimal(fromNumber(asked, o.product.currency));
  } catch (err) {
    if (!(err instanceof MoneyError)) throw err;
    // More decimals than the currency has: only a dialect that ignored this amount accepted it.
    return String(asked);
  }
}

function amount(m: { minor: number; currency: string }): AuditAmount {
  return { amount: toDecimal(m), minor: m.minor, currency: m.currency };
}

/** Counter key for a request: route label and status. */
export function requestKey(label: string, status: number | 'reset'): string {
  return `${label}\u0000${status}`;
}

export function bump<K>(counts: Map<K, number>, key: K): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

function nestCounts(flat: Map<string, number>): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const [key, n] of flat) {
    const [label = '', status = ''] = key.split('\u0000');
    (out[label] ??= {})[status] = n;
  }
  return out;
}
