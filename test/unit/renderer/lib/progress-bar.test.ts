import { describe, expect, it } from 'vitest';
import { fillStyle, progressBar } from '../../../../renderer/src/lib/progress-bar.ts';

describe('campaign progress bar', () => {
  it('states sent rows in whole percent and scales the sent fill to that percent', () => {
    expect(progressBar(2726, 0, 10_000)).toEqual({ pctSent: 27, sentScale: 0.27, deliveredScale: 0 });
    expect(progressBar(1, 0, 3)).toEqual({ pctSent: 33, sentScale: 0.33, deliveredScale: 0 });
    expect(progressBar(9989, 0, 10_000).pctSent).toBe(100);
  });

  it('scales the delivered fill to the exact fraction of rows delivered', () => {
    expect(progressBar(10, 1, 3).deliveredScale).toBeCloseTo(1 / 3, 12);
    expect(progressBar(10_000, 10_000, 10_000)).toEqual({ pctSent: 100, sentScale: 1, deliveredScale: 1 });
  });

  it('draws empty fills for a campaign without rows, and never past the bar', () => {
    expect(progressBar(0, 0, 0)).toEqual({ pctSent: 0, sentScale: 0, deliveredScale: 0 });
    expect(progressBar(5, 7, 4)).toMatchObject({ sentScale: 1, deliveredScale: 1 });
    expect(progressBar(-1, -1, 4)).toMatchObject({ sentScale: 0, deliveredScale: 0 });
  });

  it('scales a fill (transform, animated off the main thread) rather than sizing it (width, laid out every frame)', () => {
    expect(fillStyle(0.27)).toEqual({ transform: 'scaleX(0.27)' });
    expect(fillStyle(0)).toEqual({ transform: 'scaleX(0)' });
    expect(fillStyle(2)).toEqual({ transform: 'scaleX(1)' });
    expect(fillStyle(Number.NaN)).toEqual({ transform: 'scaleX(0)' });
    expect(Object.keys(fillStyle(0.5))).not.toContain('width');
  });
});
