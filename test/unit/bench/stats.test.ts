import { describe, expect, it } from 'vitest';
import { evaluateTarget, formatTable, median, ratio, round } from '../../bench/stats.ts';

describe('bench helpers', () => {
  it('the median of an odd count is the middle value, whatever the order', () => {
    expect(median([9, 1, 5])).toBe(5);
  });

  it('the median of an even count is the mean of the two middle values', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('the median does not reorder the caller\'s array', () => {
    const runs = [3, 1, 2];
    median(runs);
    expect(runs).toEqual([3, 1, 2]);
  });

  it('the median of nothing is an error, not NaN', () => {
    expect(() => median([])).toThrow(RangeError);
  });

  it('a ratio needs a value and a positive baseline', () => {
    expect(ratio(300, 120)).toBe(2.5);
    expect(ratio(null, 120)).toBeNull();
    expect(ratio(300, 0)).toBeNull();
    expect(ratio(300, null)).toBeNull();
  });

  it('a ratio target passes at exactly the factor and fails just above it', () => {
    expect(evaluateTarget({ kind: 'ratio-max', factor: 2.5 }, 250, 100).pass).toBe(true);
    expect(evaluateTarget({ kind: 'ratio-max', factor: 2.5 }, 251, 100).pass).toBe(false);
    expect(evaluateTarget({ kind: 'ratio-max', factor: 2.5 }, 251, 100).compared).toBeCloseTo(2.51);
  });

  it('max and min targets include their limit; a "below" target does not', () => {
    expect(evaluateTarget({ kind: 'max', limit: 120 }, 120).pass).toBe(true);
    expect(evaluateTarget({ kind: 'max', limit: 0 }, 1).pass).toBe(false);
    expect(evaluateTarget({ kind: 'min', limit: 0.95 }, 0.95).pass).toBe(true);
    expect(evaluateTarget({ kind: 'min', limit: 0.95 }, 0.94).pass).toBe(false);
    expect(evaluateTarget({ kind: 'below', limit: 1 }, 1).pass).toBe(false);
    expect(evaluateTarget({ kind: 'below', limit: 1 }, 0.99).pass).toBe(true);
  });

  it('a figure that could not be measured neither passes nor fails', () => {
    expect(evaluateTarget({ kind: 'max', limit: 1000 }, null).pass).toBeNull();
    expect(evaluateTarget({ kind: 'ratio-max', factor: 1.5 }, 10, null).pass).toBeNull();
  });

  it('rounding keeps the asked digits and turns non-numbers into null', () => {
    expect(round(1.23456, 2)).toBe(1.23);
    expect(round(Number.NaN)).toBeNull();
    expect(round(null)).toBeNull();
  });

  it('the table shows each figure with its baseline, target and verdict', () => {
    const text = formatTable([
      { key: 'import_100k_ms', value: 300, baselineKey: 'papaparse_raw_100k_ms', baseline: 100, result: evaluateTarget({ kind: 'ratio-max', factor: 2.5 }, 300, 100) },
      { key: 'ui_table_10k_ms', value: null, baselineKey: null, baseline: null, result: evaluateTarget({ kind: 'max', limit: 1000 }, null) },
    ]);
    const lines = text.split('\n');
    expect(lines[2]).toContain('import_100k_ms');
    expect(lines[2]).toContain('papaparse_raw_100k_ms = 100');
    expect(lines[2]).toContain('(is 3×)');
    expect(lines[2]).toMatch(/FAIL$/);
    expect(lines[3]).toMatch(/^ui_table_10k_ms\s+n\/a/);
    expect(lines[3]).toMatch(/n\/a$/);
  });
});
