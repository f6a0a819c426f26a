// All stores of the app, created once with their dependencies, and the event channel wired to them
// through one coalescer so a burst of progress events renders at most ~10 times a second.
import type { CampaignSummary } from '../../../shared/contract.ts';
import type { Timers } from '../api/event-socket.ts';
import type { ClientApi } from '../api/create-api.ts';
import { createCoalescer } from '../lib/coalesce.ts';
import { createAppStore, type AppStore, type Notice, type ThemeChoice } from './app-store.ts';
import { createCampaignStore, type CampaignStore } from './campaign-store.ts';
import { createCampaignsStore, type CampaignsStore } from './campaigns-store.ts';
import { createEnvironmentsStore, type EnvironmentsStore } from './environments-store.ts';
import { emptyBatch, mergeProgress, type ProgressBatch, type ProgressItem } from './progress.ts';
import { createWizardStore, type WizardStore } from './wizard-store.ts';

export interface Stores {
  app: AppStore;
  environments: EnvironmentsStore;
  campaigns: CampaignsStore;
  campaign: CampaignStore;
  wizard: WizardStore;
  /**
   * A sent campaign's rows to fix, corrected on its screen (FixRowsPanel): the wizard's own store and
   * row editor, a second instance, so that a new campaign in progress in \`wizard\` is never touched.
   * It reads only the rows the panel lists (rowsToFixStates and the rows corrected in it), not every row.
   */
  fixRows: WizardStore;
}

export const RENDER_INTERVAL_MS = 100;

export function createStores(deps: { api: ClientApi; timers: Timers; now: () => number; theme?: ThemeChoice }): Stores {
  const stores = {
    app: createAppStore(deps, deps.theme),
    environments: createEnvironmentsStore(deps),
    campaigns: createCampaignsStore(deps),
    campaign: createCampaignStore(deps),
    wizard: createWizardStore(deps),
    fixRows: createWizardStore(deps, { rowsToFix: true }),
  };
  // A notice about a campaign's pause follows each newer summary of that campaign the window reads.
  stores.campaigns.subscribe((s, before) => {
    if (s.campaigns !== before.campaigns) stores.app.getState().reviseCampaignNotices(s.campaigns);
  });
  stores.campaign.subscribe((s, before) => {
    if (s.summary !== null && s.summary !== before.summary) stores.app.getState().reviseCampaignNotices([s.summary]);
  });
  return stores;
}

export function applyBatch(stores: Stores, batch: ProgressBatch): void {
  const summaries = [...batch.summaries.values()];
  stores.campaigns.getState().applySummaries(summaries);
  const open = stores.campaign.getState();
  for (const summary of summaries) {
    if (summary.id === open.id) open.applyProgress(summary, [...(batch.changedRowIds.get(summary.id) ?? [])]);
  }
  for (const f of batch.finished) {
    const c = f.campaign;
    stores.app.getState().notify(finishedNoticeKind(c), {
      text: f.message,
      campaign: { id: c.id, name: c.name },
      ...(c.sendState === 'paused' ? { pause: { detail: c.pausedDetail } } : {}),
    });
  }
}

/**
 * How the end of a run is announced. Good news fades; a run the engine stopped on a problem (the
 * service answered otherwise than asked, the key was refused, the service kept failing, the
 * pre-flight failed) stays until it is read, wherever the organiser is in the app.
 */
export function finishedNoticeKind(c: CampaignSummary): Notice['kind'] {
  if (c.sendState === 'paused' && c.pausedReason !== null && c.pausedReason !== 'user' && c.pausedReason !== 'interrupted') return 'error';
  if (c.sendState === 'paused' || c.counts.failed > 0 || c.counts.cancelled > 0 || c.flagged > 0) return 'info';
  return 'success';
}

/** Subscribes the stores to the engine's events; returns the unsubscribe. */
export function connectEvents(stores: Stores, deps: { api: ClientApi; timers: Timers; now: () => number }): () => void {
  const coalescer = createCoalescer<ProgressItem, ProgressBatch>({
    initial: emptyBatch,
    merge: mergeProgress,
    flush: (batch) => applyBatch(stores, batch),
    intervalMs: RENDER_INTERVAL_MS,
    timers: deps.timers,
    now: deps.now,
  });
  const offs = [
    deps.api.on('campaign:progress', (payload) => coalescer.push({ kind: 'progress', payload })),
    deps.api.on('campaign:finished', (payload) => coalescer.push({ kind: 'finished', payload })),
  ];
  let wasOpen = false;
  if (deps.api.onConnectionChange) {
    offs.push(
      deps.api.onConnectionChange((state) => {
        stores.app.getState().setConnection(state);
        // Events missed while the socket was down are not replayed: read the state again.
        if (state === 'open' && wasOpen) {
          void stores.campaigns.getState().load();
          void stores.campaign.getState().refresh();
        }
        if (state === 'open') wasOpen = true;
      }),
    );
  }
  return () => {
    coalescer.cancel();
    for (const off of offs) off();
  };
}
