// The validation table of a draft: every row with its errors per cell, windowed so thousands of
// rows stay light, with inline edit (rows:edit) and skip (rows:skip).
import { useCallback, useMemo, useState } from 'react';
import type { RowDto } from '../../../../shared/contract.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { VirtualList } from '../../components/VirtualList.tsx';
import { productNameFor } from '../../lib/products.ts';
import type { DraftFilter } from '../../lib/rows.ts';
import { useWizard } from '../../stores/hooks.ts';
import { rowValidations } from '../../stores/wizard-store.ts';
import { DraftRow, DraftRowEditor, type RowValidation } from './DraftRow.tsx';

export const DRAFT_ROW_HEIGHT = 56;

const EMPTY_TEXT: Record<DraftFilter, string> = {
  all: 'This draft has no rows.',
  errors: 'No row needs fixing. Every row can be sent or is skipped.',
  duplicates: 'No address repeats an earlier line, and no one here had a gift from this environment before.',
};

export function DraftTable({ rows, filter }: { rows: readonly RowDto[]; filter: DraftFilter }) {
  const [editing, setEditing] = useState<number | null>(null);
  const catalog = useWizard((s) => s.products);
  const defaultAmountText = useWizard((s) => s.defaultAmount);
  const draft = useWizard((s) => s.draft);
  const productId = useWizard((s) => s.productId);
  // A draft that chooses a gift per row (its file had a gift column, kept with the campaign, so the
  // same whether it was just made or reopened): each row says its gift, and the editor offers another.
  const showProducts = useWizard((s) => s.draft?.giftPerRow === true);
  const choices = useMemo(() => catalog.filter((p) => p.unorderableReason === null), [catalog]);
  // Each row is checked as typed against its own product (a gift per row), as the engine does on save.
  const validationFor = useMemo(() => {
    const byId = rowValidations({ products: catalog, defaultAmount: defaultAmountText, draft, productId });
    return (id: number): RowValidation | null => byId.get(id) ?? null;
  }, [catalog, defaultAmountText, draft, productId]);

  const renderRow = useCallback(
    (index: number) => {
      const row = rows[index];
      if (!row) return null;
      const product = showProducts ? productNameFor(row.productId, catalog, row.productName) : null;
      return row.id === editing ? (
        <DraftRowEditor key={row.id} row={row} index={index} product={product} choices={choices} validationFor={validationFor} onDone={() => setEditing(null)} />
      ) : (
        <DraftRow key={row.id} row={row} index={index} product={product} validation={validationFor(row.productId)} onEdit={() => setEditing(row.id)} />
      );
    },
    [rows, editing, validationFor, showProducts, catalog, choices],
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
      className={`grid-table draft-table${showProducts ? ' draft-table-products' : ''}`}
      label="Recipients of the draft"
      testId="draft-table"
      header={
        <div className="grid-row grid-head" role="row">
          <span role="columnheader">Line</span>
          <span role="columnheader">Name</span>
          <span role="columnheader">E-mail</span>
          {showProducts && <span role="columnheader">Gift</span>}
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
