// Progress events arrive in batches and can outpace a screen. They are merged here: the newest
// summary per campaign wins, changed row ids are unioned, finished notices are kept in order.
import type { CampaignSummary, EventPayload } from '../../../shared/contract.ts';

export interface ProgressBatch {
  summaries: Map<string, CampaignSummary>;
  changedRowIds: Map<string, Set<number>>;
  /** Each run's end, with the campaign as it ended (how to announce it depends on why). */
  finished: Array<{ campaignId: string; message: string; campaign: CampaignSummary }>;
}

export type ProgressItem =
  | { kind: 'progress'; payload: EventPayload<'campaign:progress'> }
  | { kind: 'finished'; payload: EventPayload<'campaign:finished'> };

export function emptyBatch(): ProgressBatch {
  return { summaries: new Map(), changedRowIds: new Map(), finished: [] };
}

export function mergeProgress(batch: ProgressBatch, item: ProgressItem): ProgressBatch {
  const campaign = item.payload.campaign;
  // One channel delivers events in order: the last summary is the current one.
  batch.summaries.set(campaign.id, campaign);
  if (item.kind === 'progress') {
    let ids = batch.changedRowIds.get(campaign.id);
    if (!ids) {
      ids = new Set();
      batch.changedRowIds.set(campaign.id, ids);
    }
    for (const id of item.payload.changedRowIds) ids.add(id);
  } else {
    batch.finished.push({ campaignId: campaign.id, message: item.payload.message, campaign });
  }
  return batch;
}
