import { describe, expect, it } from 'vitest';
import { pagesCovering, scrollToReveal, visibleWindow } from '../../../../renderer/src/lib/windowing.ts';

describe('visibleWindow', () => {
  it('draws only the rows in view plus the overscan, never all of a long list', () => {
    const w = visibleWindow({ scrollTop: 0, viewportHeight: 480, rowHeight: 48, total: 10_000, overscan: 5 });
    expect(w).toEqual({ start: 0, end: 16, offsetTop: 0, totalHeight: 480_000 });
  });

  it('places the first drawn row at its own offset when scrolled to the middle', () => {
    const w = visibleWindow({ scrollTop: 48 * 5000 + 20, viewportHeight: 480, rowHeight: 48, total: 10_000, overscan: 5 });
    expect(w.start).toBe(4995);
    expect(w.end).toBe(5016);
    expect(w.offsetTop).toBe(4995 * 48);
  });

  it('clamps a scroll past the end (a list that shrank under the scrollbar) to the last rows', () => {
    const w = visibleWindow({ scrollTop: 1_000_000, viewportHeight: 480, rowHeight: 48, total: 100, overscan: 2 });
    expect(w.end).toBe(100);
    expect(w.start).toBe(88);
  });

  it('draws nothing for an empty list', () => {
    expect(visibleWindow({ scrollTop: 0, viewportHeight: 480, rowHeight: 48, total: 0, overscan: 5 })).toEqual({ start: 0, end: 0, offsetTop: 0, totalHeight: 0 });
  });
});

describe('pagesCovering', () => {
  it('names every page that holds a drawn row, across a page boundary', () => {
    expect(pagesCovering(190, 215, 200)).toEqual([0, 1]);
    expect(pagesCovering(0, 200, 200)).toEqual([0]);
    expect(pagesCovering(5, 5, 200)).toEqual([]);
  });
});

describe('scrollToReveal', () => {
  it('scrolls only as far as needed to show a row, and not at all when it is in view', () => {
    expect(scrollToReveal(10, 0, 480, 48)).toBe(48);
    expect(scrollToReveal(2, 0, 480, 48)).toBeNull();
    expect(scrollToReveal(0, 100, 480, 48)).toBe(0);
  });
});
