// Calls on one recipient row: edit (re-validated with the same shared validation the renderer runs,
// against the product the campaign was validated against), skip, take back, and retry a failed row.
// The row's external_reference_id never changes.
import type { RowDto } from '../../../shared/contract.ts';
import { cleanEmail, emailKey } from '../../../shared/domain/email.ts';
import { keepProductErrors, validateRows } from '../../../shared/domain/validation.ts';
import { campaignChecks, storedRowInput, storedValues } from '../campaigns/stored-rows.ts';
import { editRow, requeueFailed, skip, unskip } from '../db/repos/recipient-edits.ts';
import { getRecipient, isUsedEmail, rowsWithEmailLike, type Recipient } from '../db/repos/recipients.ts';
import type { AppContext } from './context.ts';
import type { Handlers } from './dispatch.ts';
import { rowDto } from './dto.ts';
import { AppError } from './errors.ts';
import { campaignWithProducts } from './summary.ts';

type RowCalls = 'rows:edit' | 'rows:skip' | 'rows:unskip' | 'rows:retry';

const STATE_TEXT: Record<Recipient['state'], string> = {
  invalid: 'is invalid',
  ready: 'is ready to send',
  sending: 'is being sent',
  ordered: 'has been ordered',
  delivered: 'has been delivered',
  failed: 'failed',
  cancelled: 'was cancelled',
  skipped: 'is skipped',
};

export function rowHandlers(ctx: AppContext): Pick<Handlers, RowCalls> {
  const { engine } = ctx;

  const rowOrThrow = (rowId: number): Recipient => {
    const row = getRecipient(engine.db, rowId);
    if (!row) throw new AppError('not-found', `There is no row ${rowId}. Reload the campaign.`);
    return row;
  };

  const after = (row: Recipient, changed: boolean, refusal: string): RowDto => {
    const fresh = rowOrThrow(row.id);
    if (!changed) throw new AppError('conflict', `Line ${row.line} ${STATE_TEXT[fresh.state]}, so ${refusal}`);
    ctx.progress.notify(row.campaignId, [row.id]);
    return rowDto(fresh, engine.clock.now(), campaignWithProducts(engine, row.campaignId));
  };

  return {
    async 'rows:edit'({ rowId, name, email, amount, message }) {
      const row = rowOrThrow(rowId);
      const campaign = campaignWithProducts(engine, row.campaignId);
      if (row.state !== 'ready' && row.state !== 'invalid') {
        throw new AppError('conflict', `Line ${row.line} ${STATE_TEXT[row.state]}, so it can no longer be edited.`);
      }
      // Validated as at import, one row: a duplicate of an earlier line of the campaign (found by the
      // e-mail index, not by reading the campaign) goes first so the validator words it as it would.
      // Its message is checked as it would now be sent: the edited fields, the row's file cells.
      // Its own product (a gift per row keeps the one its file named), by id, as the stored row names it.
      const edited = { ...storedRowInput(row), name, email, amount: amount ?? '', message: message ?? '' };
      const key = emailKey(cleanEmail(email));
      const earlier =
        key === null
          ? undefined
          : rowsWithEmailLike(engine.db, campaign.id, cleanEmail(email))
              .filter((r) => r.id !== row.id && (r.line < row.line || (r.line === row.line && r.id < row.id)) && emailKey(r.email) === key)
              .sort((a, b) => a.line - b.line || a.id - b.id)[0];
      const checks = campaignChecks(campaign, campaign.products);
      const result = validateRows(earlier ? [{ line: earlier.line, name: 'x', email: earlier.email, amount: '', message: 'x' }, edited] : [edited], checks.product, {
        ...checks.options,
        ...(key !== null && isUsedEmail(engine.db, campaign.environment, key, campaign.id) ? { knownEmails: new Set([key]) } : {}),
      });
      const last = result.rows[result.rows.length - 1];
      if (!last) throw new Error('validation returned no row for the edit');
      const changed = editRow(engine.db, rowId, storedValues(keepProductErrors(row.errors, last)), engine.clock.now());
      return after(row, changed, 'it can no longer be edited.');
    },

    async 'rows:skip'({ rowId }) {
      const row = rowOrThrow(rowId);
      return after(row, skip(engine.db, rowId, engine.clock.now()), 'it cannot be skipped.');
    },

    async 'rows:unskip'({ rowId }) {
      const row = rowOrThrow(rowId);
      return after(row, unskip(engine.db, rowId, engine.clock.now()), 'there is nothing to take back.');
    },

    async 'rows:retry'({ rowId }) {
      const row = rowOrThrow(rowId);
      if (row.followedUpIn !== null) {
        throw new AppError('conflict', `Line ${row.line} was taken into a follow-up campaign, which sends its gift: it is not tried again here.`);
      }
      return after(row, requeueFailed(engine.db, rowId, engine.clock.now()), 'only a failed row can be tried again. Press Send or Resume to send it.');
    },
  };
}
