// The lines of the simulator's state file: one JSON object per mutation, each with a version, so
// a newer simulator can add kinds of line and an older one skips what it cannot read. Amounts are
// integer minor units and rates exact decimal text, so a replay reproduces every charge bit for bit.
//
// v2 names the account by its id, a hash of the API key (account-id.ts); no line holds a key. v1
// (older simulators) held the raw key in `key`: a v1 line still decodes, to the v2 line it becomes
// (key hashed, `legacy: true`), and state-file.ts rewrites a file that had any.

import { z } from 'zod';
import type { Money } from '../../shared/domain/money.ts';
import { accountIdOf } from './account-id.ts';
import { productForId, productForStoredId } from './catalog.ts';
import { dec, decToString } from './decimal.ts';
import type { OrderRecord } from './store.ts';
import { ITEM_STATUSES, ORDER_STATUSES, SimulatorError, type ItemStatus, type OrderStatus } from './types.ts';

export const STATE_VERSION = 2;
/** Lines with the raw API key in `key`, written before accounts were hashed. Read, never written. */
export const LEGACY_STATE_VERSION = 1;

const money = z.object({ minor: z.number().int().nonnegative(), currency: z.string().regex(/^[A-Z]{3}$/) });
const decimalText = z.string().regex(/^\d+(\.\d+)?$/);
const id = z.number().int().positive();
const time = z.number().int();
const orderStatus = z.enum(ORDER_STATUSES as [OrderStatus, ...OrderStatus[]]).nullable();
const itemStatus = z.enum(ITEM_STATUSES as [ItemStatus, ...ItemStatus[]]).nullable();

const accountId = z.string().regex(/^[0-9a-f]{64}$/, 'must be an account id (64 hex digits)');

const OrderFields = {
  id,
  itemId: id,
  productId: id,
  product: z.string().min(1),
  price: money,
  charged: money,
  rate: decimalText,
  feeRate: decimalText,
  createdAt: time,
  expiresAt: time.nullable(),
  delivery: z.object({
    method: z.string(),
    recipient: z.object({ name: z.string(), email: z.string() }),
    sender: z.object({ name: z.string() }).nullable(),
  }),
  message: z.string().nullable(),
  externalReferenceId: z.string().nullable(),
  /**
   * The request body as canonical JSON text (keys sorted), exactly the fingerprint that tells a
   * faithful retry from a conflicting one: kept as text so the replay need not re-sort it.
   */
  body: z.string(),
};
const AcceptFields = { orderId: id, at: time };
const ForceFields = { orderId: id, orderStatus, itemStatus };
const AccountFields = { balance: money };

const StateLine = z.discriminatedUnion('type', [
  z.object({ v: z.literal(STATE_VERSION), type: z.literal('order'), account: accountId, ...OrderFields }),
  z.object({ v: z.literal(STATE_VERSION), type: z.literal('accept'), account: accountId, ...AcceptFields }),
  z.object({ v: z.literal(STATE_VERSION), type: z.literal('force'), account: accountId, ...ForceFields }),
  z.object({ v: z.literal(STATE_VERSION), type: z.literal('account'), account: accountId, ...AccountFields }),
]);
const legacy = { v: z.literal(LEGACY_STATE_VERSION), key: z.string().min(1) };
const LegacyLine = z.discriminatedUnion('type', [
  z.object({ ...legacy, type: z.literal('order'), ...OrderFields }),
  z.object({ ...legacy, type: z.literal('accept'), ...AcceptFields }),
  z.object({ ...legacy, type: z.literal('force'), ...ForceFields }),
  z.object({ ...legacy, type: z.literal('account'), ...AccountFields }),
]);
export type StateLine = z.infer<typeof StateLine>;
type LegacyLine = z.infer<typeof LegacyLine>;

/**
 * One line of the file, decoded: a mutation to apply (`legacy` when it was a v1 line, so the file
 * still holds a raw key and must be rewritten), or why it is skipped (`newer` when a later
 * simulator wrote it: kept as it is when the file is rewritten).
 */
export type Decoded = { ok: true; line: StateLine; legacy: boolean } | { ok: false; reason: string; newer: boolean };

export function decodeLine(text: string): Decoded {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not valid JSON', newer: false };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, reason: 'not a JSON object', newer: false };
  const v = (raw as Record<string, unknown>)['v'];
  if (v === LEGACY_STATE_VERSION) {
    const parsed = LegacyLine.safeParse(raw);
    if (!parsed.success) return invalid(parsed.error);
    try {
      return { ok: true, line: fromLegacy(parsed.data), legacy: true };
    } catch (err) {
      return { ok: false, reason: err instanceof Error ? err.message : String(err), newer: false };
    }
  }
  if (v !== STATE_VERSION) {
    return {
      ok: false,
      reason: `written by another version of the simulator (v=${JSON.stringify(v) ?? 'missing'}; this one reads v=${STATE_VERSION} and v=${LEGACY_STATE_VERSION})`,
      newer: typeof v === 'number' && Number.isInteger(v) && v > STATE_VERSION,
    };
  }
  const parsed = StateLine.safeParse(raw);
  if (!parsed.success) return invalid(parsed.error);
  return { ok: true, line: parsed.data, legacy: false };
}

function invalid(error: z.ZodError): Decoded {
  const issue = error.issues[0];
  return { ok: false, reason: `${issue?.path.map(String).join('.') || 'line'}: ${issue?.message ?? 'invalid'}`, newer: false };
}

/**
 * A v1 line as the v2 line it becomes: the key hashed into an account id. An order's product is
 * checked against that key's catalog here, the last time the key is at hand.
 */
function fromLegacy(l: LegacyLine): StateLine {
  const { key, ...fields } = l;
  if (fields.type === 'order' && productForId(key, fields.productId)?.slug !== fields.product) {
    throw new SimulatorError(`product ${fields.productId} (${fields.product}) is not in this simulator's catalog for that key`);
  }
  // Parsed, not cast: the result is a checked v2 line, its fields in the schema's order.
  return StateLine.parse({ ...fields, v: STATE_VERSION, account: accountIdOf(key) });
}

/** A decoded line as text, in this version's format. */
export function encodeLine(line: StateLine): string {
  return JSON.stringify(line);
}

export function encodeOrder(o: OrderRecord): string {
  return JSON.stringify({
    v: STATE_VERSION,
    type: 'order',
    account: o.accountId,
    id: o.id,
    itemId: o.itemId,
    productId: o.productId,
    product: o.product.slug,
    price: o.price,
    charged: o.charged,
    rate: decToString(o.rate),
    feeRate: decToString(o.feeRate),
    createdAt: o.createdAt,
    expiresAt: o.expiresAt,
    delivery: o.delivery,
    message: o.message,
    externalReferenceId: o.externalReferenceId,
    body: o.fingerprint,
  });
}

export function encodeAccept(accountId: string, orderId: number, at: number): string {
  return JSON.stringify({ v: STATE_VERSION, type: 'accept', account: accountId, orderId, at });
}

export function encodeForce(accountId: string, orderId: number, orderStatus: OrderStatus | null, itemStatus: ItemStatus | null): string {
  return JSON.stringify({ v: STATE_VERSION, type: 'force', account: accountId, orderId, orderStatus, itemStatus });
}

export function encodeAccount(accountId: string, balance: Money): string {
  return JSON.stringify({ v: STATE_VERSION, type: 'account', account: accountId, balance: { minor: balance.minor, currency: balance.currency } });
}

/**
 * The order a line describes; throws SimulatorError when its product id is not that product's id
 * in any key's catalog (the line holds no key to check it against that key's own catalog).
 */
export function orderFromLine(l: Extract<StateLine, { type: 'order' }>): OrderRecord {
  const product = productForStoredId(l.product, l.productId);
  if (!product) {
    throw new SimulatorError(`product ${l.productId} (${l.product}) is not in this simulator's catalog`);
  }
  return {
    product,
    productId: l.productId,
    price: l.price,
    delivery: l.delivery,
    message: l.message,
    externalReferenceId: l.externalReferenceId,
    fingerprint: l.body,
    id: l.id,
    itemId: l.itemId,
    accountId: l.account,
    charged: l.charged,
    rate: dec(l.rate),
    feeRate: dec(l.feeRate),
    createdAt: l.createdAt,
    expiresAt: l.expiresAt,
    acceptedAt: null,
    forcedOrderStatus: null,
    forcedItemStatus: null,
  };
}
