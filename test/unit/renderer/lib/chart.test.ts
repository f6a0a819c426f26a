import { describe, expect, it } from 'vitest';
import { axisLabels, bucketFor, chartGeometry, cumulative } from '../../../../renderer/src/lib/chart.ts';

describe('timeline chart', () => {
  it('turns buckets into running totals in time order', () => {
    const points = cumulative([
      { at: 2000, ordered: 1, delivered: 2 },
      { at: 1000, ordered: 5, delivered: 0 },
    ]);
    expect(points).toEqual([
      { at: 1000, ordered: 5, delivered: 0 },
      { at: 2000, ordered: 6, delivered: 2 },
    ]);
  });

  it('scales the highest running total to the top of the box and starts both lines at zero', () => {
    const g = chartGeometry(cumulative([{ at: 0, ordered: 4, delivered: 0 }, { at: 10, ordered: 0, delivered: 4 }]), { width: 100, height: 50, padding: 10 });
    expect(g?.maxY).toBe(4);
    expect(g?.ordered).toBe('M10.0,40.0 L10.0,10.0 L90.0,10.0');
    expect(g?.delivered).toBe('M10.0,40.0 L10.0,40.0 L90.0,10.0');
    expect(chartGeometry([], { width: 100, height: 50, padding: 10 })).toBeNull();
  });

  it('picks a bucket width that gives about sixty points', () => {
    expect(bucketFor(30_000)).toBe(1000);
    expect(bucketFor(3_600_000)).toBe(60_000);
    expect(bucketFor(30 * 86_400_000)).toBe(86_400_000);
  });

  it('labels the two ends of a short span distinctly: seconds under ten minutes, the end as a time on the same day', () => {
    const at = new Date(2026, 10, 25, 0, 44, 5).getTime();
    expect(axisLabels(at, at + 40_000)).toEqual({ start: '2026-11-25 00:44:05', end: '00:44:45' });
    expect(axisLabels(at, at + 3_600_000)).toEqual({ start: '2026-11-25 00:44', end: '01:44' });
    expect(axisLabels(at, at + 86_400_000)).toEqual({ start: '2026-11-25 00:44', end: '2026-11-26 00:44' });
    // One instant (a single point) is named once.
    expect(axisLabels(at, at)).toEqual({ start: '2026-11-25 00:44:05', end: null });
    expect(axisLabels(at, at + 300)).toEqual({ start: '2026-11-25 00:44:05', end: null });
  });
});
