// The arithmetic of a windowed list with a fixed row height: which rows are in the DOM for a given
// scroll position, and which pages of rows must be fetched to draw them.

export interface WindowInput {
  scrollTop: number;
  viewportHeight: number;
  rowHeight: number;
  total: number;
  /** Extra rows drawn above and below the viewport so a fast scroll shows no gap. */
  overscan: number;
}

export interface WindowRange {
  /** First row index drawn (inclusive). */
  start: number;
  /** One past the last row index drawn. */
  end: number;
  /** Where the first drawn row sits, in pixels from the top of the content. */
  offsetTop: number;
  /** Height of the whole content, so the scrollbar is right. */
  totalHeight: number;
}

export function visibleWindow(input: WindowInput): WindowRange {
  const total = Math.max(0, Math.floor(input.total));
  const rowHeight = Math.max(1, input.rowHeight);
  const totalHeight = total * rowHeight;
  if (total === 0) return { start: 0, end: 0, offsetTop: 0, totalHeight: 0 };
  const maxScroll = Math.max(0, totalHeight - input.viewportHeight);
  const scrollTop = Math.min(Math.max(0, input.scrollTop), maxScroll);
  const first = Math.floor(scrollTop / rowHeight);
  const visibleCount = Math.ceil(Math.max(0, input.viewportHeight) / rowHeight) + 1;
  const start = Math.max(0, first - input.overscan);
  const end = Math.min(total, first + visibleCount + input.overscan);
  return { start, end, offsetTop: start * rowHeight, totalHeight };
}

/** The page indices (of `pageSize` rows each) that cover rows [start, end). */
export function pagesCovering(start: number, end: number, pageSize: number): number[] {
  if (end <= start) return [];
  const first = Math.floor(start / pageSize);
  const last = Math.floor((end - 1) / pageSize);
  const pages: number[] = [];
  for (let p = first; p <= last; p++) pages.push(p);
  return pages;
}

/** The scrollTop that brings row `index` into view, or null when it already is. */
export function scrollToReveal(index: number, scrollTop: number, viewportHeight: number, rowHeight: number): number | null {
  const top = index * rowHeight;
  const bottom = top + rowHeight;
  if (top < scrollTop) return top;
  if (bottom > scrollTop + viewportHeight) return bottom - viewportHeight;
  return null;
}
