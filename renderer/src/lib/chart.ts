// The timeline chart's geometry: buckets of ordered/delivered counts become two cumulative lines
// in an SVG viewBox. No chart library: two paths and a few labels.
import { formatDateTime } from './time.ts';

export interface Bucket {
  at: number;
  ordered: number;
  delivered: number;
}

export interface CumulativePoint {
  at: number;
  ordered: number;
  delivered: number;
}

export function cumulative(buckets: readonly Bucket[]): CumulativePoint[] {
  const sorted = [...buckets].sort((a, b) => a.at - b.at);
  let ordered = 0;
  let delivered = 0;
  return sorted.map((b) => {
    ordered += b.ordered;
    delivered += b.delivered;
    return { at: b.at, ordered, delivered };
  });
}

export interface ChartBox {
  width: number;
  height: number;
  padding: number;
}

export interface ChartGeometry {
  ordered: string;
  delivered: string;
  maxY: number;
  startAt: number;
  endAt: number;
}

/** Step-free polylines from the first to the last bucket; y grows downwards in SVG, hence the flip. */
export function chartGeometry(points: readonly CumulativePoint[], box: ChartBox): ChartGeometry | null {
  const first = points[0];
  const last = points[points.length - 1];
  if (!first || !last) return null;
  const maxY = Math.max(1, ...points.map((p) => Math.max(p.ordered, p.delivered)));
  const span = Math.max(1, last.at - first.at);
  const innerW = box.width - box.padding * 2;
  const innerH = box.height - box.padding * 2;
  const x = (at: number): number => box.padding + (points.length === 1 ? innerW : ((at - first.at) / span) * innerW);
  const y = (v: number): number => box.padding + innerH - (v / maxY) * innerH;
  const path = (key: 'ordered' | 'delivered'): string => {
    const start = `M${box.padding.toFixed(1)},${y(0).toFixed(1)}`;
    return start + points.map((p) => ` L${x(p.at).toFixed(1)},${y(p[key]).toFixed(1)}`).join('');
  };
  return { ordered: path('ordered'), delivered: path('delivered'), maxY, startAt: first.at, endAt: last.at };
}

/** A bucket width that gives the chart about 60 points over the campaign's life so far. */
export function bucketFor(spanMs: number): number {
  const raw = Math.ceil(Math.max(0, spanMs) / 60);
  const steps = [1000, 5000, 10_000, 30_000, 60_000, 300_000, 900_000, 3_600_000, 21_600_000, 86_400_000];
  return steps.find((s) => s >= raw) ?? 86_400_000;
}

/**
 * The chart's two time labels, distinct whenever the span allows: the start as a date and time, the end
 * as a time only on the same day; seconds when the span is under ten minutes (a small campaign orders
 * all its gifts within one minute). `end` is null when there is one instant to name (one point).
 */
export function axisLabels(startAt: number, endAt: number): { start: string; end: string | null } {
  const withSeconds = endAt - startAt < 600_000;
  const start = formatDateTime(startAt, { seconds: withSeconds });
  const end = formatDateTime(endAt, { seconds: withSeconds });
  if (end === start) return { start, end: null };
  const sameDay = start.slice(0, 10) === end.slice(0, 10);
  return { start, end: sameDay ? end.slice(11) : end };
}
