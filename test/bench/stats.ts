// Pure helpers of the benchmark: medians, ratios, targets and the human table. No I/O here, so
// test/unit/bench/stats.test.ts can pin them.

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** `value / baseline`, or null when either is missing or the baseline is not positive. */
export function ratio(value: number | null, baseline: number | null): number | null {
  if (value === null || baseline === null || !Number.isFinite(value) || !Number.isFinite(baseline) || baseline <= 0) return null;
  return value / baseline;
}

export function round(value: number | null, digits = 2): number | null {
  if (value === null || !Number.isFinite(value)) return null;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** How a figure is judged: against a fixed limit, or against a multiple of its baseline. */
export type Target =
  | { readonly kind: 'max'; readonly limit: number }
  | { readonly kind: 'min'; readonly limit: number }
  /** value < limit (strict). */
  | { readonly kind: 'below'; readonly limit: number }
  /** value ≤ factor × baseline. */
  | { readonly kind: 'ratio-max'; readonly factor: number };

export interface TargetResult {
  /** What the figure was compared with, as a sentence fragment ("≤ 2.5 × 118.2"). */
  readonly target: string;
  /** The figure that was compared: the value, or value ÷ baseline for ratio targets. */
  readonly compared: number | null;
  /** null when the figure could not be measured. */
  readonly pass: boolean | null;
}

export function evaluateTarget(target: Target, value: number | null, baseline: number | null = null): TargetResult {
  switch (target.kind) {
    case 'max':
      return { target: `≤ ${target.limit}`, compared: value, pass: value === null ? null : value <= target.limit };
    case 'min':
      return { target: `≥ ${target.limit}`, compared: value, pass: value === null ? null : value >= target.limit };
    case 'below':
      return { target: `< ${target.limit}`, compared: value, pass: value === null ? null : value < target.limit };
    case 'ratio-max': {
      const r = ratio(value, baseline);
      return { target: `≤ ${target.factor} × baseline`, compared: r, pass: r === null ? null : r <= target.factor };
    }
  }
}

export interface TableRow {
  readonly key: string;
  readonly value: number | null;
  readonly baselineKey: string | null;
  readonly baseline: number | null;
  readonly result: TargetResult;
}

/** A plain-text table, one line per figure, for the terminal. */
export function formatTable(rows: readonly TableRow[]): string {
  const cells = rows.map((r) => [
    r.key,
    r.value === null ? 'n/a' : String(round(r.value, 2)),
    r.baselineKey === null ? '' : `${r.baselineKey} = ${r.baseline === null ? 'n/a' : String(round(r.baseline, 2))}`,
    r.result.target + (r.result.compared !== null && r.baselineKey !== null ? ` (is ${String(round(r.result.compared, 2))}×)` : ''),
    r.result.pass === null ? 'n/a' : r.result.pass ? 'pass' : 'FAIL',
  ]);
  const header = ['figure', 'value', 'baseline', 'target', 'result'];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (c: readonly string[]) => c.map((text, i) => text.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}
