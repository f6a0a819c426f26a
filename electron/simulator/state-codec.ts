// The lines of the simulator's state file: one JSON object per mutation, each with a version, so
// a newer simulator can add kinds of line and an older one skips what it cannot read. Amounts are
// integer minor units and rates exact decimal text, so a replay reproduces every charge bit for bit.

import { z } from 'zod';
import type { Money } from '../../shared/domain/money.ts';
import { productForId } from './catalog.ts';
import { dec, decToString } from './decimal.ts';
import type { OrderRecord } from './store.ts';
import { ITEM_STATUSES, ORDER_STATUSES, SimulatorError, type ItemStatus, type OrderStatus } from './types.ts';

export const STATE_VERSION = 1;

const money = z.object({ minor: z.number().int().nonnegative(), currency: z.string().regex(/^[A-Z]{3}$/) });
const decimalText = z.string().regex(/^\d+(\.\d+)?$/);
const id = z.number().int().positive();
const time = z.number().int();
const orderStatus = z.enum(ORDER_STATUSES as [OrderStatus, ...OrderStatus[]]).nullable();
const itemStatus = z.enum(ITEM_STATUSES as [ItemStatus, ...ItemStatus[]]).nullable();

const OrderLine = z.object({
  v: z.literal(STATE_VERSION),
  type: z.literal('order'),
  key: z.string().min(1),
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
});
const AcceptLine = z.object({ v: z.literal(STATE_VERSION), type: z.literal('accept'), key: z.string().min(1), orderId: id, at: time });
const ForceLine = z.object({
  v: z.literal(STATE_VERSION), type: z.literal('force'), key: z.string().min(1), orderId: id, orderStatus, itemStatus,
});
const AccountLine = z.object({ v: z.literal(STATE_VERSION), type: z.literal('account'), key: z.string().min(1), balance: money });

const StateLine = z.discriminatedUnion('type', [OrderLine, AcceptLine, ForceLine, AccountLine]);
export type StateLine = z.infer<typeof StateLine>;

/** One line of the file, decoded: a mutation to apply, or why it is skipped. */
export type Decoded = { ok: true; line: StateLine } | { ok: false; reason: string };

export function decodeLine(text: string): Decoded {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, reason: 'not a JSON object' };
  const v = (raw as Record<string, unknown>)['v'];
  if (v !== STATE_VERSION) {
    return { ok: false, reason: `written by another version of the simulator (v=${JSON.stringify(v) ?? 'missing'}; this one reads v=${STATE_VERSION})` };
  }
  const parsed = StateLine.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: `${issue?.path.map(String).join('.') || 'line'}: ${issue?.message ?? 'invalid'}` };
  }
  return { ok: true, line: parsed.data };
}

export function encodeOrder(o: OrderRecord): string {
  return JSON.stringify({
    v: STATE_VERSION,
    type: 'order',
    key: o.key,
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

export function encodeAccept(key: string, orderId: number, at: number): string {
  return JSON.stringify({ v: STATE_VERSION, type: 'accept', key, orderId, at });
}

export function encodeForce(key: string, orderId: number, orderStatus: OrderStatus | null, itemStatus: ItemStatus | null): string {
  return JSON.stringify({ v: STATE_VERSION, type: 'force', key, orderId, orderStatus, itemStatus });
}

export function encodeAccount(key: string, balance: Money): string {
  return JSON.stringify({ v: STATE_VERSION, type: 'account', key, balance: { minor: balance.minor, currency: balance.currency } });
}

/** The order a line describes; throws SimulatorError when its product is not in this catalog. */
export function orderFromLine(l: Extract<StateLine, { type: 'order' }>): OrderRecord {
  const product = productForId(l.key, l.productId);
  if (product?.slug !== l.product) {
    throw new SimulatorError(`product ${l.productId} (${l.product}) is not in this simulator's catalog for that key`);
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
    key: l.key,
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
