// A sent campaign's rows that were not sent because they need fixing, corrected where they are: the
// draft review's own table and row editor (rows:edit, the same validation as the draft), its cost box,
// and for a finished campaign the same pre-flight and confirmation as the first send (campaigns:send,
// each row under the key it was given at import). The campaign is held, while the panel is open, in a
// wizard store of its own (stores.fixRows), as the wizard holds a draft under review: a new campaign
// the organiser is preparing in the wizard is left as it is. A paused campaign's corrected rows go with
// its Resume.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { CampaignSummary, RowDto } from '../../../../shared/contract.ts';
import { plural } from '../../../../shared/domain/plural.ts';
import { Message } from '../../components/Message.tsx';
import { StoresContext, useStores, useWizard } from '../../stores/hooks.ts';
import type { Stores } from '../../stores/index.ts';
import { ConfirmSendDialog } from '../new-campaign/ConfirmSendDialog.tsx';
import { CostSummary } from '../new-campaign/CostSummary.tsx';
import { DraftTable } from '../new-campaign/DraftTable.tsx';

/**
 * The rows the panel lists: those that need fixing when it opened, and, on a finished campaign, those
 * corrected before and not sent yet (ready, never tried: no order asked for). A failed row put back by
 * Retry is ready too but needs no fixing: not listed, nor a paused campaign's ready rows (its rows left
 * to send, for Resume). A row corrected while the panel is open stays listed (FixRows keeps the ids).
 */
export function rowsToFixIds(rows: readonly RowDto[], sendState: CampaignSummary['sendState']): Set<number> {
  return new Set(rows.filter((r) => r.state === 'invalid' || (sendState === 'done' && r.state === 'ready' && r.attempts === 0 && r.orderId === null)).map((r) => r.id));
}

/**
 * The panel's send button: 'Send 1 corrected row…', 'Send 3 corrected rows…'. The send takes every row
 * left to send: when they are more than the `corrected` ones listed (failed rows put back by Retry go
 * too), 'Send the 3 left…', as the campaign's own button says.
 */
export function sendCorrectedLabel(n: number, corrected = n): string {
  if (n > corrected) return `Send the ${n} left…`;
  return n === 0 ? 'Send corrected rows…' : `Send ${plural(n, 'corrected row')}…`;
}

/** What the panel is for, in the organiser's words, for a finished or a paused campaign. */
export function fixRowsIntro(sendState: CampaignSummary['sendState']): string {
  return sendState === 'done'
    ? 'Correct each row with Edit (or skip it); a row becomes ready once it is valid. Then send the corrected rows: the same check and confirmation as the first send, each row under its own reference, and nothing already sent is sent again.'
    : 'Correct each row with Edit (or skip it); a row becomes ready once it is valid, and Resume sends it with the rest of the campaign.';
}

/**
 * Opens the campaign's rows in the panel's own store (stores.fixRows, never the wizard's new campaign in
 * progress), with `send` then the confirmation of the send; returns what lets go of it when the panel closes.
 */
export function openRowsToFix(stores: Stores, campaign: CampaignSummary, send: boolean): () => void {
  const store = stores.fixRows;
  let open = true;
  void store
    .getState()
    .openDraft(campaign)
    .then(() => {
      if (open && send && store.getState().draft?.id === campaign.id) store.getState().openConfirm();
    });
  return () => {
    open = false;
    store.getState().closeDraft(campaign.id);
  };
}

export function FixRowsPanel(props: { summary: CampaignSummary; sendOnOpen: boolean; onClose: () => void }) {
  const stores = useStores();
  // The draft's table, row editor, cost box and confirmation read "the wizard": here, the panel's own.
  const own = useMemo<Stores>(() => ({ ...stores, wizard: stores.fixRows }), [stores]);
  return (
    <StoresContext.Provider value={own}>
      <FixRows {...props} />
    </StoresContext.Provider>
  );
}

function FixRows({ summary, sendOnOpen, onClose }: { summary: CampaignSummary; sendOnOpen: boolean; onClose: () => void }) {
  const stores = useStores();
  const loaded = useWizard((s) => s.draft?.id === summary.id);
  const rows = useWizard((s) => s.rows);
  const rowsStatus = useWizard((s) => s.rowsStatus);
  const rowsError = useWizard((s) => s.rowsError);
  const preflight = useWizard((s) => s.preflight);
  // The rows listed are fixed when they first load (at once when the wizard holds them already): a
  // corrected row stays in view, ready, until it is sent.
  const [listed, setListed] = useState<ReadonlySet<number> | null>(() => (loaded && rowsStatus === 'ready' ? rowsToFixIds(rows, summary.sendState) : null));
  // Read when the panel opens; the summary object changes with every progress event.
  const opening = useRef({ summary, sendOnOpen });
  const wasLoaded = useRef(false);

  useEffect(() => openRowsToFix(stores, opening.current.summary, opening.current.sendOnOpen), [stores]);

  useEffect(() => {
    if (loaded && rowsStatus === 'ready' && listed === null) setListed(rowsToFixIds(rows, opening.current.summary.sendState));
  }, [loaded, rowsStatus, rows, listed]);

  // The confirmed send lets go of the campaign (the panel's store starts afresh): the panel's work is done.
  useEffect(() => {
    if (loaded) wasLoaded.current = true;
    else if (wasLoaded.current) {
      void stores.campaign.getState().refresh();
      onClose();
    }
  }, [loaded, stores, onClose]);

  const shown = useMemo(() => (listed === null ? [] : rows.filter((r) => listed.has(r.id) || r.state === 'invalid')), [rows, listed]);
  const toSend = preflight?.rowsToSend ?? 0;
  const correctedShown = shown.filter((r) => r.state === 'ready').length;
  const canSend = preflight !== null && preflight.ok && toSend > 0 && !summary.running;

  return (
    <section className="fix-rows card" aria-labelledby="fix-rows-title" data-testid="fix-rows">
      <div className="title-row">
        <h2 id="fix-rows-title">Rows to fix</h2>
        <button type="button" className="button-quiet" onClick={onClose} data-testid="fix-rows-close">
          Close
        </button>
      </div>
      <p className="muted">{fixRowsIntro(summary.sendState)}</p>
      {loaded && rowsStatus === 'failed' && rowsError && <Message kind="error">{rowsError}</Message>}
      {!loaded || listed === null ? (
        rowsStatus !== 'failed' && <p className="muted" role="status">Loading the rows to fix…</p>
      ) : (
        <div className="review-layout">
          <div className="review-main">
            <DraftTable rows={shown} filter="errors" />
          </div>
          {summary.sendState === 'done' && (
            <aside className="review-side" aria-label="Cost and sending">
              <CostSummary />
              <button type="button" className="button-primary button-large button-block" disabled={!canSend} onClick={() => stores.wizard.getState().openConfirm()} data-testid="fix-rows-send">
                {sendCorrectedLabel(toSend, correctedShown)}
              </button>
            </aside>
          )}
        </div>
      )}
      {summary.sendState === 'done' && <ConfirmSendDialog />}
    </section>
  );
}
