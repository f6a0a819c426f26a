// A follow-up campaign: a new draft with the rows that failed, whose order was cancelled, or whose
// acceptance link expired, each as a new gift under a new reference. The person chooses the kinds
// (with their counts) and reads, in plain words, that cancelled and expired rows had orders.
import { useState } from 'react';
import type { CampaignSummary } from '../../../../shared/contract.ts';
import { FOLLOW_UP_KINDS, type FollowUpKind } from '../../../../shared/domain/follow-up.ts';
import { plural } from '../../../../shared/domain/plural.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { Message } from '../../components/Message.tsx';

const LABELS: Record<FollowUpKind, (n: number) => string> = {
  failed: (n) => `${plural(n, 'row')} that failed (the service refused the order: no gift was sent)`,
  cancelled: (n) => `${plural(n, 'row')} whose order was cancelled or whose payment expired`,
  expired: (n) => `${plural(n, 'row')} whose acceptance link expired before the recipient accepted`,
};

export function FollowUpDialog({
  campaign,
  busy,
  error,
  onConfirm,
  onClose,
}: {
  campaign: CampaignSummary | null;
  busy: boolean;
  /** Why the last attempt made no campaign. */
  error: string | null;
  onConfirm: (include: FollowUpKind[], name: string) => void;
  onClose: () => void;
}) {
  // Counted by the engine with the follow-up's own rule: rows an earlier follow-up took are left out.
  const counts = campaign?.followUpRows ?? null;
  // Each opening (the parent mounts it afresh) starts from the kinds the campaign has, and the default name.
  const [chosen, setChosen] = useState<ReadonlySet<FollowUpKind>>(() => new Set(FOLLOW_UP_KINDS.filter((k) => (counts?.[k] ?? 0) > 0)));
  const [name, setName] = useState(() => (campaign ? `${campaign.name.slice(0, 188)} (follow-up)` : ''));

  const include = FOLLOW_UP_KINDS.filter((k) => chosen.has(k) && (counts?.[k] ?? 0) > 0);
  const rows = include.reduce((n, k) => n + (counts?.[k] ?? 0), 0);
  return (
    <Dialog open={campaign !== null} title="Follow-up campaign" onClose={onClose} testId="follow-up-dialog">
      {campaign && counts && (
        <>
          <p>
            A new draft campaign with the same {campaign.giftPerRow ? 'gifts' : 'product'}, sender and environment as “{campaign.name}”. Each
            row keeps its name, e-mail, {campaign.giftPerRow ? 'gift, ' : ''}amount and message, and gets a new reference: it is a new gift,
            reviewed and confirmed before anything is sent.
          </p>
          {campaign.retryable > 0 && (
            <p data-testid="follow-up-or-retry">
              Failed rows can instead be sent again as they are: fix the cause (a balance to top up), then press &quot;Retry {campaign.retryable}{' '}
              failed&quot;: the same rows, under their own references, in this campaign, never paid twice. Choose a follow-up for rows whose order
              was cancelled or whose link expired, or that you want to send differently (another gift, amount or message).
            </p>
          )}
          <fieldset>
            <legend>Rows to take</legend>
            {FOLLOW_UP_KINDS.map((kind) => (
              <div key={kind}>
                <label className="check" data-testid={`follow-up-${kind}`}>
                  <input
                    type="checkbox"
                    checked={chosen.has(kind) && counts[kind] > 0}
                    disabled={counts[kind] === 0}
                    onChange={(e) => {
                      const next = new Set(chosen);
                      if (e.target.checked) next.add(kind);
                      else next.delete(kind);
                      setChosen(next);
                    }}
                  />
                  {LABELS[kind](counts[kind])}
                </label>
              </div>
            ))}
          </fieldset>
          <p data-testid="follow-up-orders-note">
            Cancelled and expired rows had orders: following them up sends those recipients a new gift, paid again. Their old orders stay as
            they are.
          </p>
          <div className="follow-up-name">
            <label htmlFor="follow-up-name">Name of the new campaign</label>
            <input id="follow-up-name" value={name} onChange={(e) => setName(e.target.value)} maxLength={200} data-testid="follow-up-name" />
          </div>
          {error && <Message kind="error">{error}</Message>}
          <div className="dialog-actions">
            <button type="button" onClick={onClose}>
              Cancel
            </button>
            <button
              type="button"
              className="button-primary"
              data-testid="follow-up-confirm"
              disabled={busy || rows === 0 || name.trim() === ''}
              onClick={() => onConfirm(include, name)}
            >
              {busy ? 'Making the draft…' : `Make a draft with ${plural(rows, 'row')}`}
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
