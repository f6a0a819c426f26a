import type { ReactNode } from 'react';
import { groupDigits } from '../lib/money-display.ts';

/** A figure with its label; `note`, when given, is a short line under the figure. */
export function Stat({
  label,
  value,
  tone,
  testId,
  note,
}: {
  label: string;
  value: number | string;
  tone?: 'ok' | 'bad' | 'warn' | 'active' | undefined;
  testId?: string;
  note?: ReactNode;
}) {
  return (
    <div className={`stat${tone ? ` stat-${tone}` : ''}`}>
      <span className="stat-label">{label}</span>
      <span className="stat-value num" data-testid={testId}>
        {typeof value === 'number' ? groupDigits(String(value)) : value}
      </span>
      {note}
    </div>
  );
}
