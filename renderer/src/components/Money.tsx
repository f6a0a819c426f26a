import type { MoneyDto } from '../../../shared/contract.ts';
import { formatMoneyDto, formatStated, formatTotals } from '../lib/money-display.ts';

export function MoneyText({ value }: { value: MoneyDto | null }) {
  return <span className="num">{value ? formatMoneyDto(value) : '—'}</span>;
}

/** `stated`: amounts the service stated (charges), shown exactly as given, extra decimals included. */
export function Totals({ list, empty, testId, stated }: { list: readonly MoneyDto[]; empty?: string; testId?: string; stated?: boolean }) {
  return (
    <span className="num" data-testid={testId}>
      {formatTotals(list, empty, stated ? formatStated : formatMoneyDto)}
    </span>
  );
}
