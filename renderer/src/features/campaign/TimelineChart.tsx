// Ordered and delivered over time, as two cumulative lines in a small inline SVG.
import { useMemo } from 'react';
import { axisLabels, chartGeometry, cumulative } from '../../lib/chart.ts';
import { useCampaign } from '../../stores/hooks.ts';

const BOX = { width: 360, height: 140, padding: 12 };

export function TimelineChart() {
  const buckets = useCampaign((s) => s.timeline);
  const points = useMemo(() => cumulative(buckets), [buckets]);
  const geometry = useMemo(() => chartGeometry(points, BOX), [points]);
  const last = points[points.length - 1];
  const labels = geometry ? axisLabels(geometry.startAt, geometry.endAt) : null;
  return (
    <section className="card chart-card" aria-labelledby="timeline-title" data-testid="timeline">
      <div className="card-head">
        <h2 id="timeline-title">Over time</h2>
        <span className="legend small">
          <span className="legend-ordered">Ordered</span> <span className="legend-delivered">Delivered</span>
        </span>
      </div>
      {geometry && last && labels ? (
        <>
          <svg viewBox={`0 0 ${BOX.width} ${BOX.height}`} className="chart" role="img" aria-labelledby="timeline-desc" preserveAspectRatio="none">
            <desc id="timeline-desc">
              {last.ordered} ordered and {last.delivered} delivered{' '}
              {labels.end === null ? `at ${labels.start}` : `between ${labels.start} and ${labels.end}`}.
            </desc>
            <line x1={BOX.padding} x2={BOX.width - BOX.padding} y1={BOX.height - BOX.padding} y2={BOX.height - BOX.padding} className="chart-axis" />
            <path d={geometry.ordered} className="chart-ordered" />
            <path d={geometry.delivered} className="chart-delivered" />
          </svg>
          <div className="chart-labels small muted" data-testid="timeline-labels">
            <span data-testid="timeline-start">{labels.start}</span>
            <span>max {geometry.maxY}</span>
            <span data-testid="timeline-end">{labels.end ?? ''}</span>
          </div>
        </>
      ) : (
        <p className="muted small">Nothing sent yet. The chart fills in as gifts are ordered and delivered.</p>
      )}
    </section>
  );
}
