import type { MoneyDto } from '../../../shared/contract.ts';
import { formatMoneyDto, formatTotals } from '../lib/money-display.ts';

export function MoneyText({ value }: { value: MoneyDto | null }) {
  return <span className="num">{value ? formatMoneyDto(value) : '—'}</span>;
}

export function Totals({ list, empty, testId }: { list: readonly MoneyDto[]; empty?: string; testId?: string }) {
  return (
    <span className="num" data-testid={testId}>
      {formatTotals(list, empty)}
    </span>
  );
}
