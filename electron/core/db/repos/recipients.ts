// The recipients table: one row per CSV line of a campaign, and everything the service told us
// about its order. State changes live in recipient-transitions.ts; this module inserts and reads.

import { z } from 'zod';
import { emailKey } from '../../../../shared/domain/email.ts';
import { exactDecimalText, isCurrencyCode, type DecimalAmount, type Money } from '../../../../shared/domain/money.ts';
import { findingSchema } from '../../../../shared/domain/findings.ts';
import { FOLLOW_UP_KINDS, type FollowUpKind } from '../../../../shared/domain/follow-up.ts';
import { HAS_A_GIFT, ROW_STATES, type RowState } from '../../../../shared/domain/rows.ts';
import { SKIP_POLICIES, type SkipPolicy } from '../../../../shared/domain/skips.ts';
import { newExternalReferenceId } from '../ids.ts';
import type { Db } from '../open.ts';
import {
  currencyCode,
  decimalText,
  issueSchema,
  jsonText,
  minorUnits,
  parseRow,
  parseRows,
  timestamp,
  type Issue,
} from '../parse.ts';
import { statement } from '../statements.ts';
import type { Environment } from './campaigns.ts';

/** A CSV line as the importer validated it. A row with errors is stored as `invalid`, else `ready`. */
export interface NewRecipient {
  readonly line: number;
  readonly name: string | null;
  readonly email: string | null;
  readonly amountMinor: number | null;
  readonly currency: string | null;
  /** The amount as the file wrote it when it did not become amountMinor (schema 10); null otherwise. */
  readonly amountText?: string | null;
  readonly message?: string | null;
  readonly errors?: readonly Issue[];
  readonly warnings?: readonly Issue[];
  /** The cells as read from the file, kept so an invalid row can be shown and fixed as it was. */
  readonly source?: Readonly<Record<string, string>> | null;
  /** A valid row the import leaves out by this policy (stored skipped); an invalid row stays invalid. */
  readonly skippedBy?: SkipPolicy | null;
  /** The product its gift cell named, when not the campaign's (schema 7); null or absent: the campaign's. */
  readonly productId?: number | null;
}

const issues = jsonText(z.array(issueSchema)).nullable().transform((v) => v ?? []);

const recipientColumns = z.object({
  id: z.number().int(),
  campaign_id: z.string(),
  line: z.number().int().nonnegative(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  amount_minor: minorUnits.nullable(),
  currency: currencyCode.nullable(),
  message: z.string().nullable(),
  state: z.enum(ROW_STATES),
  external_reference_id: z.string().min(1),
  request_body: z.string().nullable(),
  order_id: z.number().int().nullable(),
  order_status: z.string().nullable(),
  item_id: z.number().int().nullable(),
  item_status: z.string().nullable(),
  charged_minor: minorUnits.nullable(),
  charged_currency: currencyCode.nullable(),
  exchange_rate: decimalText.nullable(),
  rate_from: z.string().nullable(),
  rate_to: z.string().nullable(),
  fee_rate: decimalText.nullable(),
  acceptance_expiry: timestamp.nullable(),
  attempts: z.number().int().nonnegative(),
  last_error: z.string().nullable(),
  errors: issues,
  warnings: issues,
  source: jsonText(z.record(z.string(), z.string())).nullable(),
  created_at: timestamp,
  sent_at: timestamp.nullable(),
  ordered_at: timestamp.nullable(),
  delivered_at: timestamp.nullable(),
  updated_at: timestamp,
  next_attempt_at: timestamp.nullable(),
  charged_text: decimalText.nullable(),
  issued_amount: z.string().nullable(),
  issued_currency: z.string().nullable(),
  discrepancies: jsonText(z.array(findingSchema)).nullable(),
  skipped_by: z.enum(SKIP_POLICIES).nullable(),
  product_id: z.number().int().nullable(),
  followed_up_in: z.string().nullable(),
  amount_text: z.string().nullish(),
  held_at: timestamp.nullish(),
});

/** What the send queue needs of a row to build its order: no order fields; the cells only for its message's fields. */
export interface SendRow {
  readonly id: number;
  readonly line: number;
  readonly name: string | null;
  readonly email: string | null;
  readonly amountMinor: number | null;
  readonly currency: string | null;
  readonly message: string | null;
  readonly externalReferenceId: string;
  /** The cells the row was read from, by header: what a message's {column} fields are filled in from. */
  readonly source?: Readonly<Record<string, string>> | null;
  /** The product it names (schema 7); null: the campaign's (productIdOf). */
  readonly productId: number | null;
}

const sendColumns = recipientColumns.pick({
  id: true,
  line: true,
  name: true,
  email: true,
  amount_minor: true,
  currency: true,
  message: true,
  external_reference_id: true,
  source: true,
  product_id: true,
});

function sendRowOf(r: z.output<typeof sendColumns>): SendRow {
  return {
    id: r.id,
    line: r.line,
    name: r.name,
    email: r.email,
    amountMinor: r.amount_minor,
    currency: r.currency,
    message: r.message,
    externalReferenceId: r.external_reference_id,
    source: r.source,
    productId: r.product_id,
  };
}

const recipientRow = recipientColumns.transform((r) => ({
  ...sendRowOf(r),
  campaignId: r.campaign_id,
  state: r.state,
  requestBody: r.request_body,
  orderId: r.order_id,
  orderStatus: r.order_status,
  itemId: r.item_id,
  itemStatus: r.item_status,
  charged:
    r.charged_minor !== null && r.charged_currency !== null
      ? ({ minor: r.charged_minor, currency: r.charged_currency } satisfies Money)
      : null,
  /** total_price_charged.amount exactly as the service sent it (charged is it rounded, for display). */
  chargedText: r.charged_text,
  /** What the service says it issued: the item's price as received. */
  issued: r.issued_amount !== null && r.issued_currency !== null ? { text: r.issued_amount, currency: r.issued_currency } : null,
  /** Differences between the service's answers and what the row asked, and values we could not read. */
  findings: r.discrepancies ?? [],
  exchangeRate: r.exchange_rate !== null ? { rate: r.exchange_rate, from: r.rate_from, to: r.rate_to } : null,
  feeRate: r.fee_rate,
  acceptanceExpiry: r.acceptance_expiry,
  attempts: r.attempts,
  lastError: r.last_error,
  errors: r.errors,
  warnings: r.warnings,
  createdAt: r.created_at,
  sentAt: r.sent_at,
  orderedAt: r.ordered_at,
  deliveredAt: r.delivered_at,
  updatedAt: r.updated_at,
  nextAttemptAt: r.next_attempt_at,
  /** The import's policy that skipped it (schema 6); null for every other row, one the organiser skipped included. */
  skippedBy: r.skipped_by,
  /** The follow-up campaign that took this row (schema 7): its gift is sent from there, never again from here. */
  followedUpIn: r.followed_up_in,
  /** The amount as the file or the last edit wrote it, when it did not become the amount (schema 10): what an editor starts from. */
  amountText: r.amount_text ?? null,
  /** Held for a person since (schema 12): left sending, its empty lookup by key proves nothing (ListReach). */
  heldAt: r.held_at ?? null,
}));
export type Recipient = z.output<typeof recipientRow>;

export function parseRecipient(raw: unknown): Recipient {
  return parseRow(recipientRow, 'recipients', raw);
}

function parseRecipients(raws: readonly unknown[]): Recipient[] {
  return parseRows(recipientRow, 'recipients', raws);
}

export interface InsertCounts {
  readonly inserted: number;
  readonly ready: number;
  readonly invalid: number;
  /** Valid rows the import left out by a policy (stored skipped). */
  readonly skipped: number;
}

const INSERT_SQL = `INSERT INTO recipients
  (campaign_id, line, name, email, amount_minor, currency, message, state, external_reference_id,
   errors, warnings, source, created_at, updated_at, skipped_by, product_id, amount_text)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/**
 * Inserts rows into a campaign, each with a fresh external_reference_id, all or nothing.
 * One prepared statement, no read per row: a 100,000-row import is one transaction of inserts.
 * Logs nothing itself; createCampaign logs one 'imported' event with the counts.
 */
const ADD_TALLY_SQL = `INSERT INTO recipient_tallies (campaign_id, state, currency, rows, priced, amount_minor, flagged)
  VALUES (?, ?, ?, ?, ?, ?, 0)
  ON CONFLICT DO UPDATE SET rows = rows + excluded.rows, priced = priced + excluded.priced, amount_minor = amount_minor + excluded.amount_minor`;

export function insertRecipients(
  db: Db,
  campaignId: string,
  rows: readonly NewRecipient[],
  now: number,
): InsertCounts {
  const insert = statement(db, INSERT_SQL);
  let invalid = 0;
  let skipped = 0;
  // Inserts fire no tally trigger (one per row cost more than the inserts themselves): the rows'
  // tallies (schema 5) are added here, in the same transaction. New rows have no charge and no flag.
  const tallies = new Map<string, { state: RowState; currency: string; rows: number; priced: number; amountMinor: number }>();
  db.transaction(() => {
    for (const row of rows) {
      const bad = row.errors !== undefined && row.errors.length > 0;
      if (bad) invalid++;
      const skippedBy = bad ? null : (row.skippedBy ?? null);
      const state: RowState = bad ? 'invalid' : skippedBy !== null ? 'skipped' : 'ready';
      if (state === 'skipped') skipped++;
      const currency = row.currency ?? '';
      const key = `${state} ${currency}`;
      let tally = tallies.get(key);
      if (!tally) tallies.set(key, (tally = { state, currency, rows: 0, priced: 0, amountMinor: 0 }));
      tally.rows++;
      if (row.currency !== null && row.amountMinor !== null) {
        tally.priced++;
        tally.amountMinor += row.amountMinor;
      }
      insert.run(
        campaignId,
        row.line,
        row.name,
        row.email,
        row.amountMinor,
        row.currency,
        row.message ?? null,
        state,
        newExternalReferenceId(now),
        bad ? JSON.stringify(row.errors) : null,
        row.warnings !== undefined && row.warnings.length > 0 ? JSON.stringify(row.warnings) : null,
        row.source ? JSON.stringify(row.source) : null,
        now,
        now,
        skippedBy,
        row.productId ?? null,
        row.amountMinor === null ? (row.amountText ?? null) : null,
      );
    }
    const add = statement(db, ADD_TALLY_SQL);
    for (const t of tallies.values()) add.run(campaignId, t.state, t.currency, t.rows, t.priced, t.amountMinor);
  })();
  return { inserted: rows.length, ready: rows.length - invalid - skipped, invalid, skipped };
}

export function getRecipient(db: Db, id: number): Recipient | null {
  const raw = statement(db, 'SELECT * FROM recipients WHERE id = ?').get(id);
  return raw === undefined ? null : parseRecipient(raw);
}

export function getRecipientByExternalReferenceId(db: Db, externalReferenceId: string): Recipient | null {
  const raw = statement(db, 'SELECT * FROM recipients WHERE external_reference_id = ?').get(externalReferenceId);
  return raw === undefined ? null : parseRecipient(raw);
}


export type StateCounts = Record<RowState, number>;

/** How many rows of the campaign are in each state; every state is a key, zero when none. */
export function countByState(db: Db, campaignId: string): StateCounts {
  const counts: StateCounts = {
    invalid: 0,
    ready: 0,
    sending: 0,
    ordered: 0,
    delivered: 0,
    failed: 0,
    cancelled: 0,
    skipped: 0,
  };
  // From the running tallies (schema 5), not the rows: the same cost at any campaign size.
  const raws = statement(db, 'SELECT state, sum(rows) AS n FROM recipient_tallies WHERE campaign_id = ? GROUP BY state').all(campaignId);
  for (const { state, n } of parseRows(z.object({ state: z.enum(ROW_STATES), n: z.number().int() }), 'recipient_tallies', raws)) {
    counts[state] = n;
  }
  return counts;
}

const totalRow = z.object({ currency: currencyCode, minor: minorUnits });
const exactTotalRow = z.object({ currency: currencyCode, sum: z.string().regex(/^-?\d+\/\d+$/) });
const chargeTallyRow = z.object({ currency: z.string(), scale: z.bigint(), units: z.union([z.bigint(), z.number()]), oversized: z.bigint(), kind: z.string() });

/** A charged total: the exact sum of what the service sent, as decimal text with at least the currency's decimals. */
export type ChargedTotal = DecimalAmount;

/**
 * What the service charged for this campaign's orders, per account currency (never summed across
 * currencies), sorted by currency code: the exact sum of the amounts as the service stated them.
 * Every row with a recorded charge counts, whatever its state, unless `states` names some (the
 * cancelled ones are shown apart: their orders were charged, then cancelled or never paid).
 */
export function chargedTotals(db: Db, campaignId: string, opts: { states?: readonly RowState[] } = {}): ChargedTotal[] {
  const states = JSON.stringify(opts.states ?? ROW_STATES);
  // The running tallies (schema 5) hold each currency's charges as integer sums per number of
  // decimals; they are added up exactly here. A text too long for an integer sum, or a sum that
  // overflowed into a float, sends this campaign to the exact sum of its texts.
  const tallies = statement(
    db,
    `SELECT currency, scale, sum(units) AS units, sum(oversized) AS oversized, typeof(sum(units)) AS kind FROM charge_tallies
      WHERE campaign_id = ? AND state IN (SELECT value FROM json_each(?)) AND texts > 0
      GROUP BY currency, scale ORDER BY currency, scale`,
  )
    .safeIntegers(true)
    .all(campaignId, states);
  return scaledSums(parseRows(chargeTallyRow, 'charge_tallies', tallies)) ?? chargedTextTotals(db, 'campaign_id = @campaignId AND state IN (SELECT value FROM json_each(@states))', { campaignId, states });
}

/**
 * Integer sums of charged texts per currency and number of decimals, added up exactly per currency;
 * null when a text was too long for an integer sum or a sum overflowed into a float (the caller
 * then sums the texts themselves).
 */
function scaledSums(parsed: readonly z.output<typeof chargeTallyRow>[]): ChargedTotal[] | null {
  if (!parsed.every((t) => t.oversized === 0n && t.kind === 'integer' && typeof t.units === 'bigint')) return null;
  const sums = new Map<string, { units: bigint; scale: number }>();
  for (const t of parsed) {
    const scale = Number(t.scale);
    const sum = sums.get(t.currency) ?? { units: 0n, scale: 0 };
    const top = Math.max(sum.scale, scale);
    sums.set(t.currency, { units: sum.units * 10n ** BigInt(top - sum.scale) + BigInt(t.units) * 10n ** BigInt(top - scale), scale: top });
  }
  return [...sums].map(([currency, sum]) => ({ currency: currencyCode.parse(currency), amount: exactDecimalText(sum, currency) }));
}

/** The exact sum of the charged texts of the rows `where` selects, per charged currency, sorted by currency code. */
function chargedTextTotals(db: Db, where: string, params: Readonly<Record<string, string | number>>): ChargedTotal[] {
  const raws = statement(
    db,
    `SELECT charged_currency AS currency, decimal_sum(charged_text) AS sum FROM recipients
      WHERE ${where} AND charged_text IS NOT NULL
      GROUP BY charged_currency ORDER BY charged_currency`,
  ).all(params);
  return parseRows(exactTotalRow, 'recipients', raws).map(({ currency, sum }) => {
    const [units = '0', scale = '0'] = sum.split('/');
    return { currency, amount: exactDecimalText({ units: BigInt(units), scale: Number(scale) }, currency) };
  });
}

/**
 * Ordered rows whose charge is not stated yet: their answer left out the item's price and only the
 * first order of a product waits for it (send rule 7), so a poll reads it later from the order's
 * record (completeOrderRecord). Their charge is not in chargedTotals until then. From the tallies
 * (ordered rows less those with a charged text), so it costs the same for 100 rows and 100,000.
 */
export function countUnchargedOrders(db: Db, campaignId: string): number {
  return z
    .number()
    .int()
    .parse(
      statement(
        db,
        `SELECT (SELECT coalesce(sum(rows), 0) FROM recipient_tallies WHERE campaign_id = @campaignId AND state = 'ordered')
          - (SELECT coalesce(sum(texts), 0) FROM charge_tallies WHERE campaign_id = @campaignId AND state = 'ordered')`,
      )
        .pluck()
        .get({ campaignId }),
    );
}

/**
 * Rows whose order answer disagreed with what they asked (or could not be read), for the status,
 * the campaign screen and the pause message.
 */
export function countFlagged(db: Db, campaignId: string): number {
  return z.number().int().parse(statement(db, 'SELECT coalesce(sum(flagged), 0) FROM recipient_tallies WHERE campaign_id = ?').pluck().get(campaignId));
}

/**
 * A row held for a person (send-queue's hold, holdRow): left `sending`, its empty lookup by key proves
 * nothing, so it waits for someone to look its reference up at the service. The one definition of the
 * summary's heldRows and of campaigns:rows' `held` filter; read through the (campaign_id, state) index.
 */
export const HELD_ROW_SQL = `state = 'sending' AND held_at IS NOT NULL`;

/** The ids of the campaign's rows held for a person (HELD_ROW_SQL). */
export function heldRowIds(db: Db, campaignId: string): number[] {
  return z.array(z.number().int()).parse(statement(db, `SELECT id FROM recipients WHERE campaign_id = ? AND ${HELD_ROW_SQL}`).pluck().all(campaignId));
}

/** How many rows of the campaign are held for a person (HELD_ROW_SQL). */
export function countHeldRows(db: Db, campaignId: string): number {
  return z.number().int().parse(statement(db, `SELECT count(*) FROM recipients WHERE campaign_id = ? AND ${HELD_ROW_SQL}`).pluck().get(campaignId));
}

/**
 * The campaign's ordered rows whose acceptance link expired by @now unaccepted (the order stands; the
 * recipient can no longer take it): acceptance.ts's isAcceptanceExpired in SQL, the one definition
 * for every count of such rows, whether or not a follow-up campaign took them. Parameters
 * @campaignId and @now; read through the partial index of ordered rows by expiry.
 */
export const EXPIRED_ACCEPTANCE_SQL = `campaign_id = @campaignId AND state = 'ordered' AND acceptance_expiry < @now`;

/** Not taken by a follow-up campaign (followed_up_in is set when one takes the row). */
const NOT_FOLLOWED_UP_SQL = 'followed_up_in IS NULL';

/**
 * Every expired acceptance of the campaign at `now` (EXPIRED_ACCEPTANCE_SQL), those a follow-up
 * took included: the summary's acceptanceExpired. The ones a follow-up may still take are
 * FOLLOW_UP_ROWS_SQL.expired, the same condition less those taken. The index alone answers it.
 */
export function countExpiredAcceptances(db: Db, campaignId: string, now: number): number {
  return z
    .number()
    .int()
    .parse(statement(db, `SELECT count(*) FROM recipients WHERE ${EXPIRED_ACCEPTANCE_SQL}`).pluck().get({ campaignId, now }));
}

/**
 * Of the charged totals, what went to ordered rows whose acceptance link expired by `now` unaccepted
 * (EXPIRED_ACCEPTANCE_SQL, those a follow-up took included, as acceptanceExpired counts them), per
 * currency. Not in the tallies (expiry depends on the time asked about): one query through the
 * partial index of ordered rows by expiry, reading only the expired rows' charges. The caller asks
 * only when acceptanceExpired > 0.
 */
export function chargedExpiredAcceptances(db: Db, campaignId: string, now: number): ChargedTotal[] {
  // Added as integers per number of decimals in SQLite, as the tallies are (a JavaScript aggregate
  // called per row took twice as long at 30,000 rows); the texts themselves only when too long.
  const sums = statement(
    db,
    `SELECT charged_currency AS currency,
        CASE instr(charged_text, '.') WHEN 0 THEN 0 ELSE length(charged_text) - instr(charged_text, '.') END AS scale,
        sum(CASE WHEN length(charged_text) <= 18 THEN CAST(replace(charged_text, '.', '') AS INTEGER) ELSE 0 END) AS units,
        sum(length(charged_text) > 18) AS oversized,
        typeof(sum(CASE WHEN length(charged_text) <= 18 THEN CAST(replace(charged_text, '.', '') AS INTEGER) ELSE 0 END)) AS kind
      FROM recipients WHERE ${EXPIRED_ACCEPTANCE_SQL} AND charged_text IS NOT NULL
      GROUP BY currency, scale ORDER BY currency, scale`,
  )
    .safeIntegers(true)
    .all({ campaignId, now });
  return scaledSums(parseRows(chargeTallyRow, 'recipients', sums)) ?? chargedTextTotals(db, EXPIRED_ACCEPTANCE_SQL, { campaignId, now });
}

/**
 * The currency the service issued earlier orders of this product in (else of products of this
 * country) on this environment and address: the default for a product whose record states none.
 */
export function learnedCurrency(
  db: Db,
  where: { environment: Environment; baseUrl: string; productId: number; country: string | null },
): string | null {
  const raw = statement(
    db,
    `SELECT r.issued_currency FROM campaigns c JOIN recipients r ON r.campaign_id = c.id
      WHERE c.environment = ? AND c.base_url = ? AND r.issued_currency IS NOT NULL
        AND (c.product_id = ? OR (? IS NOT NULL AND json_extract(c.product_snapshot, '$.countryCode') = ?))
      ORDER BY c.product_id = ? DESC, r.ordered_at DESC LIMIT 1`,
  )
    .pluck()
    .get(where.environment, where.baseUrl, where.productId, where.country, where.country, where.productId);
  return typeof raw === 'string' && isCurrencyCode(raw.toUpperCase()) ? raw.toUpperCase() : null;
}

/** Face value of the campaign's rows in the given states, per product currency (e.g. what is left to send). */
export function faceValueTotals(db: Db, campaignId: string, states: readonly RowState[]): Money[] {
  const raws = statement(
    db,
    `SELECT currency, sum(amount_minor) AS minor FROM recipient_tallies
      WHERE campaign_id = ? AND state IN (SELECT value FROM json_each(?)) AND currency <> ''
      GROUP BY currency HAVING sum(priced) > 0 ORDER BY currency`,
  ).all(campaignId, JSON.stringify(states));
  return parseRows(totalRow, 'recipient_tallies', raws);
}

/**
 * The rows of each kind a follow-up campaign may take (shared/domain/follow-up.ts): failed,
 * cancelled, and expired acceptances (EXPIRED_ACCEPTANCE_SQL), none an earlier follow-up took
 * (followed_up_in, set when one takes it). The one definition, for
 * the follow-up itself, the counts the campaign screen shows and the retry (a failed row a retry
 * puts back is exactly a failed row a follow-up may take). Parameters @campaignId and @now. Each
 * kind reads only its own rows: through (campaign_id, state), or the partial index of ordered rows
 * by acceptance expiry.
 */
export const FOLLOW_UP_ROWS_SQL: Readonly<Record<FollowUpKind, string>> = {
  failed: `campaign_id = @campaignId AND state = 'failed' AND ${NOT_FOLLOWED_UP_SQL}`,
  cancelled: `campaign_id = @campaignId AND state = 'cancelled' AND ${NOT_FOLLOWED_UP_SQL}`,
  expired: `${EXPIRED_ACCEPTANCE_SQL} AND ${NOT_FOLLOWED_UP_SQL}`,
};

/**
 * The rows a follow-up campaign may take, in file order (the caller decides each row's kind with
 * followUpKindOf). One OR of the kinds' conditions, each read through its index.
 */
export function listFollowUpCandidates(db: Db, campaignId: string, now: number): Recipient[] {
  const where = FOLLOW_UP_KINDS.map((k) => `(${FOLLOW_UP_ROWS_SQL[k]})`).join(' OR ');
  return parseRecipients(statement(db, `SELECT * FROM recipients WHERE ${where} ORDER BY line, id`).all({ campaignId, now }));
}

const followUpCountsRow = z.record(z.enum(FOLLOW_UP_KINDS), z.number().int());

/** How many rows of each kind a follow-up campaign would take at `now` (listFollowUpCandidates's rows, counted). */
export function countFollowUpCandidates(db: Db, campaignId: string, now: number): Record<FollowUpKind, number> {
  const columns = FOLLOW_UP_KINDS.map((k) => `(SELECT count(*) FROM recipients WHERE ${FOLLOW_UP_ROWS_SQL[k]}) AS ${k}`).join(', ');
  return parseRow(followUpCountsRow, 'recipients', statement(db, `SELECT ${columns}`).get({ campaignId, now }));
}

const followedUpRow = z.object({ id: z.string(), name: z.string(), rows: z.number().int() });

/**
 * The follow-up campaigns that took failed rows of this campaign, each with how many, in the order
 * they took them: what the campaign says instead of "retry the failed rows" once they are gone.
 * Reads the campaign's failed rows only, through (campaign_id, state).
 */
export function failedRowsFollowedUp(db: Db, campaignId: string): { id: string; name: string; rows: number }[] {
  const raws = statement(
    db,
    `SELECT r.followed_up_in AS id, c.name AS name, count(*) AS rows
       FROM recipients r JOIN campaigns c ON c.id = r.followed_up_in
      WHERE r.campaign_id = ? AND r.state = 'failed' AND r.followed_up_in IS NOT NULL
      GROUP BY r.followed_up_in ORDER BY min(r.id)`,
  ).all(campaignId);
  return parseRows(followedUpRow, 'recipients', raws);
}

const failedReasonRow = z.object({ answer: z.string(), message: z.string(), rows: z.number().int() });

/**
 * Why the failed rows a retry would put back (FOLLOW_UP_ROWS_SQL.failed) failed, grouped by the
 * service's answer: a refusal is stored as "MESSAGE (HTTP 402 CODE)" (send-outcome.ts rejectionText),
 * and rows refused alike differ only in their message's figures ("the order costs USD 25.00 …"), so
 * they are grouped by the "(HTTP …)" part, each group with one row's message (its first row's). A
 * stored text without one (an older form) is its own group, `answer` null. The largest groups first,
 * at most `limit`. Reads the campaign's failed rows only, through (campaign_id, state).
 */
export function failedRowReasons(db: Db, campaignId: string, limit = 3): { answer: string | null; message: string; rows: number }[] {
  const raws = statement(
    db,
    `SELECT answer, rows, coalesce((SELECT last_error FROM recipients WHERE id = first), '') AS message
       FROM (SELECT CASE WHEN instr(coalesce(last_error, ''), ' (HTTP ') > 0 THEN substr(last_error, instr(last_error, ' (HTTP ')) ELSE coalesce(last_error, '') END AS answer,
                    count(*) AS rows, min(id) AS first
               FROM recipients WHERE ${FOLLOW_UP_ROWS_SQL.failed} GROUP BY 1)
      ORDER BY rows DESC, first LIMIT @limit`,
  ).all({ campaignId, limit });
  return parseRows(failedReasonRow, 'recipients', raws).map(({ answer, message, rows }) => {
    const http = /^ \((HTTP \d{3}[^)]*)\)$/.exec(answer);
    if (!http?.[1]) return { answer: null, message: message.trim(), rows };
    return { answer: http[1], message: message.slice(0, message.length - answer.length).trim(), rows };
  });
}

/**
 * The follow-up campaigns that took ordered rows of this campaign whose acceptance link expired by
 * `now` (EXPIRED_ACCEPTANCE_SQL), each with how many, in the order they took them: what `status`
 * says of those links instead of "follow them up". Through the partial index of ordered rows by expiry.
 */
export function expiredAcceptancesFollowedUp(db: Db, campaignId: string, now: number): { id: string; name: string; rows: number }[] {
  const raws = statement(
    db,
    `SELECT f.id AS id, c.name AS name, f.rows AS rows
       FROM (SELECT followed_up_in AS id, count(*) AS rows, min(id) AS first FROM recipients
              WHERE ${EXPIRED_ACCEPTANCE_SQL} AND followed_up_in IS NOT NULL GROUP BY followed_up_in) f
       JOIN campaigns c ON c.id = f.id
      ORDER BY f.first`,
  ).all({ campaignId, now });
  return parseRows(followedUpRow, 'recipients', raws);
}

/** Each follow-up kind's rows, taken or not: FOLLOW_UP_ROWS_SQL without its "not followed up". */
const FOLLOW_UP_KIND_SQL: Readonly<Record<FollowUpKind, string>> = {
  failed: `campaign_id = @campaignId AND state = 'failed'`,
  cancelled: `campaign_id = @campaignId AND state = 'cancelled'`,
  expired: EXPIRED_ACCEPTANCE_SQL,
};

/**
 * The follow-up campaigns that took rows of these kinds from this campaign, each with how many, in
 * the order they took them: what a follow-up asked for rows already taken says, instead of "none".
 */
export function rowsFollowedUp(db: Db, campaignId: string, kinds: readonly FollowUpKind[], now: number): { id: string; name: string; rows: number }[] {
  if (kinds.length === 0) return [];
  const where = FOLLOW_UP_KINDS.filter((k) => kinds.includes(k)).map((k) => `(${FOLLOW_UP_KIND_SQL[k]})`).join(' OR ');
  const raws = statement(
    db,
    `SELECT f.id AS id, c.name AS name, f.rows AS rows
       FROM (SELECT followed_up_in AS id, count(*) AS rows, min(id) AS first FROM recipients
              WHERE (${where}) AND followed_up_in IS NOT NULL GROUP BY followed_up_in) f
       JOIN campaigns c ON c.id = f.id
      ORDER BY f.first`,
  ).all({ campaignId, now });
  return parseRows(followedUpRow, 'recipients', raws);
}

/** Every row of a campaign, in file order (line, then import order). */
export function listCampaignRows(db: Db, campaignId: string): Recipient[] {
  return parseRecipients(statement(db, 'SELECT * FROM recipients WHERE campaign_id = ? ORDER BY line, id').all(campaignId));
}

/** Rows of a campaign in one state, oldest first; `afterId` pages on (tests and benches read rows by state here). */
export function listByState(
  db: Db,
  campaignId: string,
  state: RowState,
  opts: { limit?: number; afterId?: number } = {},
): Recipient[] {
  const raws = statement(
    db,
    'SELECT * FROM recipients WHERE campaign_id = ? AND state = ? AND id > ? ORDER BY id LIMIT ?',
  ).all(campaignId, state, opts.afterId ?? 0, opts.limit ?? -1);
  return parseRecipients(raws);
}

const sendRow = sendColumns.transform(sendRowOf);

/**
 * Ready rows of a campaign in import order, `afterId` paging on, with only what an order needs:
 * the send queue reads every row of a campaign here, and a whole row (its CSV cells as JSON,
 * its findings) costs several times more to read and check.
 */
export function listReadyToSend(db: Db, campaignId: string, opts: { limit: number; afterId?: number }): SendRow[] {
  const raws = statement(
    db,
    `SELECT id, line, name, email, amount_minor, currency, message, external_reference_id, source, product_id FROM recipients
      WHERE campaign_id = ? AND state = 'ready' AND id > ? ORDER BY id LIMIT ?`,
  ).all(campaignId, opts.afterId ?? 0, opts.limit);
  return parseRows(sendRow, 'recipients', raws);
}

/** One row as the send queue builds its order from it, or null when it is no longer ready. */
export function readyRowToSend(db: Db, rowId: number): SendRow | null {
  const raw = statement(
    db,
    `SELECT id, line, name, email, amount_minor, currency, message, external_reference_id, source, product_id FROM recipients
      WHERE id = ? AND state = 'ready'`,
  ).get(rowId);
  return raw === undefined ? null : parseRow(sendRow, 'recipients', raw);
}


/**
 * Rows whose POST may have left without a recorded outcome (state 'sending'), for reconciliation
 * after a restart: of one campaign, of one environment, or all of them.
 */
export function listSendingRows(db: Db, where: { campaignId?: string; environment?: Environment } = {}): Recipient[] {
  const raws = statement(
    db,
    `SELECT r.* FROM recipients r JOIN campaigns c ON c.id = r.campaign_id
      WHERE r.state = 'sending' AND (? IS NULL OR r.campaign_id = ?) AND (? IS NULL OR c.environment = ?)
      ORDER BY r.id`,
  ).all(where.campaignId ?? null, where.campaignId ?? null, where.environment ?? null, where.environment ?? null);
  return parseRecipients(raws);
}

/** An ordered row as a poll round needs it: its order, what the service last said, what it asked. */
export interface TrackedOrder {
  readonly id: number;
  readonly campaignId: string;
  readonly line: number;
  readonly orderId: number;
  readonly orderStatus: string | null;
  readonly itemStatus: string | null;
  readonly acceptanceExpiry: number | null;
  readonly requestBody: string | null;
  /**
   * No charge recorded (its answer did not state the item's price and its confirmation from the
   * record was cut short): a poll reads the order's own record for it unless a list entry states it.
   */
  readonly uncharged: boolean;
  /** It has findings (a poll may withdraw one a later record answers: clearUnstatedPrice). */
  readonly flagged: boolean;
}

const trackedOrderRow = z.object({
  id: z.number().int(),
  campaign_id: z.string(),
  line: z.number().int(),
  order_id: z.number().int(),
  order_status: z.string().nullable(),
  item_status: z.string().nullable(),
  acceptance_expiry: timestamp.nullable(),
  request_body: z.string().nullable(),
  uncharged: z.union([z.literal(0), z.literal(1)]),
  flagged: z.union([z.literal(0), z.literal(1)]),
});

export interface TrackedScope {
  readonly environment: Environment;
  readonly baseUrl: string;
  /** Only this campaign's rows; all of the environment's at that address otherwise. */
  readonly campaignId?: string | undefined;
}

const TRACKED_WHERE = `FROM campaigns c JOIN recipients r ON r.campaign_id = c.id AND r.state = 'ordered' AND r.order_id IS NOT NULL
  WHERE c.environment = @environment AND c.base_url = @baseUrl AND (@campaignId IS NULL OR c.id = @campaignId)`;

/**
 * The rows of a scope with an order not yet settled (delivered or cancelled), oldest first, with only
 * the columns a poll round reads: a round reads every one, so each costs as little as it can.
 */
export function listTrackedOrders(db: Db, scope: TrackedScope): TrackedOrder[] {
  const raws = statement(
    db,
    `SELECT r.id, r.campaign_id, r.line, r.order_id, r.order_status, r.item_status, r.acceptance_expiry, r.request_body,
        (r.charged_minor IS NULL AND r.charged_text IS NULL) AS uncharged, (r.discrepancies IS NOT NULL) AS flagged
      ${TRACKED_WHERE} ORDER BY r.id`,
  ).all({ environment: scope.environment, baseUrl: scope.baseUrl, campaignId: scope.campaignId ?? null });
  return parseRows(trackedOrderRow, 'recipients', raws).map((r) => ({
    id: r.id,
    campaignId: r.campaign_id,
    line: r.line,
    orderId: r.order_id,
    orderStatus: r.order_status,
    itemStatus: r.item_status,
    acceptanceExpiry: r.acceptance_expiry,
    requestBody: r.request_body,
    uncharged: r.uncharged === 1,
    flagged: r.flagged === 1,
  }));
}

/** A row whose order the service made, as a witness of how far back the service's order list reaches. */
export interface OrderWitness {
  readonly campaignId: string;
  readonly line: number;
  readonly externalReferenceId: string;
  readonly orderId: number;
  /** When its first POST left (sent_at). */
  readonly sentAt: number;
  /**
   * When its order was recorded here (ordered_at): the service had made it by then (maybe long after
   * the first POST: a row carried over and re-POSTed at a later resume), so a list that shows it
   * reaches back at least that far. Its first send says nothing of that.
   */
  readonly orderedAt: number;
}

const orderWitnessRow = z.object({
  campaign_id: z.string(),
  line: z.number().int(),
  external_reference_id: z.string(),
  order_id: z.number().int(),
  sent_at: timestamp,
  ordered_at: timestamp,
});

/**
 * newestOrderRecordedBy's statement. Each campaign of the service gives its newest such row from the
 * index recipients_campaign_ordered (schema 13), and the newest of those wins: a few index reads,
 * however many rows are stored. Parameters @environment, @baseUrl, @at, @except (a JSON array of ids).
 */
export const WITNESS_SQL = `SELECT r.campaign_id, r.line, r.external_reference_id, r.order_id, r.sent_at, r.ordered_at
  FROM campaigns c JOIN recipients r ON r.id = (
    SELECT n.id FROM recipients n
      WHERE n.campaign_id = c.id AND n.order_id IS NOT NULL AND n.sent_at IS NOT NULL AND n.ordered_at <= @at
      ORDER BY n.ordered_at DESC, n.id DESC LIMIT 1)
  WHERE c.environment = @environment AND c.base_url = @baseUrl AND c.id NOT IN (SELECT value FROM json_each(@except))
  ORDER BY r.ordered_at DESC, r.id DESC LIMIT 1`;

/**
 * The row of a service (environment and address) whose order was recorded last at or before `at`
 * (so made no later than `at`), of any campaign but `exceptCampaigns` and whatever became of the
 * order since; null when none was.
 */
export function newestOrderRecordedBy(
  db: Db,
  where: { environment: Environment; baseUrl: string },
  at: number,
  exceptCampaigns: readonly string[] = [],
): OrderWitness | null {
  const raw = statement(db, WITNESS_SQL).get({ environment: where.environment, baseUrl: where.baseUrl, at, except: JSON.stringify(exceptCampaigns) });
  if (raw === undefined) return null;
  const r = parseRow(orderWitnessRow, 'recipients', raw);
  return { campaignId: r.campaign_id, line: r.line, externalReferenceId: r.external_reference_id, orderId: r.order_id, sentAt: r.sent_at, orderedAt: r.ordered_at };
}

/** Whether the scope has any order not yet settled: whether it needs polling at all. */
export function hasTrackedOrders(db: Db, scope: TrackedScope): boolean {
  return (
    statement(db, `SELECT 1 ${TRACKED_WHERE} LIMIT 1`)
      .pluck()
      .get({ environment: scope.environment, baseUrl: scope.baseUrl, campaignId: scope.campaignId ?? null }) !== undefined
  );
}

/** When the newest order still being tracked (an `ordered` row) was placed, on one service; null when none is. */
export function newestTrackedOrderAt(db: Db, where: { environment: Environment; baseUrl: string; campaignId?: string }): number | null {
  const raw = statement(
    db,
    `SELECT max(r.ordered_at) FROM campaigns c JOIN recipients r ON r.campaign_id = c.id AND r.state = 'ordered'
      WHERE c.environment = ? AND c.base_url = ? AND (? IS NULL OR c.id = ?)`,
  )
    .pluck()
    .get(where.environment, where.baseUrl, where.campaignId ?? null, where.campaignId ?? null);
  return typeof raw === 'number' ? raw : null;
}

export interface RecipientPage {
  readonly rows: Recipient[];
  /** Rows matching the filter, for the pager. */
  readonly total: number;
}

/**
 * One page of a campaign's rows for the table view, in import order, optionally only some states,
 * and optionally only rows whose name, e-mail, key or order id contains `search` (case-insensitive).
 */
export function pageRecipients(
  db: Db,
  campaignId: string,
  opts: { offset?: number; limit?: number; states?: readonly RowState[]; search?: string; ids?: readonly number[]; held?: boolean } = {},
): RecipientPage {
  const states = opts.states && opts.states.length > 0 ? JSON.stringify(opts.states) : null;
  // An empty list of ids names no row (unlike no list, which names every one).
  const ids = opts.ids ? JSON.stringify(opts.ids) : null;
  const search = opts.search?.trim() ? `%${opts.search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = `campaign_id = @campaignId
    AND (@states IS NULL OR state IN (SELECT value FROM json_each(@states)))
    AND (@ids IS NULL OR id IN (SELECT value FROM json_each(@ids)))
    AND (@held IS NULL OR (${HELD_ROW_SQL}))
    AND (@search IS NULL OR name LIKE @search ESCAPE '\\' OR email LIKE @search ESCAPE '\\'
         OR external_reference_id LIKE @search ESCAPE '\\' OR CAST(order_id AS TEXT) LIKE @search ESCAPE '\\')`;
  const filter = { campaignId, states, search, ids, held: opts.held ? 1 : null };
  const raws = statement(db, `SELECT * FROM recipients WHERE ${where} ORDER BY id LIMIT @limit OFFSET @offset`).all({
    ...filter,
    limit: opts.limit ?? 100,
    offset: opts.offset ?? 0,
  });
  const total = statement(db, `SELECT count(*) FROM recipients WHERE ${where}`).pluck().get(filter);
  return { rows: parseRecipients(raws), total: z.number().int().parse(total) };
}

// SQLite's lower() folds ASCII letters only, the domain's emailKey every letter. An address of
// printable ASCII compares by the lower(email) index; one with other characters (few) is compared by
// emailKey over the addresses that match BEYOND_ASCII.
const sqlFoldsCase = (text: string): boolean => /^[ -~]*$/.test(text);
const BEYOND_ASCII = `'*[^ -~]*'`;

/**
 * A source row that this campaign follows up (followed_up_in names it: an expired link, a cancelled
 * order) is the gift this campaign replaces, chosen as such when the follow-up was made: it is not
 * a second gift to confirm. Any other campaign's gift to the same person still counts.
 */
const NOT_REPLACED_BY_THIS = '(o.followed_up_in IS NULL OR o.followed_up_in <> @campaignId)';

/**
 * Ready rows of a campaign whose recipient already has (or may have) a gift from another campaign of
 * the same environment (less the rows it follows up): how many, and the first lines. One query over the e-mail index.
 */
export function repeatRecipientLines(db: Db, campaignId: string, environment: Environment, first = 10): { count: number; lines: number[] } {
  const params = { campaignId, environment, hasAGift: JSON.stringify(HAS_A_GIFT) };
  // SQLite's lower() folds ASCII letters only: the index-friendly query finds every repeat whose
  // addresses differ at most in ASCII case; addresses with other letters are compared here with
  // the domain's own key (emailKey: every letter folded). Those are few.
  const raws = statement(
    db,
    `SELECT r.line FROM recipients r
      WHERE r.campaign_id = @campaignId AND r.state = 'ready' AND r.email IS NOT NULL
        AND lower(r.email) IN (
          SELECT lower(o.email) FROM recipients o JOIN campaigns c ON c.id = o.campaign_id
           WHERE c.environment = @environment AND o.campaign_id <> @campaignId AND o.email IS NOT NULL
             AND o.state IN (SELECT value FROM json_each(@hasAGift)) AND ${NOT_REPLACED_BY_THIS})
      ORDER BY r.line`,
  )
    .pluck()
    .all(params);
  const found = new Set(z.array(z.number().int()).parse(raws));
  const wide = (sql: string) => parseRows(z.object({ line: z.number().int(), email: z.string() }), 'recipients', statement(db, sql).all(params));
  const mine = wide(`SELECT line, email FROM recipients WHERE campaign_id = @campaignId AND state = 'ready' AND email GLOB ${BEYOND_ASCII}`);
  if (mine.length > 0) {
    const gifted = new Set(
      wide(
        `SELECT 0 AS line, o.email FROM recipients o JOIN campaigns c ON c.id = o.campaign_id
          WHERE c.environment = @environment AND o.campaign_id <> @campaignId AND o.email GLOB ${BEYOND_ASCII}
            AND o.state IN (SELECT value FROM json_each(@hasAGift)) AND ${NOT_REPLACED_BY_THIS}`,
      ).flatMap((o) => emailKey(o.email) ?? []),
    );
    for (const r of mine) {
      const key = emailKey(r.email);
      if (key !== null && gifted.has(key)) found.add(r.line);
    }
  }
  const lines = [...found].sort((a, b) => a - b);
  return { count: lines.length, lines: lines.slice(0, first) };
}

/**
 * The campaign's rows whose address may be `email` in another case, for a one-row duplicate check:
 * by the lower(email) index (SQLite folds ASCII case only), or, for an address with other letters,
 * every addressed row of the campaign, for the caller to compare by its own key.
 */
export function rowsWithEmailLike(db: Db, campaignId: string, email: string): { id: number; line: number; email: string }[] {
  const raws = sqlFoldsCase(email)
    ? statement(db, 'SELECT id, line, email FROM recipients WHERE campaign_id = ? AND lower(email) = lower(?)').all(campaignId, email)
    : statement(db, 'SELECT id, line, email FROM recipients WHERE campaign_id = ? AND email IS NOT NULL').all(campaignId);
  return parseRows(z.object({ id: z.number().int(), line: z.number().int(), email: z.string() }), 'recipients', raws);
}

/**
 * Whether `key` (an address's comparison key) is among `usedEmails(db, environment, { excludeCampaignId })`,
 * asked for one address by the lower(email) index instead of reading the set.
 */
export function isUsedEmail(db: Db, environment: Environment, key: string, excludeCampaignId: string): boolean {
  const params = [environment, excludeCampaignId, JSON.stringify(HAS_A_GIFT)];
  // An ASCII key by the lower(email) index (SQLite folds ASCII case only); any other by the domain's
  // key over the addresses that have other letters (few).
  if (sqlFoldsCase(key)) {
    return (
      statement(
        db,
        `SELECT 1 FROM recipients r JOIN campaigns c ON c.id = r.campaign_id
          WHERE lower(r.email) = ? AND c.environment = ? AND c.id IS NOT ? AND r.state IN (SELECT value FROM json_each(?)) LIMIT 1`,
      )
        .pluck()
        .get(key, ...params) !== undefined
    );
  }
  const wide = statement(
    db,
    `SELECT r.email FROM recipients r JOIN campaigns c ON c.id = r.campaign_id
      WHERE r.email GLOB ${BEYOND_ASCII} AND c.environment = ? AND c.id IS NOT ? AND r.state IN (SELECT value FROM json_each(?))`,
  )
    .pluck()
    .all(...params);
  return z.array(z.string()).parse(wide).some((email) => emailKey(email) === key);
}

/**
 * E-mail addresses (by their comparison key, emailKey) that already have (or may have) a gift in another campaign of the
 * same environment, to warn before the same person is sent a second one. By default a row counts
 * once its POST may have left and was not cancelled (HAS_A_GIFT).
 */
export function usedEmails(
  db: Db,
  environment: Environment,
  opts: { excludeCampaignId?: string; states?: readonly RowState[] } = {},
): Set<string> {
  const raws = statement(
    db,
    `SELECT DISTINCT r.email FROM campaigns c JOIN recipients r ON r.campaign_id = c.id
      WHERE c.environment = ? AND c.id IS NOT ? AND r.email IS NOT NULL
        AND r.state IN (SELECT value FROM json_each(?))`,
  )
    .pluck()
    .all(environment, opts.excludeCampaignId ?? null, JSON.stringify(opts.states ?? HAS_A_GIFT));
  // Compared by the domain's key (every letter folded; SQLite's lower() folds only ASCII).
  const keys = new Set<string>();
  for (const email of z.array(z.string()).parse(raws)) keys.add(emailKey(email) ?? email.toLowerCase());
  return keys;
}

/**
 * People the campaign would give more than one gift: addresses on more than one of its rows that
 * are ready or have a gift, at least one of them still to send. `rows`: the gifts beyond the first
 * per person. Grouped in SQL by lower() for ASCII addresses; the few with other letters by emailKey.
 */
export function repeatsInCampaign(db: Db, campaignId: string): { people: number; rows: number } {
  const params = { campaignId, states: JSON.stringify(['ready', ...HAS_A_GIFT]) };
  const ascii = z.object({ people: z.number().int(), rows: z.number().int().nullable() }).parse(
    statement(
      db,
      `SELECT count(*) AS people, sum(n - 1) AS rows FROM (
         SELECT lower(email) AS address, count(*) AS n, sum(state = 'ready') AS toSend FROM recipients
          WHERE campaign_id = @campaignId AND email IS NOT NULL AND NOT email GLOB ${BEYOND_ASCII}
            AND state IN (SELECT value FROM json_each(@states))
          GROUP BY address HAVING n > 1 AND toSend > 0)`,
    ).get(params),
  );
  const wide = parseRows(
    z.object({ email: z.string(), state: z.enum(ROW_STATES) }),
    'recipients',
    statement(
      db,
      `SELECT email, state FROM recipients WHERE campaign_id = @campaignId AND email GLOB ${BEYOND_ASCII}
        AND state IN (SELECT value FROM json_each(@states))`,
    ).all(params),
  );
  const groups = new Map<string, { n: number; toSend: number }>();
  for (const { email, state } of wide) {
    const key = emailKey(email) ?? email;
    const group = groups.get(key) ?? { n: 0, toSend: 0 };
    group.n += 1;
    if (state === 'ready') group.toSend += 1;
    groups.set(key, group);
  }
  let people = ascii.people;
  let rows = ascii.rows ?? 0;
  for (const group of groups.values()) {
    if (group.n > 1 && group.toSend > 0) {
      people += 1;
      rows += group.n - 1;
    }
  }
  return { people, rows };
}

/**
 * The rows about to be sent (ready and sending) per product they are ordered as (schema 7: null is
 * the campaign's own), with their face value per currency: what the pre-flight checks and the
 * confirmation shows. One grouped read of those rows.
 */
export function toSendByProduct(db: Db, campaignId: string): { productId: number | null; rows: number; totals: Money[] }[] {
  const raws = statement(
    db,
    `SELECT product_id, currency, count(*) AS rows, sum(amount_minor) AS minor FROM recipients
      WHERE campaign_id = ? AND state IN ('ready', 'sending') GROUP BY product_id, currency ORDER BY product_id, currency`,
  ).all(campaignId);
  const groups = new Map<number | null, { rows: number; totals: Money[] }>();
  for (const r of z.array(z.object({ product_id: z.number().int().nullable(), currency: currencyCode.nullable(), rows: z.number().int(), minor: z.number().int().nullable() })).parse(raws)) {
    const group = groups.get(r.product_id) ?? { rows: 0, totals: [] };
    group.rows += r.rows;
    if (r.currency !== null && r.minor !== null) group.totals.push({ currency: r.currency, minor: r.minor });
    groups.set(r.product_id, group);
  }
  return [...groups].map(([productId, g]) => ({ productId, rows: g.rows, totals: g.totals }));
}
