import { STATE_LABELS, type RowState } from '../lib/rows.ts';

/** `label`: instead of the state's own (rowStateLabel: a held row reads 'To look up'). */
export function StateChip({ state, label }: { state: RowState; label?: string }) {
  return (
    <span className={`chip chip-${state}`} data-testid="state-chip">
      {label ?? STATE_LABELS[state]}
    </span>
  );
}
