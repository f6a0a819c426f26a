// Sending needs a person: resuming states what is left to send and that orders are final.
import { useState } from 'react';
import type { CampaignSummary } from '../../../../shared/contract.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { Message } from '../../components/Message.tsx';
import { formatTotals } from '../../lib/money-display.ts';
import type { ResumeChoices, ResumeRefusal } from '../../stores/campaigns-store.ts';

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
  return (
    <Dialog open={campaign !== null} title="Resume sending?" onClose={onClose} testId="resume-dialog">
      {campaign && (
        <>
          <p>
            <strong data-testid="resume-count">{left}</strong> gift{left === 1 ? '' : 's'} left to send in “{campaign.name}”, worth{' '}
            <strong>{formatTotals(campaign.remaining, 'nothing')}</strong>.
          </p>
          {campaign.counts.sending > 0 && (
            <p className="muted">
              {campaign.counts.sending === 1 ? '1 was' : `${campaign.counts.sending} were`} being sent when it stopped. Each is first looked up
              with the service under its own reference, so none is ordered twice.
            </p>
          )}
          {campaign.pausedReason === 'mismatch' && (
            <Message kind="warning" testId="resume-mismatch">
              It was paused because the service issued something other than a row asked (the flagged row shows both values). Resume only
              once you know why: the next order goes alone and is checked again, and another difference pauses it again.
            </Message>
          )}
          {campaign.pausedReason === 'unconfirmed' && (
            <Message kind="warning" testId="resume-unconfirmed">
              <p>
                Some rows were left mid-send, and Giftbatch cannot tell whether the service made their orders: its order list shows none under
                their references, but it is not seen to reach back to when they were first sent. They are listed under the paused notice
                with their references. Look each one up in the service's own records first; an order found there is recorded with
                &ldquo;Record its order&rdquo;.
              </p>
              <label className="check" data-testid="resume-resend-unconfirmed">
                <input type="checkbox" checked={resendUnconfirmed} onChange={(e) => setResendUnconfirmed(e.target.checked)} />
                Send them again: I found no order at the service under their references (each goes under its own reference again)
              </label>
              {!resendUnconfirmed && <p className="small">Unticked, they keep waiting and only the other rows are sent.</p>}
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
              {busy ? 'Resuming…' : `Resume: send ${left}`}
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
