// Step 3: the draft's rows (fix or skip what needs it), the cost per currency, and the send,
// behind a confirmation that states the count, the total, and that orders are final.
import { useMemo } from 'react';
import { plural } from '../../../../shared/domain/plural.ts';
import { Message } from '../../components/Message.tsx';
import { matchesDraftFilter, type DraftFilter } from '../../lib/rows.ts';
import { useStores, useWizard } from '../../stores/hooks.ts';
import { ConfirmSendDialog } from './ConfirmSendDialog.tsx';
import { CostSummary } from './CostSummary.tsx';
import { DraftTable } from './DraftTable.tsx';

const FILTERS: ReadonlyArray<{ value: DraftFilter; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'errors', label: 'Need fixing' },
  // Rows whose address repeats an earlier line or had a gift before: skipped at import unless chosen, each saying why.
  { value: 'duplicates', label: 'Repeated recipients' },
];

export function ReviewStep() {
  const stores = useStores();
  const w = stores.wizard.getState();
  const rows = useWizard((s) => s.rows);
  const rowsStatus = useWizard((s) => s.rowsStatus);
  const rowsError = useWizard((s) => s.rowsError);
  const filter = useWizard((s) => s.rowFilter);
  const preflight = useWizard((s) => s.preflight);
  const draft = useWizard((s) => s.draft);

  const counts = useMemo(
    () => ({
      all: rows.length,
      errors: rows.filter((r) => matchesDraftFilter(r, 'errors')).length,
      duplicates: rows.filter((r) => matchesDraftFilter(r, 'duplicates')).length,
    }),
    [rows],
  );
  const shown = useMemo(() => rows.filter((r) => matchesDraftFilter(r, filter)), [rows, filter]);
  const canSend = preflight !== null && preflight.ok && preflight.rowsToSend > 0;

  return (
    <div className="step step-review" data-testid="step-review">
      <div className="review-layout">
        <div className="review-main">
          <div className="filters" role="group" aria-label="Show rows">
            {FILTERS.map((f) => (
              <button
                key={f.value}
                type="button"
                className="filter"
                aria-pressed={filter === f.value}
                onClick={() => w.setRowFilter(f.value)}
                data-testid={`filter-${f.value}`}
              >
                {f.label} <span className="filter-count">{counts[f.value]}</span>
              </button>
            ))}
          </div>
          {rowsStatus === 'failed' && rowsError && <Message kind="error">{rowsError}</Message>}
          {rowsStatus === 'loading' && <p className="muted">Loading rows…</p>}
          {rowsStatus === 'ready' && <DraftTable rows={shown} filter={filter} />}
        </div>
        <aside className="review-side" aria-label="Cost and sending">
          <CostSummary />
          <button
            type="button"
            className="button-primary button-large button-block"
            disabled={!canSend}
            onClick={() => w.openConfirm()}
            data-testid="wiz-send"
          >
            {preflight && preflight.rowsToSend > 0 ? `Send ${plural(preflight.rowsToSend, 'gift')}…` : 'Send…'}
          </button>
          <button
            type="button"
            className="button-quiet button-block"
            onClick={() => {
              if (!draft) return;
              stores.app.getState().navigate({ name: 'campaigns' });
              // Kept for later, it is in the campaigns list: New campaign is then an empty one, not this draft.
              w.closeDraft(draft.id);
            }}
          >
            Keep as draft for later
          </button>
        </aside>
      </div>
      <ConfirmSendDialog />
    </div>
  );
}
