import type { MoneyDto, RowDto } from '../../../shared/contract.ts';
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

/**
 * A row's amount; when the file (or the last edit) wrote one that was not accepted ("25" for a fixed
 * price of 10, "ten"), that text, struck through, so the organiser sees what was written without
 * opening the editor. "—" only when nothing was written.
 */
export function RowAmount({ row }: { row: Pick<RowDto, 'amount' | 'amountText'> }) {
  if (row.amount) return <>{formatMoneyDto(row.amount)}</>;
  if (row.amountText === null || row.amountText === '') return <>—</>;
  return (
    <s className="amount-refused" title={`“${row.amountText}” as written: not accepted`} data-testid="row-amount-text">
      {row.amountText}
      <span className="visually-hidden"> (not accepted)</span>
    </s>
  );
}
