// Calls on one recipient row: edit (re-validated with the same shared validation the renderer runs,
// against the row's product as the campaign was validated against it, or another gift the edit gives
// it from the campaign's catalog), skip, take back, and retry a failed row.
// The row's external_reference_id never changes.
import type { RowDto } from '../../../shared/contract.ts';
import { cleanEmail, emailKey } from '../../../shared/domain/email.ts';
import { keepProductErrors, productChooser, validateRows } from '../../../shared/domain/validation.ts';
import { snapshotOf, validationProduct } from '../campaigns/products.ts';
import { campaignChecks, storedRowInput, storedValues } from '../campaigns/stored-rows.ts';
import { serviceName } from '../connections.ts';
import { campaignCountry, getCampaign, setSendState, type Campaign, type ProductSnapshot } from '../db/repos/campaigns.ts';
import { editRow, requeueFailed, skip, unskip } from '../db/repos/recipient-edits.ts';
import { markOrdered, updateOrderStatus } from '../db/repos/recipient-transitions.ts';
import { orderOutcomeOf } from '../campaigns/order-body.ts';
import { rowStateForOrder } from '../campaigns/policy.ts';
import { expectationOf, verifyOrder } from '../campaigns/verify-order.ts';
import { serviceError } from '../engine.ts';
import { countByState, getRecipient, getRecipientByExternalReferenceId, isUsedEmail, rowsWithEmailLike, type Recipient } from '../db/repos/recipients.ts';
import type { AppContext } from './context.ts';
import type { Handlers } from './dispatch.ts';
import { rowDto } from './dto.ts';
import { AppError } from './errors.ts';
import { campaignWithProducts } from './summary.ts';

type RowCalls = 'rows:edit' | 'rows:skip' | 'rows:unskip' | 'rows:retry' | 'rows:recordOrder';

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

  /**
   * The product `named` (a product id, or a product's exact name: the file's Product column's rule) among
   * the orderable products of the campaign's country, in the catalog of the service it was created
   * against. Its snapshot is the campaign's when the campaign keeps it already (its rows were checked
   * against that one), else the catalog's. Refused as invalid input, naming it, when there is none.
   */
  const giftFor = async (campaign: Campaign & { readonly products: ReadonlyMap<number, ProductSnapshot> }, line: number, named: string): Promise<{ id: number; snapshot: ProductSnapshot }> => {
    const connection = await engine.connectionFor(campaign);
    const country = campaignCountry(campaign) ?? undefined;
    // A product whose record states no currency is read in the one the campaign was validated in.
    const catalog = await engine.catalog(connection, country, { currency: campaign.product.currency });
    const chosen = productChooser(catalog.orderable.map((p) => validationProduct(p.id, snapshotOf(p))))(named);
    if (typeof chosen !== 'string') {
      const known = campaign.products.get(chosen.id);
      const listed = catalog.orderable.find((p) => p.id === chosen.id);
      if (!listed) throw new Error(`product ${chosen.id} was chosen from a catalog that does not list it`);
      return { id: chosen.id, snapshot: known ?? snapshotOf(listed) };
    }
    // Listed but not orderable (not on sale, no e-mail delivery): say why rather than "no such product".
    const unorderable = productChooser(catalog.unorderable.map((u) => validationProduct(u.product.id, snapshotOf(u.product))))(named);
    const reason =
      typeof unorderable === 'string'
        ? chosen
        : `product ${unorderable.id}${unorderable.name ? ` (${unorderable.name})` : ''} cannot be ordered: ${catalog.unorderable.find((u) => u.product.id === unorderable.id)?.reason ?? 'it is not orderable'}`;
    throw new AppError(
      'invalid-input',
      `Line ${line} cannot be given the gift "${named}": ${reason} (the products of ${serviceName(connection)}${country ? ` for ${country}` : ''}). Nothing was changed.`,
    );
  };

  return {
    async 'rows:edit'({ rowId, name, email, amount, message, product }) {
      const row = rowOrThrow(rowId);
      const campaign = campaignWithProducts(engine, row.campaignId);
      if (row.state !== 'ready' && row.state !== 'invalid') {
        throw new AppError('conflict', `Line ${row.line} ${STATE_TEXT[row.state]}, so it can no longer be edited.`);
      }
      // Another gift for the row: found as the file's Product column finds one, in the campaign's catalog.
      const gift = product === undefined ? null : await giftFor(campaign, row.line, product);
      const products = gift ? new Map([...campaign.products, [gift.id, gift.snapshot]]) : campaign.products;
      // Validated as at import, one row: a duplicate of an earlier line of the campaign (found by the
      // e-mail index, not by reading the campaign) goes first so the validator words it as it would.
      // Its message is checked as it would now be sent: the edited fields, the row's file cells.
      // Its own product (a gift per row keeps the one its file named, unless the edit gives another), by id.
      const edited = {
        ...storedRowInput(row),
        name,
        email,
        amount: amount ?? '',
        message: message ?? '',
        ...(gift ? { product: String(gift.id) } : {}),
      };
      const key = emailKey(cleanEmail(email));
      const earlier =
        key === null
          ? undefined
          : rowsWithEmailLike(engine.db, campaign.id, cleanEmail(email))
              .filter((r) => r.id !== row.id && (r.line < row.line || (r.line === row.line && r.id < row.id)) && emailKey(r.email) === key)
              .sort((a, b) => a.line - b.line || a.id - b.id)[0];
      const checks = campaignChecks(campaign, products);
      const result = validateRows(earlier ? [{ line: earlier.line, name: 'x', email: earlier.email, amount: '', message: 'x' }, edited] : [edited], checks.product, {
        ...checks.options,
        ...(key !== null && isUsedEmail(engine.db, campaign.environment, key, campaign.id) ? { knownEmails: new Set([key]) } : {}),
      });
      const last = result.rows[result.rows.length - 1];
      if (!last) throw new Error('validation returned no row for the edit');
      // The file's product error stands while the row keeps the gift its file named; a gift given here replaces it.
      const values = storedValues(gift ? last : keepProductErrors(row.errors, last));
      const edit = gift ? { ...values, product: { id: gift.id === campaign.productId ? null : gift.id, snapshot: gift.snapshot } } : values;
      const changed = editRow(engine.db, rowId, edit, engine.clock.now());
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

    async 'rows:recordOrder'({ rowId, orderId }) {
      const row = rowOrThrow(rowId);
      const campaign = campaignWithProducts(engine, row.campaignId);
      if (row.state !== 'sending' || row.requestBody === null) {
        throw new AppError('conflict', `Line ${row.line} ${STATE_TEXT[row.state]}: only a row left mid-send is given an order found at the service.`);
      }
      if (ctx.runs.isRunning(row.campaignId)) throw new AppError('conflict', `"${campaign.name}" is being sent right now: pause it first, then record the order.`);
      const connection = await engine.connectionFor(campaign);
      const found = await connection.client.getOrder(orderId);
      if (found.kind === 'rejected' && found.status === 404) {
        throw new AppError('not-found', `${serviceName(connection, { start: true })} has no order ${orderId}. Check the number in its records.`);
      }
      if (found.kind !== 'ok') throw serviceError(connection, found);
      const order = found.value;
      if (order.externalReferenceId !== row.externalReferenceId) {
        // Whose it is, when it is one of ours: two references can differ only in their last characters.
        const owner = order.externalReferenceId ? getRecipientByExternalReferenceId(engine.db, order.externalReferenceId) : null;
        const whose = owner ? ` (it is line ${owner.line}'s${owner.name ? `, ${owner.name}` : ''}${owner.campaignId === row.campaignId ? '' : `, in campaign ${owner.campaignId}`})` : '';
        throw new AppError(
          'invalid-input',
          `Order ${orderId} carries the reference ${order.externalReferenceId ?? '(none)'}${whose}, not line ${row.line}'s ${row.externalReferenceId}: it is not this row's order. Nothing was recorded.`,
        );
      }
      const findings = verifyOrder(expectationOf(campaign, row.requestBody), order);
      const now = engine.clock.now();
      // Found by a person days later, its gift is usually delivered already: recorded as its statuses
      // say, not shown 'ordered' beside an item 'Delivered' until the next poll.
      const settled = rowStateForOrder(order.status, order.item.status);
      const recorded = engine.db.transaction(() => {
        if (!markOrdered(engine.db, row.id, orderOutcomeOf(order, findings), now, 'reconciliation')) return false;
        if (settled !== 'ordered') {
          updateOrderStatus(engine.db, row.id, { state: settled, orderStatus: order.status, itemStatus: order.item.status ?? null }, now);
        }
        return true;
      })();
      // A campaign paused on its held rows with nothing left to send or look up is done.
      const counts = countByState(engine.db, row.campaignId);
      const paused = getCampaign(engine.db, row.campaignId);
      if (recorded && paused?.sendState === 'paused' && paused.pausedReason === 'unconfirmed' && counts.ready === 0 && counts.sending === 0) {
        setSendState(engine.db, row.campaignId, { from: 'paused', to: 'done' }, now);
      }
      return after(row, recorded, 'its order cannot be recorded now.');
    },
  };
}
