// Pause, resume, check now, export: what can be done with the campaign in its current state.
import { useState } from 'react';
import type { CampaignSummary } from '../../../../shared/contract.ts';
import { plural } from '../../../../shared/domain/plural.ts';
import { downloadText } from '../../lib/download.ts';
import { useCampaign, useStores } from '../../stores/hooks.ts';
import { useDiscardGuard } from '../new-campaign/DiscardNewCampaign.tsx';
import { FollowUpDialog } from './FollowUpDialog.tsx';
import { ResumeDialog } from './ResumeDialog.tsx';

/**
 * A campaign whose rows that need fixing can be corrected on its screen: it has some, and no run is
 * active (a draft's are corrected in its review).
 */
export function canFixRows(summary: CampaignSummary): boolean {
  return summary.counts.invalid > 0 && summary.sendState !== 'draft' && summary.sendState !== 'sending' && !summary.running;
}

/**
 * `fixing`: the rows to fix are open on the screen (their panel sends them); `onFix`: opens it, and with
 * `send`, the confirmation of the first send for a finished campaign's rows left to send.
 */
export function CampaignActions({ summary, fixing = false, onFix }: { summary: CampaignSummary; fixing?: boolean; onFix?: (send: boolean) => void }) {
  const stores = useStores();
  const busy = useCampaign((s) => s.busy);
  const [resumeOpen, setResumeOpen] = useState(false);
  const [followUpOpen, setFollowUpOpen] = useState(false);
  const [followUpError, setFollowUpError] = useState<string | null>(null);
  // Review and send and a follow-up open a draft in the wizard: a new campaign in progress there is asked about first.
  const discard = useDiscardGuard();
  // The rows a follow-up would take now (the engine's count: none an earlier follow-up took).
  const followUpRows = Object.values(summary.followUpRows).reduce((a, b) => a + b, 0);
  const c = stores.campaign.getState();
  const left = summary.counts.ready + summary.counts.sending;
  const canResume = summary.sendState !== 'draft' && !summary.running && left > 0 && summary.sendState !== 'sending';

  return (
    <div className="actions" role="group" aria-label="Campaign actions">
      {summary.sendState === 'draft' && (
        <button
          type="button"
          className="button-primary"
          onClick={() =>
            discard.guard(() => {
              void stores.wizard.getState().openDraft(summary);
              stores.app.getState().navigate({ name: 'new' });
            })
          }
        >
          Review and send
        </button>
      )}
      {summary.sendState === 'sending' && (
        <button type="button" onClick={() => void c.pause()} disabled={busy !== null} data-testid="campaign-pause">
          {busy === 'pause' ? 'Pausing…' : 'Pause sending'}
        </button>
      )}
      {canFixRows(summary) && !fixing && onFix && (
        <button type="button" onClick={() => onFix(false)} disabled={busy !== null} data-testid="campaign-fix-rows">
          {`Fix ${plural(summary.counts.invalid, 'row')}…`}
        </button>
      )}
      {/* A finished campaign's rows left to send (corrected, or failed ones put back) go through the first send's pre-flight and confirmation. */}
      {canResume && !(fixing && summary.sendState === 'done') && (
        <button
          type="button"
          className="button-primary"
          onClick={() => (summary.sendState === 'done' && onFix ? onFix(true) : setResumeOpen(true))}
          disabled={busy !== null}
          data-testid="campaign-resume"
        >
          {summary.sendState === 'paused' ? 'Resume' : `Send the ${left} left${summary.sendState === 'done' && onFix ? '…' : ''}`}
        </button>
      )}
      {summary.sendState === 'paused' && summary.pausedReason === 'preflight' && !summary.running && (
        <button type="button" onClick={() => void c.revalidate()} disabled={busy !== null} data-testid="campaign-revalidate">
          {busy === 'revalidate' ? 'Checking rows…' : 'Check rows again'}
        </button>
      )}
      {/* The failed rows a retry puts back: not those a follow-up campaign took (sent from there). */}
      {summary.retryable > 0 && !summary.running && summary.sendState !== 'sending' && (
        <button type="button" onClick={() => void c.retryFailed()} disabled={busy !== null} data-testid="campaign-retry-failed">
          {busy === 'retry' ? 'Putting back…' : `Retry ${summary.retryable} failed`}
        </button>
      )}
      {followUpRows > 0 && !summary.running && summary.sendState !== 'sending' && (
        <button
          type="button"
          onClick={() => {
            setFollowUpError(null);
            setFollowUpOpen(true);
          }}
          disabled={busy !== null}
          data-testid="campaign-follow-up"
        >
          Follow-up campaign…
        </button>
      )}
      {summary.sendState !== 'draft' && (
        <button type="button" onClick={() => void c.checkNow()} disabled={busy !== null} data-testid="campaign-check">
          {busy === 'check' ? 'Checking…' : 'Check now'}
        </button>
      )}
      {summary.sendState !== 'draft' && (
        <button
          type="button"
          onClick={async () => {
            const report = await c.exportReport();
            if (report && report.savedTo === null) downloadText(report.fileName, report.csv);
          }}
          disabled={busy !== null}
          data-testid="campaign-export"
        >
          {busy === 'report' ? 'Preparing…' : 'Export report'}
        </button>
      )}
      <FollowUpDialog
        key={followUpOpen ? 'open' : 'closed'}
        campaign={followUpOpen ? summary : null}
        busy={busy === 'followUp'}
        error={followUpError}
        onClose={() => setFollowUpOpen(false)}
        onConfirm={(include, name) =>
          discard.guard(async () => {
            const draft = await c.followUp(include, name);
            if (!draft) {
              setFollowUpError(stores.campaign.getState().message?.text ?? 'No follow-up campaign was made.');
              stores.campaign.getState().clearMessage();
              return;
            }
            setFollowUpOpen(false);
            // The new draft opens where every draft is reviewed and sent: the pre-flight, then the confirmation.
            void stores.wizard.getState().openDraft(draft);
            stores.app.getState().navigate({ name: 'new' });
          })
        }
      />
      {discard.dialog}
      <ResumeDialog
        campaign={resumeOpen ? summary : null}
        onClose={() => setResumeOpen(false)}
        onConfirm={async (choices) => {
          if (await c.resume(choices)) return null;
          const message = stores.campaign.getState().message;
          return message?.refusal ?? { text: message?.text ?? 'Could not resume.', accountChanged: false, repeats: false };
        }}
      />
    </div>
  );
}
