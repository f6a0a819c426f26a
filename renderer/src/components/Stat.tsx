import { groupDigits } from '../lib/money-display.ts';

export function Stat({ label, value, tone, testId }: { label: string; value: number | string; tone?: 'ok' | 'bad' | 'warn' | 'active' | undefined; testId?: string }) {
  return (
    <div className={`stat${tone ? ` stat-${tone}` : ''}`}>
      <span className="stat-label">{label}</span>
      <span className="stat-value num" data-testid={testId}>
        {typeof value === 'number' ? groupDigits(String(value)) : value}
      </span>
    </div>
  );
}
