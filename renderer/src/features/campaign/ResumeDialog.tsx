// Sending needs a person: resuming states what is left to send and that orders are final.
import { useState } from 'react';
import type { CampaignSummary } from '../../../../shared/contract.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { Message } from '../../components/Message.tsx';
import { formatTotals } from '../../lib/money-display.ts';
import type { ResumeChoices, ResumeRefusal } from '../../stores/campaigns-store.ts';

/**
 * How many gifts pressing Resume sends now. The rows held for a person (the engine's heldRows; a
 * campaign with any pauses 'unconfirmed'): unless "Send them again" is ticked they are only looked up
 * again and keep waiting, so the ready rows go, and the other rows mid-send once looked up.
 */
export function resumeSendCount(campaign: Pick<CampaignSummary, 'counts' | 'heldRows'>, resendUnconfirmed: boolean): number {
  const held = resendUnconfirmed ? 0 : campaign.heldRows;
  return campaign.counts.ready + campaign.counts.sending - held;
}

/** The Resume button: what it sends; when that is nothing, that it looks the held rows up again. */
export function resumeLabel(count: number): string {
  return count === 0 ? 'Resume: look them up again' : `Resume: send ${count}`;
}

/** Under an unticked "Send them again": what happens to the held rows and to the rest. */
export function unticked(count: number): string {
  return count === 0
    ? 'Unticked, they are looked up at the service again and keep waiting; nothing else is left to send.'
    : 'Unticked, they keep waiting and only the other rows are sent.';
}

export function ResumeDialog({
  campaign,
  onConfirm,
  onClose,
}: {
  campaign: CampaignSummary | null;
  onConfirm: (choices: ResumeChoices) => Promise<ResumeRefusal | null>;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ResumeRefusal | null>(null);
  const [sameAccount, setSameAccount] = useState(false);
  const [allowRepeats, setAllowRepeats] = useState(false);
  const [resendUnconfirmed, setResendUnconfirmed] = useState(false);
  const left = campaign ? campaign.counts.ready + campaign.counts.sending : 0;
  // Rows left mid-send and not held: looked up, then sent on if the service has no order for them.
  const inFlight = campaign ? campaign.counts.sending - campaign.heldRows : 0;
  return (
    <Dialog open={campaign !== null} title="Resume sending?" onClose={onClose} testId="resume-dialog">
      {campaign && (
        <>
          <p>
            <strong data-testid="resume-count">{left}</strong> gift{left === 1 ? '' : 's'} left to send in “{campaign.name}”
            {campaign.remaining.length > 0 && (
              <>
                , worth <strong>{formatTotals(campaign.remaining)}</strong>
              </>
            )}
            .
          </p>
          {inFlight > 0 && (
            <p className="muted">
              {inFlight === 1 ? '1 was' : `${inFlight} were`} being sent when it stopped. Each is first looked up
              with the service under its own reference, so none is ordered twice.
            </p>
          )}
          {campaign.pausedReason === 'mismatch' && (
            <Message kind="warning" testId="resume-mismatch">
              It was paused because the service issued something other than a row asked (the flagged row shows both values). Resume only
              once you know why: the next order goes alone and is checked again, and another difference pauses it again.
            </Message>
          )}
          {campaign.heldRows > 0 && (
            <Message kind="warning" testId="resume-unconfirmed">
              <p>
                Giftbatch cannot tell whether the gifts listed under &ldquo;Rows to look up at the service&rdquo; were ordered: they were
                being sent when it stopped, the service's order list may not go back far enough to show them, and sending them again
                could pay for a second gift. Look each one up in the service's own records first; an order found there is recorded with
                &ldquo;Record its order&rdquo;.
              </p>
              <label className="check" data-testid="resume-resend-unconfirmed">
                <input type="checkbox" checked={resendUnconfirmed} onChange={(e) => setResendUnconfirmed(e.target.checked)} />
                Send them again: I found no order at the service under their references (each goes under its own reference again)
              </label>
              {!resendUnconfirmed && <p className="small">{unticked(resumeSendCount(campaign, false))}</p>}
            </Message>
          )}
          <p>Orders are final: a gift sent cannot be recalled.</p>
          {error && <Message kind="error">{error.text}</Message>}
          {error?.accountChanged && (
            <label className="check" data-testid="resume-same-account">
              <input type="checkbox" checked={sameAccount} onChange={(e) => setSameAccount(e.target.checked)} />
              The key set now belongs to the same account this campaign was sent with (its interrupted orders are looked up there).
            </label>
          )}
          {error?.repeats && (
            <label className="check" data-testid="resume-allow-repeats">
              <input type="checkbox" checked={allowRepeats} onChange={(e) => setAllowRepeats(e.target.checked)} />
              Send a second gift to the recipients who already have one from this environment
            </label>
          )}
          <div className="dialog-actions">
            <button type="button" onClick={onClose}>
              Not now
            </button>
            <button
              type="button"
              className="button-primary"
              data-testid="resume-confirm"
              disabled={busy}
              onClick={async () => {
                setBusy(true);
                const refusal = await onConfirm({ sameAccount, allowRepeats, resendUnconfirmed });
                setBusy(false);
                if (refusal) setError(refusal);
                else onClose();
              }}
            >
              {busy ? 'Resuming…' : resumeLabel(campaign ? resumeSendCount(campaign, resendUnconfirmed) : left)}
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
