// A campaign as the list and the campaign screen show it: counts, charged and remaining totals per
// currency, whether it is being sent right now, and when the next poll round is due.
import type { CampaignSummary } from '../../../shared/contract.ts';
import { campaignCountry, campaignDefaultAmount, campaignProducts, getCampaign, getCampaignForOrders, usesOwnProduct, type Campaign } from '../db/repos/campaigns.ts';
import { pausedDetailNow } from '../campaigns/send-outcome.ts';
import {
  chargedExpiredAcceptances,
  chargedTotals,
  countByState,
  countExpiredAcceptances,
  countFlagged,
  countHeldRows,
  countUnchargedOrders,
  countFollowUpCandidates,
  expiredAcceptancesFollowedUp,
  failedRowReasons,
  failedRowsFollowedUp,
  faceValueTotals,
} from '../db/repos/recipients.ts';
import { CampaignNotFoundError, type Engine } from '../engine.ts';
import { moneyDto } from './dto.ts';

export interface SummaryDeps {
  engine: Engine;
  isRunning(campaignId: string): boolean;
  nextPollAt(campaign: Campaign): number | null;
}

export function campaignOrThrow(engine: Engine, campaignId: string): Campaign {
  const found = getCampaign(engine.db, campaignId);
  if (!found) throw new CampaignNotFoundError(campaignId, engine.dataDir);
  return found;
}

/** The campaign with the products its rows are ordered as (what row DTOs and edits need), or the not-found error. */
export function campaignWithProducts(engine: Engine, campaignId: string): NonNullable<ReturnType<typeof getCampaignForOrders>> {
  const found = getCampaignForOrders(engine.db, campaignId);
  if (!found) throw new CampaignNotFoundError(campaignId, engine.dataDir);
  return found;
}

/**
 * Whether each campaign's rows use its own product, as last read (usesOwnProduct). The read stops at
 * the first row that does; in a campaign whose rows all name other products it reads every row (13–34
 * ms at 100,000), so while the campaign is being sent (a summary every 100 ms, its rows' products
 * unchanged) the last answer is kept.
 */
const ownProductUse = new Map<string, boolean>();

function rowsUseOwnProduct(db: Engine['db'], campaign: Campaign, running: boolean): boolean {
  const known = ownProductUse.get(campaign.id);
  if (running && known !== undefined) return known;
  const used = usesOwnProduct(db, campaign);
  ownProductUse.set(campaign.id, used);
  return used;
}

export function summarize(deps: SummaryDeps, campaign: Campaign): CampaignSummary {
  const { db } = deps.engine;
  const now = deps.engine.clock.now();
  const running = deps.isRunning(campaign.id);
  const counts = countByState(db, campaign.id);
  // Expired acceptances, counted twice under one condition (recipients.ts EXPIRED_ACCEPTANCE_SQL):
  // every one (acceptanceExpired), and those a follow-up may still take (followUpRows.expired); the
  // difference is what follow-ups took. The first is read from the index alone.
  const acceptanceExpired = counts.ordered === 0 ? 0 : countExpiredAcceptances(db, campaign.id, now);
  // Read only when the campaign has rows of a follow-up kind (counts come from the tallies).
  const followUpRows =
    counts.failed + counts.cancelled + acceptanceExpired === 0 ? { failed: 0, cancelled: 0, expired: 0 } : countFollowUpCandidates(db, campaign.id, now);
  // The failed rows a retry puts back are the failed rows a follow-up may take: when fewer than failed, one took some.
  const failedFollowedUp = counts.failed > followUpRows.failed ? failedRowsFollowedUp(db, campaign.id) : [];
  // Likewise the expired acceptances: fewer to take than expired, a follow-up took some.
  const expiredFollowedUp = acceptanceExpired > followUpRows.expired ? expiredAcceptancesFollowedUp(db, campaign.id, now) : [];
  const defaultAmount = campaignDefaultAmount(campaign);
  // The products its rows use: its own is left out when it has others and no row uses it (a follow-up
  // of a gift per row whose rows are all another gift said "by default Harborline" and "2 products").
  const kept = campaignProducts(db, campaign);
  const products = kept.size > 1 && !rowsUseOwnProduct(db, campaign, running) ? new Map([...kept].filter(([id]) => id !== campaign.productId)) : kept;
  return {
    id: campaign.id,
    name: campaign.name,
    environment: campaign.environment,
    serviceUrl: campaign.baseUrl,
    productId: campaign.productId,
    productName: typeof campaign.product.name === 'string' ? campaign.product.name : null,
    products: products.size,
    productList: [...products].map(([productId, snapshot]) => ({ productId, name: typeof snapshot.name === 'string' ? snapshot.name : null })),
    giftPerRow: campaign.giftPerRow,
    currency: campaign.currency,
    sendState: campaign.sendState,
    pausedReason: campaign.pausedReason,
    pausedDetail: pausedDetailNow({ ...campaign, retryable: followUpRows.failed, left: counts.ready + counts.sending, failedFollowedUp }),
    running,
    counts,
    charged: chargedTotals(db, campaign.id),
    chargedCancelled: counts.cancelled > 0 ? chargedTotals(db, campaign.id, { states: ['cancelled'] }) : [],
    chargedExpired: acceptanceExpired > 0 ? chargedExpiredAcceptances(db, campaign.id, now) : [],
    remaining: faceValueTotals(db, campaign.id, ['ready', 'sending']).map(moneyDto),
    createdAt: campaign.createdAt,
    nextPollAt: counts.ordered > 0 ? deps.nextPollAt(campaign) : null,
    lastPolledAt: campaign.lastPolledAt,
    acceptanceExpired,
    flagged: countFlagged(db, campaign.id),
    unchargedOrders: counts.ordered === 0 ? 0 : countUnchargedOrders(db, campaign.id),
    // Read only when rows are left sending (counts come from the tallies): a held row is one of them.
    heldRows: counts.sending === 0 ? 0 : countHeldRows(db, campaign.id),
    retryable: followUpRows.failed,
    countryCode: campaignCountry(campaign),
    defaultAmount: defaultAmount === null ? null : moneyDto(defaultAmount),
    followUpRows,
    failedFollowedUp,
    expiredFollowedUp,
    // Not while it is being sent: no screen shows them then (the failed-rows banner waits for the end),
    // and grouping 100,000 failed rows takes ~66 ms, in a summary made every 100 ms.
    failedReasons: followUpRows.failed > 0 && !running ? failedRowReasons(db, campaign.id) : [],
  };
}
