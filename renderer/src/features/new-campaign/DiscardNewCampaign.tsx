// Opening a draft (Review and send, a follow-up, the campaigns list) puts it in the wizard, in place of
// what it held: when that is a new campaign the organiser is preparing and has not saved, they are
// asked first, and keep it unless they say to discard it.
import { useState, type ReactNode } from 'react';
import { Dialog } from '../../components/Dialog.tsx';
import { useStores } from '../../stores/hooks.ts';
import { unsavedNewCampaign } from '../../stores/wizard-store.ts';

export function DiscardNewCampaignDialog({ inProgress, onDiscard, onKeep }: { inProgress: string | null; onDiscard: () => void; onKeep: () => void }) {
  return (
    <Dialog open={inProgress !== null} title="Discard the new campaign in progress?" onClose={onKeep} testId="discard-new-campaign">
      <p>
        You have a new campaign in progress: {inProgress}. It is not saved yet: opening this campaign in New campaign discards it, with
        everything entered for it.
      </p>
      <div className="dialog-actions">
        <button type="button" onClick={onKeep} autoFocus data-testid="discard-new-campaign-keep">
          Keep it
        </button>
        <button type="button" className="button-primary" onClick={onDiscard} data-testid="discard-new-campaign-confirm">
          Discard it and continue
        </button>
      </div>
    </Dialog>
  );
}

/**
 * `guard(action)`: runs an action that replaces what the wizard holds at once, or, when it holds a new
 * campaign not saved yet, after the organiser says to discard it (`dialog` asks while it is not null; render it).
 */
export function useDiscardGuard(): { guard: (action: () => void) => void; dialog: ReactNode } {
  const stores = useStores();
  const [pending, setPending] = useState<{ inProgress: string; action: () => void } | null>(null);
  const guard = (action: () => void): void => {
    const inProgress = unsavedNewCampaign(stores.wizard.getState());
    if (inProgress === null) action();
    else setPending({ inProgress, action });
  };
  // Mounted only while it asks: a list of drafts holds no dialog per row.
  const dialog = pending && (
    <DiscardNewCampaignDialog
      inProgress={pending.inProgress}
      onKeep={() => setPending(null)}
      onDiscard={() => {
        setPending(null);
        pending.action();
      }}
    />
  );
  return { guard, dialog };
}
