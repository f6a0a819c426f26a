// The user's own changes to rows before (or after a definite failure of) a send: skip, unskip,
// try a failed row again, edit values. Each reads the row's state and then updates it with a
// compare-and-set on that state, inside an IMMEDIATE transaction so the read cannot go stale
// between two connections (the app and the CLI may share the file).

import { z } from 'zod';
import type { RowState } from '../../../../shared/domain/rows.ts';
import { statement } from '../statements.ts';
import type { Db } from '../open.ts';
import type { Issue } from '../parse.ts';
import { dropUnusedCampaignProduct, keepCampaignProduct, type ProductSnapshot } from './campaigns.ts';
import type { EventKind } from './events.ts';
import { applyAndLog, assertTransition } from './recipient-transitions.ts';
import { FOLLOW_UP_ROWS_SQL, getRecipient } from './recipients.ts';

// Moves between states that need no data, from a state the caller names.
function move(db: Db, rowId: number, from: RowState, to: RowState, kind: EventKind, now: number): boolean {
  assertTransition(rowId, from, to);
  return applyAndLog(
    db,
    rowId,
    kind,
    // A row the person moves is theirs from then on: no policy's skip stays on it.
    'UPDATE recipients SET state = ?, skipped_by = NULL, updated_at = ? WHERE id = ? AND state = ? RETURNING campaign_id',
    [to, now, rowId, from],
    now,
    { from, to },
  );
}

/** The user leaves a ready or invalid row out of the campaign. */
export function skip(db: Db, rowId: number, now: number): boolean {
  return db.transaction(() => {
    const row = getRecipient(db, rowId);
    if (!row || (row.state !== 'ready' && row.state !== 'invalid')) return false;
    return move(db, rowId, row.state, 'skipped', 'skipped', now);
  }).immediate();
}

/** Takes a skipped row back: ready if its stored validation found no errors, invalid otherwise. */
export function unskip(db: Db, rowId: number, now: number): boolean {
  return db.transaction(() => {
    const row = getRecipient(db, rowId);
    if (!row || row.state !== 'skipped') return false;
    return move(db, rowId, 'skipped', row.errors.length > 0 ? 'invalid' : 'ready', 'unskipped', now);
  }).immediate();
}

/**
 * failed → ready, for the user's "try again". The key and the frozen body stay: a definite
 * rejection means no order exists under the key, and the same bytes go again. A row a follow-up
 * campaign took is not: its recipient's gift is sent from there (a second one here would pay twice).
 */
export function requeueFailed(db: Db, rowId: number, now: number): boolean {
  return db.transaction(() => {
    const row = getRecipient(db, rowId);
    if (!row || row.followedUpIn !== null) return false;
    return move(db, rowId, 'failed', 'ready', 'requeued', now);
  }).immediate();
}

// A campaign's rows a retry puts back: failed, and not taken by a follow-up campaign (sent from
// there), which are the failed rows a follow-up may take: one definition (recipients.ts), for the
// retry, the follow-up and the counts the campaign screen shows ("Retry N failed" is
// countFollowUpCandidates's failed). The index on (campaign_id, state) reads only the failed rows.
const RETRYABLE_ROWS = `FROM recipients WHERE ${FOLLOW_UP_ROWS_SQL.failed}`;

/**
 * Every failed row of a campaign back to ready (the person's "retry the failed rows"), each with
 * its key and its values as they stand, in one transaction; a row a follow-up campaign took stays.
 * Returns how many.
 */
export function requeueFailedRows(db: Db, campaignId: string, now: number): number {
  return db.transaction(() => {
    const ids = z.array(z.number().int()).parse(statement(db, `SELECT id ${RETRYABLE_ROWS} ORDER BY id`).pluck().all({ campaignId }));
    return ids.filter((id) => requeueFailed(db, id, now)).length;
  }).immediate();
}

/** The user's corrected values for an invalid or ready row, with the validator's fresh findings. */
export interface RowEdit {
  readonly name: string | null;
  readonly email: string | null;
  readonly amountMinor: number | null;
  readonly currency: string | null;
  /** The amount as typed when it did not become amountMinor (kept for the next edit); absent or null: none. */
  readonly amountText?: string | null;
  readonly message?: string | null;
  readonly errors: readonly Issue[];
  readonly warnings?: readonly Issue[];
  /**
   * Another gift for the row, as recipients.product_id keeps it (null: the campaign's own product),
   * with the snapshot it was checked against (kept with the campaign unless it keeps it already).
   * Absent: the row keeps its product.
   */
  readonly product?: { readonly id: number | null; readonly snapshot: ProductSnapshot };
}

/**
 * Replaces an invalid or ready row's values; it becomes ready when `errors` is empty, invalid
 * otherwise. The external_reference_id never changes. A request body frozen by an earlier,
 * definitely rejected send is dropped so the next send carries the corrected values: in these
 * states no order can exist under the key.
 */
export function editRow(db: Db, rowId: number, edit: RowEdit, now: number): boolean {
  return db.transaction(() => {
    const row = getRecipient(db, rowId);
    if (!row || (row.state !== 'ready' && row.state !== 'invalid')) return false;
    const to: RowState = edit.errors.length > 0 ? 'invalid' : 'ready';
    assertTransition(rowId, row.state, to);
    const productId = edit.product ? edit.product.id : row.productId;
    if (edit.product && edit.product.id !== null) keepCampaignProduct(db, row.campaignId, edit.product.id, edit.product.snapshot);
    const changed = applyAndLog(
      db,
      rowId,
      'edited',
      `UPDATE recipients SET name = ?, email = ?, amount_minor = ?, currency = ?, amount_text = ?, message = ?, errors = ?, warnings = ?,
              product_id = ?, state = ?, request_body = NULL, updated_at = ?
        WHERE id = ? AND state = ? RETURNING campaign_id`,
      [
        edit.name,
        edit.email,
        edit.amountMinor,
        edit.currency,
        edit.amountMinor === null ? (edit.amountText ?? null) : null,
        edit.message ?? null,
        edit.errors.length > 0 ? JSON.stringify(edit.errors) : null,
        edit.warnings && edit.warnings.length > 0 ? JSON.stringify(edit.warnings) : null,
        productId,
        to,
        now,
        rowId,
        row.state,
      ],
      now,
      { from: row.state, to, ...(productId !== row.productId ? { product: { from: row.productId, to: productId } } : {}) },
    );
    // The row's old gift, when no row of the campaign names it any more, is no product of the campaign.
    if (changed && row.productId !== null && productId !== row.productId) dropUnusedCampaignProduct(db, row.campaignId, row.productId);
    return changed;
  }).immediate();
}
