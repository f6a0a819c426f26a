import { STATE_LABELS, type RowState } from '../lib/rows.ts';

export function StateChip({ state }: { state: RowState }) {
  return (
    <span className={`chip chip-${state}`} data-testid="state-chip">
      {STATE_LABELS[state]}
    </span>
  );
}
