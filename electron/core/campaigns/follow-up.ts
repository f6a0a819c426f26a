// Follow-up campaigns (issue 13): from a campaign, a new draft campaign with the rows that failed,
// whose orders were cancelled, or whose acceptance link expired (shared/domain/follow-up.ts), each
// carrying its data (name, e-mail, amount, message, source cells) to the same environment, product
// and sender. Every new row gets a NEW key: it is a new gift, sent the usual way (pre-flight,
// confirmation). The source's rows are not touched. Read, checked and stored in one transaction,
// which also records in both campaigns' events which followed which.
import { FOLLOW_UP_KINDS, FOLLOW_UP_WORDS, followUpKindOf, followUpRowsText, type FollowUpKind } from '../../../shared/domain/follow-up.ts';
import { validateRows } from '../../../shared/domain/validation.ts';
import type { Db } from '../db/open.ts';
import { statement } from '../db/statements.ts';
import { campaignProducts, createCampaign, getCampaign, type Campaign, type CreatedCampaign } from '../db/repos/campaigns.ts';
import { appendEvent } from '../db/repos/events.ts';
import { listFollowUpCandidates, rowsFollowedUp, usedEmails, type NewRecipient, type Recipient } from '../db/repos/recipients.ts';
import { campaignChecks, storedRowInput, storedValues } from './stored-rows.ts';

/** Why no follow-up campaign was made (nothing to follow up, nothing chosen): the person's words. */
export class FollowUpError extends Error {
  override readonly name = 'FollowUpError';
}

export interface FollowUpRequest {
  readonly campaignId: string;
  readonly include: readonly FollowUpKind[];
  /** The new campaign's name; "<source name> (follow-up)" when absent or blank. */
  readonly name?: string | null | undefined;
}

export type FollowUpCounts = Record<FollowUpKind, number>;

export interface FollowUpResult extends CreatedCampaign {
  readonly sourceId: string;
  /** How many rows of each kind the new campaign took. */
  readonly carried: FollowUpCounts;
}

const MAX_NAME = 200;
const SUFFIX = ' (follow-up)';

export function followUpName(source: Pick<Campaign, 'name'>, name?: string | null): string {
  const chosen = name?.trim();
  if (chosen) return chosen.slice(0, MAX_NAME);
  return `${source.name.slice(0, MAX_NAME - SUFFIX.length)}${SUFFIX}`;
}

/** The campaign's rows of each follow-up kind at `now`, in file order. */
export function followUpRows(db: Db, campaignId: string, now: number): Map<FollowUpKind, Recipient[]> {
  const byKind = new Map<FollowUpKind, Recipient[]>(FOLLOW_UP_KINDS.map((k) => [k, []]));
  for (const row of listFollowUpCandidates(db, campaignId, now)) {
    const kind = followUpKindOf(row, now);
    if (kind) byKind.get(kind)?.push(row);
  }
  return byKind;
}

const countsOf = (byKind: Map<FollowUpKind, readonly Recipient[]>): FollowUpCounts => ({
  failed: byKind.get('failed')?.length ?? 0,
  cancelled: byKind.get('cancelled')?.length ?? 0,
  expired: byKind.get('expired')?.length ?? 0,
});

/**
 * Where the rows of the kinds asked went, when follow-ups took them all:
 * "has no rows that failed" alone reads as wrong to a person who sees 2 failed rows on the campaign.
 */
function takenAlready(db: Db, source: Campaign, include: readonly FollowUpKind[], now: number): string | null {
  const campaigns = rowsFollowedUp(db, source.id, include, now);
  if (campaigns.length === 0) return null;
  const total = campaigns.reduce((sum, c) => sum + c.rows, 0);
  const each = campaigns.map(({ name, rows }) => `"${name}" (${rows})`);
  const where = campaigns.length === 1 ? `"${campaigns[0]?.name ?? ''}"` : `${each.slice(0, -1).join(', ')} and ${each.at(-1) ?? ''}`;
  return `${total === 1 ? 'the one it had was' : `the ${total} it had were`} followed up already, in ${where}`;
}

function nothingToFollowUp(db: Db, source: Campaign, include: readonly FollowUpKind[], counts: FollowUpCounts, now: number): FollowUpError {
  const others = FOLLOW_UP_KINDS.filter((k) => !include.includes(k) && counts[k] > 0).map((k) => `${counts[k]} row${counts[k] === 1 ? '' : 's'} ${FOLLOW_UP_WORDS[k]}`);
  const taken = takenAlready(db, source, include, now);
  return new FollowUpError(
    (taken === null
      ? `"${source.name}" has no ${followUpRowsText(include)}, so there is nothing to follow up and no campaign was made.`
      : `"${source.name}" has no ${followUpRowsText(include)} left to follow up: ${taken}. No campaign was made.`) +
      (others.length > 0 ? ` It has ${others.join(' and ')}: choose ${others.length === 1 ? 'that kind' : 'those kinds'} instead.` : ''),
  );
}

/**
 * Makes the follow-up campaign: a draft with the source's rows of the chosen kinds, each checked
 * again against the source's product snapshot (the import's validation) and given a new key.
 */
export function createFollowUp(db: Db, request: FollowUpRequest, now: number): FollowUpResult {
  const include = FOLLOW_UP_KINDS.filter((k) => request.include.includes(k));
  if (include.length === 0) throw new FollowUpError(`Choose which rows to follow up: ${FOLLOW_UP_KINDS.join(', ')}.`);
  return db.transaction((): FollowUpResult => {
    const source = getCampaign(db, request.campaignId);
    if (!source) throw new FollowUpError(`There is no campaign "${request.campaignId}" to follow up.`);
    const byKind = followUpRows(db, source.id, now);
    const chosen = include.flatMap((k) => byKind.get(k) ?? []).sort((a, b) => a.line - b.line || a.id - b.id);
    if (chosen.length === 0) throw nothingToFollowUp(db, source, include, countsOf(byKind), now);

    // Each row keeps its gift (schema 7): checked against its product as the source checked it.
    const products = campaignProducts(db, source);
    const checks = campaignChecks(source, products);
    const checked = validateRows(chosen.map(storedRowInput), checks.product, { ...checks.options, knownEmails: usedEmails(db, source.environment) });
    const rows: NewRecipient[] = checked.rows.map((v, i) => ({
      ...storedValues(v),
      line: v.line,
      source: chosen[i]?.source ?? null,
      productId: v.productId === source.productId ? null : v.productId,
    }));

    const created = createCampaign(
      db,
      {
        name: followUpName(source, request.name),
        environment: source.environment,
        baseUrl: source.baseUrl,
        productId: source.productId,
        product: source.product,
        senderName: source.senderName,
        message: source.message,
        defaultAmountMinor: source.defaultAmountMinor,
        currency: source.currency,
        otherProducts: [...products].filter(([id]) => rows.some((r) => r.productId === id)).map(([productId, product]) => ({ productId, product })),
        // Its rows came from a campaign that chooses a gift per row: so does it.
        giftPerRow: source.giftPerRow,
      },
      rows,
      now,
    );
    // The source's rows are sent from the follow-up now: never retried or followed up again there.
    const mark = statement(db, 'UPDATE recipients SET followed_up_in = ? WHERE id = ? AND followed_up_in IS NULL');
    for (const row of chosen) mark.run(created.campaign.id, row.id);
    const carried = countsOf(new Map(include.map((k) => [k, byKind.get(k) ?? []])));
    appendEvent(db, { campaignId: source.id, kind: 'followed-up', detail: { followUp: created.campaign.id, include, rows: carried } }, now);
    appendEvent(db, { campaignId: created.campaign.id, kind: 'follow-up-of', detail: { source: source.id, include, rows: carried } }, now);
    return { ...created, sourceId: source.id, carried };
  }).immediate();
}
