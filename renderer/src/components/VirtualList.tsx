// A windowed list with a fixed row height: only the rows in view (plus a few) are in the DOM, so a
// table of 10,000 rows scrolls as lightly as one of 20. The math lives in lib/windowing.ts.
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { visibleWindow } from '../lib/windowing.ts';

export interface VirtualListProps {
  total: number;
  rowHeight: number;
  renderRow: (index: number) => ReactNode;
  onRangeChange?: (start: number, end: number) => void;
  overscan?: number;
  className?: string;
  testId?: string;
  label: string;
  header?: ReactNode;
  /** Rows counted for assistive technology, including the header row. */
  ariaRowCount?: number;
}

export function VirtualList({ total, rowHeight, renderRow, onRangeChange, overscan = 8, className, testId, label, header, ariaRowCount }: VirtualListProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(480);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setViewport(el.clientHeight);
    const observer = new ResizeObserver(() => setViewport(el.clientHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const range = visibleWindow({ scrollTop, viewportHeight: viewport, rowHeight, total, overscan });

  useEffect(() => {
    onRangeChange?.(range.start, range.end);
  }, [range.start, range.end, onRangeChange]);

  const rows: ReactNode[] = [];
  for (let i = range.start; i < range.end; i++) rows.push(renderRow(i));

  return (
    <div
      ref={ref}
      className={`vlist ${className ?? ''}`}
      role="table"
      aria-label={label}
      aria-rowcount={ariaRowCount ?? total + 1}
      data-testid={testId}
      tabIndex={0}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
    >
      {header}
      <div role="rowgroup" style={{ height: range.totalHeight, position: 'relative' }}>
        <div style={{ transform: `translateY(${range.offsetTop}px)` }}>{rows}</div>
      </div>
    </div>
  );
}
