// Every change of a recipient row's state. Each one is a compare-and-set: the UPDATE names the
// state the row must still be in (`WHERE state = ?`), so two workers can never both move the same
// row, and each returns whether it applied. Moves the caller chooses are also checked against
// canTransition (shared/domain/rows.ts) and refused with IllegalTransitionError.
// Each applied change appends its event in the same transaction, so the log never disagrees.

import { z } from 'zod';
import type { Money } from '../../../../shared/domain/money.ts';
import { canTransition, type RowState } from '../../../../shared/domain/rows.ts';
import type { Db } from '../open.ts';
import { findingSchema, type Finding } from '../../../../shared/domain/findings.ts';
import { decimalText, minorUnits, parseRow } from '../parse.ts';
import { statement } from '../statements.ts';
import { appendEvent, type EventDetail, type EventKind } from './events.ts';

export class IllegalTransitionError extends Error {
  override readonly name = 'IllegalTransitionError';
}

export function assertTransition(rowId: number, from: RowState, to: RowState): void {
  if (from !== to && !canTransition(from, to)) {
    throw new IllegalTransitionError(`row ${rowId} cannot go from ${from} to ${to}`);
  }
}

const touched = z.object({ campaign_id: z.string() });

// better-sqlite3 builds five wrapper functions for every db.transaction(fn) call; the send queue
// makes two transitions per order, so each transaction function is built once per connection.
function cachedTransaction<A extends unknown[], R>(build: (db: Db) => (...args: A) => R): (db: Db) => (...args: A) => R {
  const cache = new WeakMap<Db, (...args: A) => R>();
  return (db) => {
    let tx = cache.get(db);
    if (!tx) {
      tx = db.transaction(build(db));
      cache.set(db, tx);
    }
    return tx;
  };
}

const applyAndLogTx = cachedTransaction(
  (db) =>
    (rowId: number, kind: EventKind, sql: string, params: readonly unknown[], now: number, detail: EventDetail | null): boolean => {
      const raw = statement(db, sql).get(...params);
      if (raw === undefined) return false;
      const { campaign_id } = parseRow(touched, 'recipients', raw);
      appendEvent(db, { campaignId: campaign_id, recipientId: rowId, kind, detail }, now);
      return true;
    },
);

// Runs a guarded UPDATE … RETURNING campaign_id and, when it applied, logs the event.
export function applyAndLog(
  db: Db,
  rowId: number,
  kind: EventKind,
  sql: string,
  params: readonly unknown[],
  now: number,
  detail?: EventDetail,
): boolean {
  return applyAndLogTx(db)(rowId, kind, sql, params, now, detail ?? null);
}

/** What the queue POSTs for an attempt: always the frozen body, under the row's key. */
export interface SendAttempt {
  readonly externalReferenceId: string;
  readonly requestBody: string;
  /** Attempts so far, this one included. */
  readonly attempts: number;
}

const attemptRow = z
  .object({
    campaign_id: z.string(),
    external_reference_id: z.string(),
    request_body: z.string(),
    attempts: z.number().int(),
  })
  .transform((r) => ({
    campaignId: r.campaign_id,
    attempt: { externalReferenceId: r.external_reference_id, requestBody: r.request_body, attempts: r.attempts },
  }));

const beginAttemptTx = cachedTransaction(
  (db) =>
    (rowId: number, kind: EventKind, sql: string, params: readonly unknown[], now: number): SendAttempt | null => {
      const raw = statement(db, sql).get(...params);
      if (raw === undefined) return null;
      const { campaignId, attempt } = parseRow(attemptRow, 'recipients', raw);
      appendEvent(db, { campaignId, recipientId: rowId, kind, detail: { attempt: attempt.attempts } }, now);
      return attempt;
    },
);

function beginAttempt(db: Db, rowId: number, kind: EventKind, sql: string, params: readonly unknown[], now: number): SendAttempt | null {
  return beginAttemptTx(db)(rowId, kind, sql, params, now);
}

/**
 * ready → sending, committed before the POST leaves (after a crash the row is looked up by its key,
 * never sent anew). Freezes `requestBody` unless the row already has one (a row re-sent after a
 * definite rejection keeps its bytes), counts the attempt, and stamps sent_at on the first. Returns
 * the body to POST, or null when the row was not ready (another worker took it, the user skipped
 * it).
 * Attempts are counted when they begin, so a crash between POST and response still counts one.
 */
export function markSending(db: Db, rowId: number, requestBody: string, now: number): SendAttempt | null {
  if (requestBody.length === 0) throw new Error(`row ${rowId}: an empty request body cannot be sent`);
  return beginAttempt(
    db,
    rowId,
    'sending',
    `UPDATE recipients SET state = 'sending', request_body = coalesce(request_body, ?), attempts = attempts + 1,
            sent_at = coalesce(sent_at, ?), next_attempt_at = NULL, updated_at = ?
      WHERE id = ? AND state = 'ready'
      RETURNING campaign_id, external_reference_id, request_body, attempts`,
    [requestBody, now, now, rowId],
    now,
  );
}

/** Another attempt for a row still in 'sending' (after an ambiguous outcome): the same key, the same bytes. */
export function beginRetry(db: Db, rowId: number, now: number): SendAttempt | null {
  return beginAttempt(
    db,
    rowId,
    'retried',
    `UPDATE recipients SET attempts = attempts + 1, next_attempt_at = NULL, held_at = NULL, updated_at = ?
      WHERE id = ? AND state = 'sending'
      RETURNING campaign_id, external_reference_id, request_body, attempts`,
    [now, rowId],
    now,
  );
}

/**
 * An attempt ended without a definite answer (timeout, reset, 5xx, unreadable body): the row stays
 * 'sending' (ambiguous is never failed), keeps the error, and waits until `nextAttemptAt`.
 */
export function recordAttemptError(
  db: Db,
  rowId: number,
  outcome: { readonly error: string; readonly nextAttemptAt: number | null },
  now: number,
): boolean {
  return applyAndLog(
    db,
    rowId,
    'ambiguous',
    `UPDATE recipients SET last_error = ?, next_attempt_at = ?, updated_at = ?
      WHERE id = ? AND state = 'sending' RETURNING campaign_id`,
    [outcome.error, outcome.nextAttemptAt, now, rowId],
    now,
    { error: outcome.error, nextAttemptAt: outcome.nextAttemptAt },
  );
}

/**
 * A row left 'sending' whose lookup by key came back empty when that proves nothing (ListReach): it
 * keeps the reason, is due at no time, and is held for a person from `now` (kept if held already).
 */
export function holdRow(db: Db, rowId: number, reason: string, now: number): boolean {
  return applyAndLog(
    db,
    rowId,
    'ambiguous',
    `UPDATE recipients SET last_error = ?, next_attempt_at = NULL, held_at = coalesce(held_at, ?), updated_at = ?
      WHERE id = ? AND state = 'sending' RETURNING campaign_id`,
    [reason, now, now, rowId],
    now,
    { error: reason, held: true },
  );
}

/** What the service said about a row's order (from the POST response or a lookup by key). */
export interface OrderOutcome {
  readonly orderId: number;
  readonly orderStatus: string;
  readonly itemId: number | null;
  readonly itemStatus: string | null;
  /** total_price_charged, in the account currency, rounded to its minor units (display only). */
  readonly charged: Money | null;
  /** total_price_charged.amount exactly as the service sent it: totals are sums of these. */
  readonly chargedText: string | null;
  /** What the service says it issued (the item's price), as received. */
  readonly issued: { readonly text: string; readonly currency: string } | null;
  /** Differences from what the row asked, and values we could not read; empty when the answer agrees. */
  readonly findings: readonly Finding[];
  /** applied_exchange_rate, its rate kept as the service's decimal text. */
  readonly exchangeRate: { readonly rate: string; readonly from: string | null; readonly to: string | null } | null;
  readonly feeRate: string | null;
  /** delivery.recipient.acceptance.expiry_date, ms since the epoch. */
  readonly acceptanceExpiry: number | null;
}

const outcomeSchema = z.object({
  orderId: z.number().int(),
  orderStatus: z.string(),
  itemId: z.number().int().nullable(),
  itemStatus: z.string().nullable(),
  charged: z.object({ minor: minorUnits, currency: z.string().regex(/^[A-Z]{3}$/) }).nullable(),
  exchangeRate: z.object({ rate: decimalText, from: z.string().nullable(), to: z.string().nullable() }).nullable(),
  feeRate: decimalText.nullable(),
  acceptanceExpiry: z.number().int().nullable(),
  chargedText: decimalText.nullable(),
  issued: z.object({ text: z.string().min(1).max(64), currency: z.string().min(1).max(16) }).nullable(),
  findings: z.array(findingSchema),
});

/**
 * sending → ordered, with everything the service reported. `via` says how the order was learned
 * (the POST's response, or a reconciliation lookup by key) and goes into the event.
 */
export function markOrdered(
  db: Db,
  rowId: number,
  order: OrderOutcome,
  now: number,
  via: 'response' | 'reconciliation' = 'response',
): boolean {
  const o = outcomeSchema.parse(order);
  return applyAndLog(
    db,
    rowId,
    via === 'reconciliation' ? 'reconciled' : 'ordered',
    `UPDATE recipients SET state = 'ordered', order_id = ?, order_status = ?, item_id = ?, item_status = ?,
            charged_minor = ?, charged_currency = ?, exchange_rate = ?, rate_from = ?, rate_to = ?, fee_rate = ?,
            acceptance_expiry = ?, charged_text = ?, issued_amount = ?, issued_currency = ?, discrepancies = ?,
            ordered_at = ?, last_error = NULL, next_attempt_at = NULL, updated_at = ?
      WHERE id = ? AND state = 'sending' RETURNING campaign_id`,
    [
      o.orderId,
      o.orderStatus,
      o.itemId,
      o.itemStatus,
      o.charged?.minor ?? null,
      o.charged?.currency ?? null,
      o.exchangeRate?.rate ?? null,
      o.exchangeRate?.from ?? null,
      o.exchangeRate?.to ?? null,
      o.feeRate,
      o.acceptanceExpiry,
      o.chargedText,
      o.issued?.text ?? null,
      o.issued?.currency ?? null,
      o.findings.length > 0 ? JSON.stringify(o.findings) : null,
      now,
      now,
      rowId,
    ],
    now,
    {
      orderId: o.orderId,
      orderStatus: o.orderStatus,
      itemStatus: o.itemStatus,
      via,
      ...(o.findings.length > 0 ? { findings: o.findings.map((f) => f.message) } : {}),
    },
  );
}

/**
 * What an order's own record stated after its first answer left it out (a service that issues
 * asynchronously: no item price, maybe no charge, in the POST answer): the charge, rate, fee and
 * issued price are filled in, each only where the row has none yet, on the row that holds this
 * order. Not a change of state; the running tallies follow through their trigger. Returns whether
 * a row was updated. `onlyWithoutCharge`: only a row that has no charge recorded at all (a poll
 * reading the record of every order it tracks writes nothing to the others).
 */
export function completeOrderRecord(db: Db, rowId: number, order: OrderOutcome, now: number, opts: { onlyWithoutCharge?: boolean } = {}): boolean {
  const o = outcomeSchema.parse(order);
  const withoutCharge = opts.onlyWithoutCharge === true ? ' AND charged_minor IS NULL AND charged_text IS NULL' : '';
  const updated = statement(
    db,
    `UPDATE recipients SET
        charged_minor = coalesce(charged_minor, ?), charged_currency = coalesce(charged_currency, ?),
        charged_text = coalesce(charged_text, ?), exchange_rate = coalesce(exchange_rate, ?),
        rate_from = coalesce(rate_from, ?), rate_to = coalesce(rate_to, ?), fee_rate = coalesce(fee_rate, ?),
        issued_amount = coalesce(issued_amount, ?), issued_currency = coalesce(issued_currency, ?), updated_at = ?
      WHERE id = ? AND order_id = ?${withoutCharge} RETURNING id`,
  ).get(
    o.charged?.minor ?? null,
    o.charged?.currency ?? null,
    o.chargedText,
    o.exchangeRate?.rate ?? null,
    o.exchangeRate?.from ?? null,
    o.exchangeRate?.to ?? null,
    o.feeRate,
    o.issued?.text ?? null,
    o.issued?.currency ?? null,
    now,
    rowId,
    o.orderId,
  );
  return updated !== undefined;
}

/**
 * An answer about an ordered row (a poll) disagreed with what it asked: the findings are added to
 * the row's, each once. Returns whether anything new was recorded.
 */
export function addFindings(db: Db, rowId: number, findings: readonly Finding[], now: number): boolean {
  const parsed = z.array(findingSchema).parse(findings);
  return applyAndLog(
    db,
    rowId,
    'flagged',
    `UPDATE recipients SET discrepancies = (
        SELECT json_group_array(json(value)) FROM (
          SELECT value FROM json_each(coalesce(discrepancies, '[]'))
          UNION SELECT value FROM json_each(?))),
        updated_at = ?
      WHERE id = ? AND EXISTS (SELECT 1 FROM json_each(?) n
        WHERE n.value NOT IN (SELECT value FROM json_each(coalesce(recipients.discrepancies, '[]'))))
      RETURNING campaign_id`,
    [JSON.stringify(parsed), now, rowId, JSON.stringify(parsed)],
    now,
    { findings: parsed.map((f) => f.message) },
  );
}

/**
 * The row's "no price stated" findings (mismatch on the amount, stated 'nothing': its answer and its
 * record read for a minute after left out the item's price) are withdrawn: a later record stated the
 * price that was asked. Only those: every other finding stays. A row left with none is no longer
 * flagged (discrepancies NULL). Returns whether one was withdrawn.
 */
export function clearUnstatedPrice(db: Db, rowId: number, now: number): boolean {
  const unstated = `json_extract(value, '$.kind') = 'mismatch' AND json_extract(value, '$.field') = 'amount' AND json_extract(value, '$.stated') = 'nothing'`;
  const withdrawn = db.transaction((): string[] | null => {
    const messages = statement(db, `SELECT json_extract(value, '$.message') FROM recipients, json_each(recipients.discrepancies) WHERE recipients.id = ? AND ${unstated}`)
      .pluck()
      .all(rowId) as (string | null)[];
    if (messages.length === 0) return null;
    const applied = applyAndLog(
      db,
      rowId,
      'unflagged',
      `UPDATE recipients SET discrepancies = (
          SELECT CASE count(*) WHEN 0 THEN NULL ELSE json_group_array(json(value)) END
            FROM json_each(recipients.discrepancies) WHERE NOT (${unstated})),
          updated_at = ?
        WHERE id = ? RETURNING campaign_id`,
      [now, rowId],
      now,
      { findings: messages.map((m) => m ?? ''), reason: 'a later record of the order states the price asked' },
    );
    return applied ? messages.map((m) => m ?? '') : null;
  })();
  return withdrawn !== null;
}

/** sending → failed on a definite rejection, keeping the service's message (shown to the user as is). */
export function markFailed(db: Db, rowId: number, message: string, now: number): boolean {
  return applyAndLog(
    db,
    rowId,
    'failed',
    `UPDATE recipients SET state = 'failed', last_error = ?, next_attempt_at = NULL, updated_at = ?
      WHERE id = ? AND state = 'sending' RETURNING campaign_id`,
    [message, now, rowId],
    now,
    { error: message },
  );
}

export interface StatusUpdate {
  /** The row's new state, as the caller derived it from the statuses. */
  readonly state: 'ordered' | 'delivered' | 'cancelled';
  readonly orderStatus: string;
  readonly itemStatus: string | null;
  /** When delivery was seen; defaults to `now` for 'delivered'. */
  readonly deliveredAt?: number | null;
  readonly acceptanceExpiry?: number | null;
}

/**
 * A polled order's statuses: ordered → delivered / cancelled, or ordered → ordered with fresher
 * statuses. Logs an event only when the state changes (the poller refreshes often).
 */
export function updateOrderStatus(db: Db, rowId: number, update: StatusUpdate, now: number): boolean {
  assertTransition(rowId, 'ordered', update.state);
  const sql = `UPDATE recipients SET state = ?, order_status = ?, item_status = ?,
          delivered_at = CASE WHEN ? = 'delivered' THEN coalesce(delivered_at, ?) ELSE delivered_at END,
          acceptance_expiry = coalesce(?, acceptance_expiry), updated_at = ?
    WHERE id = ? AND state = 'ordered' RETURNING campaign_id`;
  const params = [
    update.state,
    update.orderStatus,
    update.itemStatus,
    update.state,
    update.deliveredAt ?? now,
    update.acceptanceExpiry ?? null,
    now,
    rowId,
  ];
  if (update.state === 'ordered') return statement(db, sql).get(...params) !== undefined;
  return applyAndLog(db, rowId, update.state, sql, params, now, {
    orderStatus: update.orderStatus,
    itemStatus: update.itemStatus,
  });
}
