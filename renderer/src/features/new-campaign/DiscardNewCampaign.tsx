// What the wizard holds is the organiser's new campaign in progress. Opening a draft (Review and send, a
// follow-up, the campaigns list) puts it in the wizard in its place, and Start over empties the wizard:
// when it holds a new campaign not saved yet, they are asked first, and keep it unless they say to
// discard it. "New campaign" (the header, the campaigns list, the Welcome screen's "Start with my own
// list") goes back to the campaign in progress as it is, and starts an empty wizard only when there is
// none; the Welcome screen's "Try it with the sample list" replaces it, so it asks as Start over does.
import { useState, type ReactNode } from 'react';
import { Dialog } from '../../components/Dialog.tsx';
import type { Stores } from '../../stores/index.ts';
import { useStores } from '../../stores/hooks.ts';
import { newCampaignInProgress, unsavedNewCampaign, type WizardState } from '../../stores/wizard-store.ts';

/** What replaces the campaign in progress: a draft opened in the wizard, Start over (an empty wizard), or the Welcome screen's sample. */
export type DiscardReason = 'open' | 'start-over' | 'sample';

/** What the organiser is asked about: the campaign in progress in words, and whether it is saved as a draft already. */
export interface DiscardQuestion {
  inProgress: string;
  saved: boolean;
}

/**
 * The question to ask before `reason` replaces what the wizard holds, or null when it loses nothing the
 * organiser would miss. Opening a draft asks only about a campaign not saved yet; Start over also about
 * the draft saved from the wizard (it stays in the campaigns list, but the wizard lets go of it).
 */
export function discardQuestion(s: WizardState, reason: DiscardReason): DiscardQuestion | null {
  const unsaved = unsavedNewCampaign(s);
  if (unsaved !== null) return { inProgress: unsaved, saved: false };
  if (reason === 'open') return null;
  const draft = newCampaignInProgress(s);
  return draft === null ? null : { inProgress: draft, saved: true };
}

/** An action waiting for the organiser's answer: run it on Discard, drop it on Keep. */
export type PendingDiscard = DiscardQuestion & { action: () => void };

/** Runs `action` at once when it loses nothing (discardQuestion), or hands it to `ask` with the question. */
export function askBeforeDiscard(s: WizardState, reason: DiscardReason, action: () => void, ask: (pending: PendingDiscard) => void): void {
  const question = discardQuestion(s, reason);
  if (question === null) action();
  else ask({ ...question, action });
}

/** Start over: an empty wizard, in the environment in use now. */
export function startOver(stores: Pick<Stores, 'wizard' | 'environments'>): void {
  void stores.wizard.getState().start(stores.environments.getState().current);
}

/** The Welcome screen's "Try it with the sample list": a new campaign with the sample, in the environment in use now. */
export function startWithSample(stores: Pick<Stores, 'wizard' | 'environments' | 'app'>): void {
  void stores.app.getState().dismissWelcome();
  void stores.wizard.getState().start(stores.environments.getState().current, { sample: true });
  stores.app.getState().navigate({ name: 'new' });
}

/** "New campaign": back to the campaign in progress, as it is (same step, file, product, rows), or an empty wizard when there is none. */
export function openNewCampaign(stores: Pick<Stores, 'wizard' | 'environments' | 'app'>): void {
  if (newCampaignInProgress(stores.wizard.getState()) === null) startOver(stores);
  stores.app.getState().navigate({ name: 'new' });
}

export function DiscardNewCampaignDialog({
  inProgress,
  saved = false,
  reason = 'open',
  onDiscard,
  onKeep,
}: {
  inProgress: string | null;
  saved?: boolean;
  reason?: DiscardReason;
  onDiscard: () => void;
  onKeep: () => void;
}) {
  const doing = { open: 'opening this campaign in New campaign', 'start-over': 'starting over', sample: 'trying the sample list' }[reason];
  const title = reason === 'sample' ? 'Start a new campaign with the sample list?' : 'Start over with an empty new campaign?';
  return (
    <Dialog open={inProgress !== null} title={saved ? title : 'Discard the new campaign in progress?'} onClose={onKeep} testId="discard-new-campaign">
      {saved ? (
        <p>
          {inProgress} is saved as a draft: it stays in Campaigns, where you can open it again to review and send it.{' '}
          {reason === 'sample' ? 'New campaign then holds the sample list instead.' : 'Starting over empties New campaign.'}
        </p>
      ) : (
        <p>
          You have a new campaign in progress: {inProgress}. It is not saved yet: {doing} discards it, with everything entered for it.
        </p>
      )}
      <div className="dialog-actions">
        {/* Unsaved work is lost by discarding: keeping it is the default (focused, primary), discarding looks destructive. */}
        <button type="button" className={saved ? undefined : 'button-primary'} onClick={onKeep} autoFocus data-testid="discard-new-campaign-keep">
          Keep it
        </button>
        <button type="button" className={saved ? 'button-primary' : 'button-danger'} onClick={onDiscard} data-testid="discard-new-campaign-confirm">
          {{ open: saved ? 'Start over' : 'Discard it and continue', 'start-over': saved ? 'Start over' : 'Discard it and start over', sample: saved ? 'Try the sample list' : 'Discard it and try the sample' }[reason]}
        </button>
      </div>
    </Dialog>
  );
}

/**
 * `guard(action)`: runs an action that replaces what the wizard holds at once, or, when that loses a new
 * campaign in progress (discardQuestion), after the organiser says to (`dialog` asks while it is not null; render it).
 */
export function useDiscardGuard(reason: DiscardReason = 'open'): { guard: (action: () => void) => void; dialog: ReactNode } {
  const stores = useStores();
  const [pending, setPending] = useState<PendingDiscard | null>(null);
  const guard = (action: () => void): void => askBeforeDiscard(stores.wizard.getState(), reason, action, setPending);
  // Mounted only while it asks: a list of drafts holds no dialog per row.
  const dialog = pending && (
    <DiscardNewCampaignDialog
      inProgress={pending.inProgress}
      saved={pending.saved}
      reason={reason}
      onKeep={() => setPending(null)}
      onDiscard={() => {
        setPending(null);
        pending.action();
      }}
    />
  );
  return { guard, dialog };
}

/** The wizard's Start over: asks before emptying a new campaign in progress; shown only while there is one. */
export function StartOver() {
  const stores = useStores();
  const { guard, dialog } = useDiscardGuard('start-over');
  return (
    <>
      <button
        type="button"
        onClick={() => guard(() => startOver(stores))}
        data-testid="wizard-start-over"
      >
        Start over…
      </button>
      {dialog}
    </>
  );
}
