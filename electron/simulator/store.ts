// Accounts and their orders, in memory. Orders are indexed per account (array in id order plus a
// map by external_reference_id), so a 10,000-order account is filtered in one linear pass per page
// and a lookup by key is O(1). Item states are not stored: they are computed from the clock on read.
// With a journal (state-file.ts), every mutation is handed to it BEFORE memory changes, so a
// failed write leaves nothing half-done; restore* methods rebuild the same state on replay.
//
// Accounts are keyed by their account id, a hash of the API key (account-id.ts): that is all an
// order, an account or the journal ever holds. The raw keys this process has been given (by a
// request, a control call, or the `keys`/`accounts` options) are remembered in one map, in memory
// only, so the audit can name those accounts by their key; an account replayed from a state file
// whose key has not been seen since is named `sha256:<account id>`.

import { formatMoney, parseDecimal, type Money } from '../../shared/domain/money.ts';
import { accountIdOf } from './account-id.ts';
import { SUPPORTED_CURRENCIES, type CatalogProduct } from './catalog.ts';
import type { Decimal } from './decimal.ts';
import { quote } from './pricing.ts';
import { ApiError, SimulatorError, type AccountInit, type FaultKind, type ItemStatus, type OrderStatus } from './types.ts';

export interface DeliveryRecord {
  readonly method: string;
  readonly recipient: { readonly name: string; readonly email: string };
  readonly sender: { readonly name: string } | null;
}

export interface OrderDraft {
  readonly product: CatalogProduct;
  readonly productId: number;
  readonly price: Money;
  readonly delivery: DeliveryRecord;
  readonly message: string | null;
  readonly externalReferenceId: string | null;
  /** Canonical JSON of the request body, to tell a faithful retry from a conflicting one. */
  readonly fingerprint: string;
}

export interface OrderRecord extends OrderDraft {
  readonly id: number;
  readonly itemId: number;
  /** The owning account's id (a hash of its key, account-id.ts); never the key. */
  readonly accountId: string;
  readonly charged: Money;
  readonly rate: Decimal;
  readonly feeRate: Decimal;
  readonly createdAt: number;
  /** Recipient-details products only: when the acceptance link expires. */
  readonly expiresAt: number | null;
  acceptedAt: number | null;
  forcedOrderStatus: OrderStatus | null;
  forcedItemStatus: ItemStatus | null;
}

export interface ConflictRecord {
  readonly externalReferenceId: string;
  readonly orderId: number;
  readonly at: number;
}

export interface Account {
  /** A hash of the key (account-id.ts). The key itself is only in Store.keyOf, in memory. */
  readonly id: string;
  currency: string;
  balanceMinor: number;
  /** Ascending by id (ids only grow). */
  readonly orders: OrderRecord[];
  readonly byRef: Map<string, OrderRecord>;
  readonly conflictingRetries: ConflictRecord[];
  /** "GET /v1/orders 200" → count. */
  readonly requests: Map<string, number>;
  readonly faults: Map<FaultKind, number>;
}

export interface OrderFilter {
  itemStatus?: ItemStatus;
  externalReferenceId?: string;
  createdFrom?: number;
  createdTo?: number;
  /** Only orders created at or before this time (a list that lags behind the order store). */
  listedBy?: number;
  /** The newest order first (the default is the order of creation). */
  newestFirst?: boolean;
  page: number;
  size: number;
}

/** Receives every mutation before it is applied; a throw aborts the mutation. */
export interface StoreJournal {
  orderCreated(order: OrderRecord): void;
  recipientAccepted(order: OrderRecord, at: number): void;
  statusForced(order: OrderRecord, orderStatus: OrderStatus | null, itemStatus: ItemStatus | null): void;
  /** An account opened or set: its currency and balance from now on. */
  accountSet(accountId: string, balance: Money): void;
}

export interface StoreOptions {
  now: () => number;
  keys?: readonly string[];
  accounts?: Readonly<Record<string, AccountInit>>;
  defaultAccount: AccountInit;
  itemDelayMs: number;
  recipientExpiryMs: number;
  /** The dialect's expiredLink 'accept-late': a link past its expiry can still be accepted. */
  acceptAfterExpiry?: boolean;
  /** The dialect's keyMemoryMs or racyKeyCheckMs is set: a key may come to have several orders (byRef holds the newest). */
  keysForgotten?: boolean;
  journal?: StoreJournal;
}

export class Store {
  /** By account id. */
  private readonly accounts = new Map<string, Account>();
  private readonly ordersById = new Map<number, OrderRecord>();
  private nextOrderId = 900_001;
  private nextItemId = 700_001;
  private readonly allowed: ReadonlySet<string> | null;
  /** Opening balances of the `accounts` option, by account id (a replay knows only ids). */
  private readonly initById = new Map<string, AccountInit>();
  // The raw keys this process knows, both ways. Memory only: never journaled, never logged.
  private readonly idByKey = new Map<string, string>();
  private readonly keyById = new Map<string, string>();

  constructor(private readonly opts: StoreOptions) {
    this.allowed = opts.keys ? new Set(opts.keys) : null;
    checkAccountInit(opts.defaultAccount, 'the default account');
    for (const [key, init] of Object.entries(opts.accounts ?? {})) {
      checkAccountInit(init, `account ${mask(key)}`);
      this.initById.set(this.remember(key), init);
    }
    for (const key of opts.keys ?? []) this.remember(key);
  }

  /** The key's account id; the key is remembered (in memory) so the audit can name its account. */
  private remember(key: string): string {
    let id = this.idByKey.get(key);
    if (id === undefined) {
      id = accountIdOf(key);
      this.idByKey.set(key, id);
      this.keyById.set(id, key);
    }
    return id;
  }

  /** The raw key of an account, when this process has been given it; else null. */
  keyOf(account: Account): string | null {
    return this.keyById.get(account.id) ?? null;
  }

  /** The key's account, opened on first use; null when the key is not accepted. */
  authenticate(key: string | undefined): Account | null {
    if (key === undefined || key.trim() === '') return null;
    if (this.allowed && !this.allowed.has(key)) return null;
    return this.accountFor(key);
  }

  accountFor(key: string): Account {
    const id = this.remember(key);
    const existing = this.accounts.get(id);
    if (existing) return existing;
    // The opening balance is journaled so that a restart keeps it even if the defaults change.
    const balance = this.initialBalance(id);
    this.opts.journal?.accountSet(id, balance);
    return this.newAccount(id, balance);
  }

  private initialBalance(accountId: string): Money {
    const init = this.initById.get(accountId) ?? this.opts.defaultAccount;
    return parseDecimal(init.balance, init.currency);
  }

  private newAccount(id: string, balance: Money): Account {
    const account: Account = {
      id,
      currency: balance.currency,
      balanceMinor: balance.minor,
      orders: [],
      byRef: new Map(),
      conflictingRetries: [],
      requests: new Map(),
      faults: new Map(),
    };
    this.accounts.set(id, account);
    return account;
  }

  allAccounts(): Account[] {
    return [...this.accounts.values()];
  }

  findOrder(account: Account, id: number): OrderRecord | undefined {
    const order = this.ordersById.get(id);
    return order && order.accountId === account.id ? order : undefined;
  }

  findByRef(account: Account, ref: string): OrderRecord | undefined {
    return account.byRef.get(ref);
  }

  recordConflict(account: Account, order: OrderRecord): void {
    account.conflictingRetries.push({ externalReferenceId: order.externalReferenceId ?? '', orderId: order.id, at: this.opts.now() });
  }

  /** Throws 402 when the account's balance does not cover the draft's charge; else its quote. */
  checkBalance(account: Account, draft: OrderDraft): ReturnType<typeof quote> {
    const q = quote(draft.price, account.currency);
    if (q.charged.minor > account.balanceMinor) {
      throw new ApiError(402, 'INSUFFICIENT_BALANCE',
        `the order costs ${formatMoney(q.charged)} but the balance is ${formatMoney({ minor: account.balanceMinor, currency: account.currency })}; top up the account and retry with the same external_reference_id`);
    }
    return q;
  }

  /** Charges the balance and commits the order, or throws 402 with nothing changed. */
  createOrder(account: Account, draft: OrderDraft): OrderRecord {
    const q = this.checkBalance(account, draft);
    const now = this.opts.now();
    const order: OrderRecord = {
      ...draft,
      id: this.nextOrderId,
      itemId: this.nextItemId,
      accountId: account.id,
      charged: q.charged,
      rate: q.rate,
      feeRate: q.feeRate,
      createdAt: now,
      expiresAt: draft.product.recipientDetails ? now + this.opts.recipientExpiryMs : null,
      acceptedAt: null,
      forcedOrderStatus: null,
      forcedItemStatus: null,
    };
    this.opts.journal?.orderCreated(order);
    this.commit(account, order);
    return order;
  }

  /** Replay: an order exactly as it was journaled, charged as it was then (no balance check). */
  restoreOrder(order: OrderRecord): void {
    if (this.ordersById.has(order.id)) throw new SimulatorError(`order ${order.id} appears twice`);
    const account = this.accounts.get(order.accountId) ?? this.newAccount(order.accountId, this.initialBalance(order.accountId));
    if (order.externalReferenceId !== null && account.byRef.has(order.externalReferenceId) && this.opts.keysForgotten !== true) {
      throw new SimulatorError(`external_reference_id "${order.externalReferenceId}" already has order ${account.byRef.get(order.externalReferenceId)?.id}`);
    }
    if (order.charged.currency !== account.currency) {
      throw new SimulatorError(`order ${order.id} was charged in ${order.charged.currency} but the account is in ${account.currency}`);
    }
    this.commit(account, order);
  }

  restoreAccepted(accountId: string, orderId: number, at: number): void {
    this.orderOf(accountId, orderId).acceptedAt = at;
  }

  restoreForced(accountId: string, orderId: number, orderStatus: OrderStatus | null, itemStatus: ItemStatus | null): void {
    const order = this.orderOf(accountId, orderId);
    order.forcedOrderStatus = orderStatus;
    order.forcedItemStatus = itemStatus;
  }

  restoreAccount(accountId: string, balance: Money): void {
    if (!SUPPORTED_CURRENCIES.includes(balance.currency)) throw new SimulatorError(`no exchange rates for ${balance.currency}`);
    const account = this.accounts.get(accountId) ?? this.newAccount(accountId, balance);
    account.currency = balance.currency;
    account.balanceMinor = balance.minor;
  }

  private commit(account: Account, order: OrderRecord): void {
    account.balanceMinor -= order.charged.minor;
    // Ids only grow, so the in-order push keeps account.orders sorted; replay keeps the counters ahead.
    account.orders.push(order);
    this.ordersById.set(order.id, order);
    if (order.externalReferenceId !== null) account.byRef.set(order.externalReferenceId, order);
    this.nextOrderId = Math.max(this.nextOrderId, order.id + 1);
    this.nextItemId = Math.max(this.nextItemId, order.itemId + 1);
  }

  orderStatus(order: OrderRecord): OrderStatus {
    return order.forcedOrderStatus ?? 'COMPLETED';
  }

  // Recipient-details items whose link expired stay PENDING: the spec does not show what
  // happens, and PENDING is the state a client must already cope with for days. Whether the
  // recipient can still accept is the dialect's expiredLink (acceptRecipient).
  itemStatus(order: OrderRecord): ItemStatus {
    if (order.forcedItemStatus) return order.forcedItemStatus;
    // An order that was never paid (or was cancelled) is not fulfilled.
    if (order.forcedOrderStatus !== null && order.forcedOrderStatus !== 'COMPLETED') return 'PENDING';
    if (order.product.outOfStock) return 'PENDING';
    if (order.product.recipientDetails) return order.acceptedAt === null ? 'PENDING' : 'COMPLETED';
    return this.opts.now() >= order.createdAt + this.opts.itemDelayMs ? 'COMPLETED' : 'PENDING';
  }

  /** One pass: total ignores the item-status filter (as the spec says), result reflects all. */
  listOrders(account: Account, f: OrderFilter): { rows: OrderRecord[]; totalSize: number; resultSize: number } {
    let candidates: readonly OrderRecord[] = account.orders;
    if (f.externalReferenceId !== undefined) {
      const hit = account.byRef.get(f.externalReferenceId);
      const ref = f.externalReferenceId;
      candidates = !hit ? [] : this.opts.keysForgotten === true ? account.orders.filter((o) => o.externalReferenceId === ref) : [hit];
    }
    const start = f.page * f.size;
    const end = start + f.size;
    const rows: OrderRecord[] = [];
    let totalSize = 0;
    let resultSize = 0;
    for (let i = 0; i < candidates.length; i++) {
      const order = candidates[f.newestFirst ? candidates.length - 1 - i : i]!;
      if (f.createdFrom !== undefined && order.createdAt < f.createdFrom) continue;
      if (f.createdTo !== undefined && order.createdAt > f.createdTo) continue;
      if (f.listedBy !== undefined && order.createdAt > f.listedBy) continue;
      totalSize++;
      if (f.itemStatus !== undefined && this.itemStatus(order) !== f.itemStatus) continue;
      if (resultSize >= start && resultSize < end) rows.push(order);
      resultSize++;
    }
    return { rows, totalSize, resultSize };
  }

  acceptRecipient(key: string, orderId: number): OrderRecord {
    const order = this.controlOrder(key, orderId);
    if (!order.product.recipientDetails || order.expiresAt === null) {
      throw new SimulatorError(`order ${orderId} is not a recipient-enters-details order; nothing to accept`);
    }
    if (order.acceptedAt !== null) return order;
    const now = this.opts.now();
    if (now >= order.expiresAt && this.opts.acceptAfterExpiry !== true) {
      throw new SimulatorError(`the acceptance link of order ${orderId} expired at ${new Date(order.expiresAt).toISOString()}`);
    }
    this.opts.journal?.recipientAccepted(order, now);
    order.acceptedAt = now;
    return order;
  }

  forceStatus(key: string, orderId: number, change: { orderStatus?: OrderStatus; itemStatus?: ItemStatus }): OrderRecord {
    const order = this.controlOrder(key, orderId);
    const orderStatus = change.orderStatus ?? order.forcedOrderStatus;
    let itemStatus = change.itemStatus ?? order.forcedItemStatus;
    if (change.itemStatus === undefined && change.orderStatus === 'CANCELLED') itemStatus = 'CANCELLED';
    this.opts.journal?.statusForced(order, orderStatus, itemStatus);
    order.forcedOrderStatus = orderStatus;
    order.forcedItemStatus = itemStatus;
    return order;
  }

  setAccount(key: string, change: Partial<AccountInit>): Account {
    const account = this.accountFor(key);
    const currency = (change.currency ?? account.currency).toUpperCase();
    if (!SUPPORTED_CURRENCIES.includes(currency)) {
      throw new SimulatorError(`the simulator has no exchange rates for ${currency}; use one of ${SUPPORTED_CURRENCIES.join(', ')}`);
    }
    if (change.balance === undefined && currency !== account.currency) {
      throw new SimulatorError('changing the account currency needs a balance in the new currency');
    }
    const balance = change.balance === undefined
      ? { minor: account.balanceMinor, currency }
      : parseDecimalOrThrow(change.balance, currency);
    this.opts.journal?.accountSet(account.id, balance);
    account.currency = currency;
    account.balanceMinor = balance.minor;
    return account;
  }

  private controlOrder(key: string, orderId: number): OrderRecord {
    return this.orderOf(this.remember(key), orderId);
  }

  private orderOf(accountId: string, orderId: number): OrderRecord {
    const order = this.ordersById.get(orderId);
    if (!order || order.accountId !== accountId) throw new SimulatorError(`no order ${orderId} for that key`);
    return order;
  }
}

function checkAccountInit(init: AccountInit, what: string): void {
  if (!SUPPORTED_CURRENCIES.includes(init.currency.toUpperCase())) {
    throw new SimulatorError(`${what}: the simulator has no exchange rates for ${init.currency}; use one of ${SUPPORTED_CURRENCIES.join(', ')}`);
  }
  parseDecimalOrThrow(init.balance, init.currency);
}

function parseDecimalOrThrow(text: string, currency: string): Money {
  try {
    const m = parseDecimal(text, currency);
    if (m.minor < 0) throw new Error('negative');
    return m;
  } catch {
    throw new SimulatorError(`balance "${text}" is not a non-negative ${currency.toUpperCase()} amount`);
  }
}

/** Keys are account credentials: never print them whole. */
export function mask(key: string): string {
  return key.length <= 4 ? '…' : `…${key.slice(-4)}`;
}
