// The campaigns table: what is sent (the product as validated against, amount, sender, message),
// where (environment and base URL), and the user's intent for sending, which survives a restart.

import { z } from 'zod';
import { ENVIRONMENTS, PAUSE_REASONS, SEND_STATES, type Environment, type PauseReason, type SendState } from '../../../../shared/domain/campaigns.ts';
import type { Money } from '../../../../shared/domain/money.ts';
import type { Db } from '../open.ts';
import { newCampaignId } from '../ids.ts';
import { currencyCode, jsonText, minorUnits, parseRow, parseRows, timestamp } from '../parse.ts';
import { statement } from '../statements.ts';
import { appendEvent, type EventKind } from './events.ts';
import { countByState, insertRecipients, type NewRecipient, type StateCounts } from './recipients.ts';

export { ENVIRONMENTS, PAUSE_REASONS, SEND_STATES } from '../../../../shared/domain/campaigns.ts';
export type { Environment, PauseReason, SendState } from '../../../../shared/domain/campaigns.ts';

const SEND_TRANSITIONS: Readonly<Record<SendState, readonly SendState[]>> = {
  draft: ['sending'],
  sending: ['paused', 'done'],
  paused: ['sending', 'done'],
  // Failed rows put back to ready make a finished campaign send again.
  done: ['sending'],
};

export function canChangeSendState(from: SendState, to: SendState): boolean {
  return SEND_TRANSITIONS[from].includes(to);
}

const common = {
  name: z.string().nullable().optional(),
  currency: currencyCode,
  deliveryMethods: z.array(z.string()),
  availability: z.string(),
};
/** The product as it was validated against, so later checks and the report know what was promised. */
export const productSnapshotSchema = z.discriminatedUnion('priceKind', [
  z.looseObject({ priceKind: z.literal('fixed'), amountMinor: minorUnits, ...common }),
  z.looseObject({ priceKind: z.literal('range'), minMinor: minorUnits, maxMinor: minorUnits, ...common }),
]);
export type ProductSnapshot = z.output<typeof productSnapshotSchema>;

export interface NewCampaign {
  readonly name: string;
  readonly environment: Environment;
  readonly baseUrl: string;
  readonly productId: number;
  readonly product: ProductSnapshot;
  readonly senderName: string;
  readonly message?: string | null;
  readonly defaultAmountMinor?: number | null;
  /** The product's currency, in which every row's amount is expressed. */
  readonly currency: string;
  /** The other products its rows name (a gift per row), each as it was checked against. */
  readonly otherProducts?: readonly { readonly productId: number; readonly product: ProductSnapshot }[];
  /**
   * It chooses a gift per row (Campaign.giftPerRow): its file had a gift column, or it follows up a
   * campaign that did. A campaign with `otherProducts` chooses one whatever this says.
   */
  readonly giftPerRow?: boolean;
}

const campaignRow = z
  .object({
    id: z.string(),
    name: z.string(),
    environment: z.enum(ENVIRONMENTS),
    base_url: z.string(),
    product_id: z.number().int(),
    product_snapshot: jsonText(productSnapshotSchema),
    sender_name: z.string(),
    message: z.string().nullable(),
    default_amount_minor: minorUnits.nullable(),
    currency: currencyCode,
    send_state: z.enum(SEND_STATES),
    paused_reason: z.enum(PAUSE_REASONS).nullable(),
    paused_detail: z.string().nullable(),
    // Absent before schema 4.
    account_fingerprint: z.string().nullish(),
    // Absent before schema 8.
    gift_per_row: z.union([z.literal(0), z.literal(1)]).nullish(),
    // Absent before schema 9; NULL until a poll round reads its orders.
    last_polled_at: timestamp.nullish(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .transform((r) => ({
    id: r.id,
    name: r.name,
    environment: r.environment,
    baseUrl: r.base_url,
    productId: r.product_id,
    product: r.product_snapshot,
    senderName: r.sender_name,
    message: r.message,
    defaultAmountMinor: r.default_amount_minor,
    currency: r.currency,
    sendState: r.send_state,
    pausedReason: r.paused_reason,
    pausedDetail: r.paused_detail,
    accountFingerprint: r.account_fingerprint ?? null,
    /**
     * The campaign chooses a gift per row: each row is ordered as the product its gift cell names (the
     * campaign's own when empty), and the review shows every row's gift with a choice of another. Kept
     * when it is made (schema 8: its file had a gift column, or it follows up one that did; a row later
     * given another gift sets it too), so a reopened draft shows what the new one did.
     */
    giftPerRow: r.gift_per_row === 1,
    /** When a poll round last read the statuses of its undelivered orders (schema 9); null when none has. */
    lastPolledAt: r.last_polled_at ?? null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }));
export type Campaign = z.output<typeof campaignRow>;

/**
 * The campaign's country: its product's as validated (the service's country_code, kept in the
 * snapshot), whose catalog its rows' gifts come from; null when the product stated none.
 */
export function campaignCountry(campaign: Pick<Campaign, 'product'>): string | null {
  return typeof campaign.product.countryCode === 'string' ? campaign.product.countryCode : null;
}

/** The amount a row without its own is given, in the campaign's currency; null when the campaign has none. */
export function campaignDefaultAmount(campaign: Pick<Campaign, 'defaultAmountMinor' | 'currency'>): Money | null {
  return campaign.defaultAmountMinor === null ? null : { minor: campaign.defaultAmountMinor, currency: campaign.currency };
}

export interface CreatedCampaign {
  readonly campaign: Campaign;
  readonly counts: StateCounts;
}

/** Storing a large import in parts (the app's import worker): each part its own short transaction. */
export interface StoreInParts {
  /** Who stores it, as campaigns.importing holds it until the last part is in: "host pid token". */
  readonly marker: string;
  readonly rowsPerPart: number;
  /** Called before each part, with how long the last one held the write lock (0 before the first): the storer's chance to let other writers in. */
  readonly between?: (lastPartMs: number) => void;
}

/**
 * Creates a campaign with all its rows, each given its external_reference_id, in ONE transaction:
 * an import never half-happens. Logs a single 'imported' event with the counts. With `parts` (and
 * more rows than one part), the campaign is created hidden (campaigns.importing = the marker), its
 * rows go in one short transaction per part, and the last transaction logs the event and shows it:
 * an import stopped half-way is never seen, and discardUnfinishedImports removes what it stored.
 */
export function createCampaign(db: Db, input: NewCampaign, rows: readonly NewRecipient[], now: number, parts?: StoreInParts): CreatedCampaign {
  const product = productSnapshotSchema.parse(input.product);
  const id = newCampaignId();
  const giftPerRow = input.giftPerRow === true || (input.otherProducts ?? []).some((p) => p.productId !== input.productId);
  const insertCampaign = (importing: string | null) =>
    statement(
      db,
      `INSERT INTO campaigns (id, name, environment, base_url, product_id, product_snapshot, sender_name, message,
         default_amount_minor, currency, send_state, created_at, updated_at, importing, gift_per_row)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'draft', ?, ?, ?, ?)`,
    ).run(
      id,
      input.name,
      input.environment,
      input.baseUrl,
      input.productId,
      JSON.stringify(product),
      input.senderName,
      input.message ?? null,
      input.defaultAmountMinor ?? null,
      input.currency,
      now,
      now,
      importing,
      giftPerRow ? 1 : 0,
    );
  const insertProducts = () => {
    const add = statement(db, 'INSERT INTO campaign_products (campaign_id, product_id, snapshot) VALUES (?, ?, ?)');
    for (const other of input.otherProducts ?? []) {
      if (other.productId !== input.productId) add.run(id, other.productId, JSON.stringify(productSnapshotSchema.parse(other.product)));
    }
  };
  if (!parts || rows.length <= parts.rowsPerPart) {
    db.transaction(() => {
      insertCampaign(null);
      insertProducts();
      const counts = insertRecipients(db, id, rows, now);
      appendEvent(db, { campaignId: id, kind: 'imported', detail: { ...counts } }, now);
    })();
  } else {
    db.transaction(() => {
      insertCampaign(parts.marker);
      insertProducts();
    })();
    const counts = { inserted: 0, ready: 0, invalid: 0, skipped: 0 };
    // The parts commit without waiting for the disk and without checkpointing the log (synchronous =
    // NORMAL, safe in WAL but for a power cut; no automatic checkpoint): the last transaction, which
    // shows the campaign, commits with the connection's own settings, and its fsync of the log covers
    // every part before it. A fsync and a checkpoint per part made storing four times slower.
    const synchronous = Number(db.pragma('synchronous', { simple: true }));
    const checkpointEvery = Number(db.pragma('wal_autocheckpoint', { simple: true }));
    db.pragma('synchronous = NORMAL');
    db.pragma('wal_autocheckpoint = 0');
    try {
      let lastPartMs = 0;
      for (let from = 0; from < rows.length; from += parts.rowsPerPart) {
        parts.between?.(lastPartMs);
        const started = performance.now();
        const part = db.transaction(() => insertRecipients(db, id, rows.slice(from, from + parts.rowsPerPart), now))();
        lastPartMs = performance.now() - started;
        counts.inserted += part.inserted;
        counts.ready += part.ready;
        counts.invalid += part.invalid;
        counts.skipped += part.skipped;
      }
    } finally {
      db.pragma(`synchronous = ${synchronous}`);
      db.pragma(`wal_autocheckpoint = ${checkpointEvery}`);
    }
    db.transaction(() => {
      appendEvent(db, { campaignId: id, kind: 'imported', detail: { ...counts } }, now);
      statement(db, 'UPDATE campaigns SET importing = NULL WHERE id = ?').run(id);
    })();
  }
  const campaign = getCampaign(db, id);
  if (!campaign) throw new Error(`campaign ${id} vanished right after it was created`);
  return { campaign, counts: countByState(db, id) };
}

/**
 * Removes the campaigns an import stopped storing half-way (hidden, campaigns.importing set): those
 * of `marker`, or, with a predicate, those whose marker it says are dead (at start: an importer on
 * this machine whose process is gone). Rows go a part at a time, each its own short transaction.
 * No event was logged for them (the last part logs it). Returns how many campaigns were removed.
 */
export function discardUnfinishedImports(db: Db, which: string | ((marker: string) => boolean)): number {
  const raws = statement(db, 'SELECT id, importing FROM campaigns WHERE importing IS NOT NULL').all();
  const found = z.array(z.object({ id: z.string(), importing: z.string() })).parse(raws);
  const doomed = found.filter((c) => (typeof which === 'string' ? c.importing === which : which(c.importing)));
  for (const { id } of doomed) {
    const part = statement(db, 'DELETE FROM recipients WHERE id IN (SELECT id FROM recipients WHERE campaign_id = ? LIMIT 2000)');
    while (db.transaction(() => part.run(id).changes)() > 0);
    db.transaction(() => {
      statement(db, 'DELETE FROM campaign_products WHERE campaign_id = ? AND EXISTS (SELECT 1 FROM campaigns WHERE id = ? AND importing IS NOT NULL)').run(id, id);
      statement(db, 'DELETE FROM campaigns WHERE id = ? AND importing IS NOT NULL').run(id);
    })();
  }
  return doomed.length;
}

export function getCampaign(db: Db, id: string): Campaign | null {
  // A campaign whose import is still storing its rows (importing set) is not there yet.
  const raw = statement(db, 'SELECT * FROM campaigns WHERE id = ? AND importing IS NULL').get(id);
  return raw === undefined ? null : parseRow(campaignRow, 'campaigns', raw);
}

/** Campaigns, newest first, optionally of one environment. */
export function listCampaigns(db: Db, opts: { environment?: Environment } = {}): Campaign[] {
  const raws = statement(
    db,
    'SELECT * FROM campaigns WHERE importing IS NULL AND (? IS NULL OR environment = ?) ORDER BY created_at DESC, rowid DESC',
  ).all(opts.environment ?? null, opts.environment ?? null);
  return parseRows(campaignRow, 'campaigns', raws);
}

export class IllegalSendStateError extends Error {
  override readonly name = 'IllegalSendStateError';
}

export type SendStateChange =
  | { readonly from: SendState; readonly to: 'paused'; readonly reason: PauseReason; readonly detail?: string | null }
  | { readonly from: SendState; readonly to: Exclude<SendState, 'paused'> };

function eventFor(from: SendState, to: SendState): EventKind {
  if (to === 'sending') return from === 'draft' ? 'started' : 'resumed';
  return to === 'paused' ? 'paused' : 'done';
}

/**
 * Moves a campaign's send state from `from` to `to` if it is still `from` (compare-and-set) and
 * logs it. Returns whether it applied. Throws IllegalSendStateError for a move that never is allowed.
 */
export function setSendState(db: Db, campaignId: string, change: SendStateChange, now: number): boolean {
  if (!canChangeSendState(change.from, change.to)) {
    throw new IllegalSendStateError(`a campaign cannot go from ${change.from} to ${change.to}`);
  }
  const reason = change.to === 'paused' ? change.reason : null;
  const detail = change.to === 'paused' ? (change.detail ?? null) : null;
  return db.transaction(() => {
    const result = statement(
      db,
      `UPDATE campaigns SET send_state = ?, paused_reason = ?, paused_detail = ?, updated_at = ?
        WHERE id = ? AND send_state = ?`,
    ).run(change.to, reason, detail, now, campaignId, change.from);
    if (result.changes === 0) return false;
    appendEvent(db, { campaignId, kind: eventFor(change.from, change.to), detail: { from: change.from, to: change.to, reason, message: detail } }, now);
    return true;
  })();
}

/**
 * At start-up, every campaign still marked 'sending' was interrupted: pause it, so nothing is sent
 * until a person presses Resume (sending needs a person; reading does not). Returns the ids it paused.
 */
export function pauseInterrupted(db: Db, now: number, stillSending: (campaignId: string) => boolean = () => false): string[] {
  const detail = 'Giftbatch stopped while this campaign was sending.';
  return db.transaction(() => {
    const ids = z
      .array(z.string())
      .parse(statement(db, "SELECT id FROM campaigns WHERE send_state = 'sending' ORDER BY rowid").pluck().all())
      // Another process (the app, a giftbatch command) may be sending it this very moment.
      .filter((id) => !stillSending(id));
    for (const id of ids) setSendState(db, id, { from: 'sending', to: 'paused', reason: 'interrupted', detail }, now);
    return ids;
  }).immediate();
}

/**
 * A poll round read the statuses of these campaigns' undelivered orders at `at` (schema 9): what
 * "Last checked" says. Not updated_at, which says when the campaign itself last changed.
 */
export function setLastPolled(db: Db, campaignIds: Iterable<string>, at: number): void {
  const set = statement(db, 'UPDATE campaigns SET last_polled_at = ? WHERE id = ?');
  db.transaction(() => {
    for (const id of campaignIds) set.run(at, id);
  })();
}

/** Records which account (key) the campaign is sent under: a fingerprint, never the key. */
export function setAccountFingerprint(db: Db, campaignId: string, fingerprint: string, now: number): void {
  statement(db, 'UPDATE campaigns SET account_fingerprint = ?, updated_at = ? WHERE id = ?').run(fingerprint, now, campaignId);
}

/** The product as the rows are now checked against (revalidation in place). */
/** A product of the campaign as its rows are now checked against: its own (campaigns.product_snapshot), or one its rows name (campaign_products). */
export function setProductSnapshot(db: Db, campaignId: string, productId: number, snapshot: ProductSnapshot, now: number): void {
  const parsed = JSON.stringify(productSnapshotSchema.parse(snapshot));
  statement(db, 'UPDATE campaigns SET product_snapshot = ?, updated_at = ? WHERE id = ? AND product_id = ?').run(parsed, now, campaignId, productId);
  statement(db, 'UPDATE campaign_products SET snapshot = ? WHERE campaign_id = ? AND product_id = ?').run(parsed, campaignId, productId);
}

/** A paused campaign's reason and detail replaced (a resume held by the pre-flight says why now). */
export function setPauseReason(db: Db, campaignId: string, reason: PauseReason, detail: string, now: number): boolean {
  return (
    statement(db, `UPDATE campaigns SET paused_reason = ?, paused_detail = ?, updated_at = ? WHERE id = ? AND send_state = 'paused'`).run(reason, detail, now, campaignId)
      .changes === 1
  );
}

/** Every product a campaign's rows are checked against and ordered as: its own, and those its rows name (schema 7). */
export function campaignProducts(db: Db, campaign: Pick<Campaign, 'id' | 'productId' | 'product'>): ReadonlyMap<number, ProductSnapshot> {
  const products = new Map<number, ProductSnapshot>([[campaign.productId, campaign.product]]);
  const raws = statement(db, 'SELECT product_id, snapshot FROM campaign_products WHERE campaign_id = ? ORDER BY product_id').all(campaign.id);
  for (const r of z.array(z.object({ product_id: z.number().int(), snapshot: jsonText(productSnapshotSchema) })).parse(raws)) {
    products.set(r.product_id, r.snapshot);
  }
  return products;
}

/**
 * Another product a row of the campaign is now checked against and ordered as (a row given another
 * gift; never the campaign's own): kept as `snapshot` unless the campaign already keeps it, whose
 * snapshot the other rows were checked against and stays. The campaign chooses a gift per row from
 * then on (giftPerRow). Call inside the row's change.
 */
export function keepCampaignProduct(db: Db, campaignId: string, productId: number, snapshot: ProductSnapshot): void {
  statement(db, 'INSERT INTO campaign_products (campaign_id, product_id, snapshot) VALUES (?, ?, ?) ON CONFLICT DO NOTHING').run(
    campaignId,
    productId,
    JSON.stringify(productSnapshotSchema.parse(snapshot)),
  );
  statement(db, 'UPDATE campaigns SET gift_per_row = 1 WHERE id = ? AND gift_per_row = 0').run(campaignId);
}

/**
 * Whether any row of the campaign is ordered as its own product (a row without a gift of its own is).
 * A follow-up of a gift per row may have none: its rows all name other products. Stops at the first
 * such row (campaign_id leads the recipients' indexes).
 */
export function usesOwnProduct(db: Db, campaign: Pick<Campaign, 'id' | 'productId'>): boolean {
  const row = statement(db, 'SELECT EXISTS (SELECT 1 FROM recipients WHERE campaign_id = ? AND (product_id IS NULL OR product_id = ?)) AS used').get(campaign.id, campaign.productId);
  return z.object({ used: z.number().int() }).parse(row).used === 1;
}

/** Forgets a product none of the campaign's rows names any more (its last row was given another gift). */
export function dropUnusedCampaignProduct(db: Db, campaignId: string, productId: number): void {
  statement(
    db,
    'DELETE FROM campaign_products WHERE campaign_id = ? AND product_id = ? AND NOT EXISTS (SELECT 1 FROM recipients WHERE campaign_id = ? AND product_id = ?)',
  ).run(campaignId, productId, campaignId, productId);
}

/** The product a row is ordered as: the one it names, else the campaign's. */
export function productIdOf(campaign: Pick<Campaign, 'productId'>, row: { readonly productId: number | null }): number {
  return row.productId ?? campaign.productId;
}

/** A campaign with every product its rows are ordered as: what the send queue, reconciliation and polling build and check orders from. */
export function getCampaignForOrders(db: Db, id: string): (Campaign & { readonly products: ReadonlyMap<number, ProductSnapshot> }) | null {
  const campaign = getCampaign(db, id);
  return campaign === null ? null : { ...campaign, products: campaignProducts(db, campaign) };
}

