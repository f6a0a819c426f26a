// The validation table of a draft: every row with its errors per cell, windowed so thousands of
// rows stay light, with inline edit (rows:edit) and skip (rows:skip).
import { useCallback, useMemo, useState } from 'react';
import type { RowDto } from '../../../../shared/contract.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { VirtualList } from '../../components/VirtualList.tsx';
import { productForValidation } from '../../lib/products.ts';
import type { DraftFilter } from '../../lib/rows.ts';
import { parseDefaultAmount } from '../../lib/validate-edit.ts';
import { useWizard } from '../../stores/hooks.ts';
import { selectedProduct } from '../../stores/wizard-store.ts';
import { DraftRow, DraftRowEditor } from './DraftRow.tsx';

export const DRAFT_ROW_HEIGHT = 56;

const EMPTY_TEXT: Record<DraftFilter, string> = {
  all: 'This draft has no rows.',
  errors: 'No row needs fixing. Every row can be sent or is skipped.',
  duplicates: 'No repeated e-mail addresses.',
};

export function DraftTable({ rows, filter }: { rows: readonly RowDto[]; filter: DraftFilter }) {
  const [editing, setEditing] = useState<number | null>(null);
  const product = useWizard(selectedProduct);
  const defaultAmountText = useWizard((s) => s.defaultAmount);
  const validation = useMemo(() => {
    const p = product ? productForValidation(product) : null;
    if (!p) return null;
    return { product: p, defaultAmount: parseDefaultAmount(defaultAmountText, p.currency) };
  }, [product, defaultAmountText]);

  const renderRow = useCallback(
    (index: number) => {
      const row = rows[index];
      if (!row) return null;
      return row.id === editing ? (
        <DraftRowEditor key={row.id} row={row} index={index} validation={validation} onDone={() => setEditing(null)} />
      ) : (
        <DraftRow key={row.id} row={row} index={index} onEdit={() => setEditing(row.id)} />
      );
    },
    [rows, editing, validation],
  );

  if (rows.length === 0) {
    return (
      <EmptyState title="Nothing to show" testId="draft-empty">
        <p>{EMPTY_TEXT[filter]}</p>
      </EmptyState>
    );
  }

  return (
    <VirtualList
      total={rows.length}
      rowHeight={DRAFT_ROW_HEIGHT}
      renderRow={renderRow}
      className="grid-table draft-table"
      label="Recipients of the draft"
      testId="draft-table"
      header={
        <div className="grid-row grid-head" role="row">
          <span role="columnheader">Line</span>
          <span role="columnheader">Name</span>
          <span role="columnheader">E-mail</span>
          <span role="columnheader">Amount</span>
          <span role="columnheader">Message</span>
          <span role="columnheader">Status</span>
          <span role="columnheader">
            <span className="visually-hidden">Actions</span>
          </span>
        </div>
      }
    />
  );
}
