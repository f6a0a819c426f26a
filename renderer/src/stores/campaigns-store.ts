// Every campaign with its state and totals, newest first; kept current by progress events.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { CampaignSummary } from '../../../shared/contract.ts';
import { settle, type StoreDeps, type UiError } from './deps.ts';

/** Why a resume did not start; `accountChanged`: the key set now is not the one the campaign was sent with. */
/** What a person confirmed in the resume dialog, beyond sending itself. */
export interface ResumeChoices {
  sameAccount?: boolean;
  allowRepeats?: boolean;
  /** The person found no order at the service under the keys of the rows paused as unconfirmed: send them again. */
  resendUnconfirmed?: boolean;
}

export function resumeFlags(choices: ResumeChoices): { sameAccount?: true; allowRepeats?: true; resendUnconfirmed?: true } {
  return {
    ...(choices.sameAccount ? { sameAccount: true } : {}),
    ...(choices.allowRepeats ? { allowRepeats: true } : {}),
    ...(choices.resendUnconfirmed ? { resendUnconfirmed: true } : {}),
  };
}

export function refusalOf(error: { code: string; message: string }): ResumeRefusal {
  return { text: error.message, accountChanged: error.code === 'account-changed', repeats: error.code === 'repeat-recipients' };
}

export interface ResumeRefusal {
  text: string;
  accountChanged: boolean;
  /** Only rows for recipients who already have a gift from this environment stand in the way. */
  repeats: boolean;
}

export interface CampaignsState {
  status: 'idle' | 'loading' | 'ready' | 'failed';
  error: UiError | null;
  campaigns: CampaignSummary[];
  load(): Promise<void>;
  applySummaries(summaries: readonly CampaignSummary[]): void;
  /** Sends what is left (after the person confirmed it); returns the error message, or null. */
  /** Null when it resumed; otherwise why not, and whether a confirmation that the key is the same account would do. */
  resume(campaignId: string, opts?: ResumeChoices): Promise<ResumeRefusal | null>;
}

export type CampaignsStore = StoreApi<CampaignsState>;

function newestFirst(a: CampaignSummary, b: CampaignSummary): number {
  return b.createdAt - a.createdAt || a.id.localeCompare(b.id);
}

/** The list with each summary replaced (or added) by id; untouched entries keep their identity. */
export function mergeSummaries(list: readonly CampaignSummary[], updates: readonly CampaignSummary[]): CampaignSummary[] {
  if (updates.length === 0) return [...list];
  const byId = new Map(updates.map((s) => [s.id, s]));
  const merged = list.map((s) => {
    const next = byId.get(s.id);
    if (next) byId.delete(s.id);
    return next ?? s;
  });
  return [...merged, ...byId.values()].sort(newestFirst);
}

export function createCampaignsStore(deps: StoreDeps): CampaignsStore {
  return createStore<CampaignsState>()((set, get) => ({
    status: 'idle',
    error: null,
    campaigns: [],

    async load() {
      if (get().status !== 'ready') set({ status: 'loading' });
      const result = await settle(deps.api['campaigns:list']({}));
      if (!result.ok) {
        set({ status: 'failed', error: result.error });
        return;
      }
      set({ status: 'ready', error: null, campaigns: [...result.value.campaigns].sort(newestFirst) });
    },

    applySummaries(summaries) {
      if (summaries.length === 0) return;
      set({ campaigns: mergeSummaries(get().campaigns, summaries) });
    },

    async resume(campaignId, opts = {}) {
      const totals = get().campaigns.find((c) => c.id === campaignId)?.remaining;
      const result = await settle(
        deps.api['campaigns:send']({ campaignId, confirmed: true, ...(totals ? { totals } : {}), ...resumeFlags(opts) }),
      );
      if (!result.ok) return refusalOf(result.error);
      get().applySummaries([result.value]);
      return null;
    },
  }));
}

/** What an interrupted campaign has done and what is left, for its flag in the list. */
export function interruptedSummary(c: CampaignSummary): { sent: number; left: number; progress: string } {
  // Sent: rows that got an order (a cancelled one too). A failed row was tried, not sent.
  const sent = c.counts.ordered + c.counts.delivered + c.counts.cancelled;
  const failed = c.counts.failed;
  const left = c.counts.ready + c.counts.sending;
  return { sent, left, progress: `${sent} sent${failed > 0 ? `, ${failed} failed` : ''}, ${left} left to send` };
}
