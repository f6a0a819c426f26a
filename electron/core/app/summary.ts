// A campaign as the list and the campaign screen show it: counts, charged and remaining totals per
// currency, whether it is being sent right now, and when the next poll round is due.
import type { CampaignSummary } from '../../../shared/contract.ts';
import { campaignCountry, getCampaign, getCampaignForOrders, productCount, type Campaign } from '../db/repos/campaigns.ts';
import { countRetryable } from '../db/repos/recipient-edits.ts';
import { chargedTotals, countByState, countExpiredAcceptances, countFlagged, faceValueTotals } from '../db/repos/recipients.ts';
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

export function summarize(deps: SummaryDeps, campaign: Campaign): CampaignSummary {
  const { db } = deps.engine;
  const now = deps.engine.clock.now();
  const counts = countByState(db, campaign.id);
  return {
    id: campaign.id,
    name: campaign.name,
    environment: campaign.environment,
    serviceUrl: campaign.baseUrl,
    productId: campaign.productId,
    productName: typeof campaign.product.name === 'string' ? campaign.product.name : null,
    products: productCount(db, campaign.id),
    currency: campaign.currency,
    sendState: campaign.sendState,
    pausedReason: campaign.pausedReason,
    pausedDetail: campaign.pausedDetail,
    running: deps.isRunning(campaign.id),
    counts,
    charged: chargedTotals(db, campaign.id),
    chargedCancelled: counts.cancelled > 0 ? chargedTotals(db, campaign.id, { states: ['cancelled'] }) : [],
    remaining: faceValueTotals(db, campaign.id, ['ready', 'sending']).map(moneyDto),
    createdAt: campaign.createdAt,
    nextPollAt: counts.ordered > 0 ? deps.nextPollAt(campaign) : null,
    acceptanceExpired: counts.ordered === 0 ? 0 : countExpiredAcceptances(db, campaign.id, now),
    flagged: countFlagged(db, campaign.id),
    // Read from the failed rows only, and only when some failed (counts come from the tallies).
    retryable: counts.failed === 0 ? 0 : countRetryable(db, campaign.id),
    countryCode: campaignCountry(campaign),
  };
}
