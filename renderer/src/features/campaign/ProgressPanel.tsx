// Counters per state and a progress bar: the rows sent (ordered or settled, drawn as waiting) and, over
// them, the rows delivered. Its words say what is only ordered, so an ordered campaign never reads as done.
import type { CampaignSummary } from '../../../../shared/contract.ts';
import { Stat } from '../../components/Stat.tsx';
import { fillStyle, progressBar } from '../../lib/progress-bar.ts';
import { campaignState, giftRows, progressCaption, sentRows } from '../campaigns/campaign-state.ts';

export function ProgressPanel({ summary: c }: { summary: CampaignSummary }) {
  const k = c.counts;
  // The bar and its words count the same rows: those meant to get a gift.
  const total = giftRows(c);
  const sent = sentRows(c);
  const delivered = k.delivered;
  const { sentScale, deliveredScale } = progressBar(sent, delivered, total);
  const caption = progressCaption(c);
  const state = campaignState(c);
  return (
    <section className="card progress-card" aria-labelledby="progress-title" data-testid="progress">
      <div className="card-head">
        <h2 id="progress-title">Progress</h2>
        <span className={`status status-${state.tone}`} data-testid="campaign-state">
          {state.label}
        </span>
      </div>
      <div
        className="progress"
        role="progressbar"
        aria-label="Rows delivered"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={delivered}
        aria-valuetext={caption}
      >
        <div className="progress-sent" style={fillStyle(sentScale)} />
        <div className="progress-delivered" style={fillStyle(deliveredScale)} />
      </div>
      <p className="small muted" data-testid="progress-caption">
        {caption}
      </p>
      <div className="summary-cards">
        <Stat label="To send" value={k.ready + k.sending} tone={k.sending > 0 ? 'active' : undefined} testId="count-to-send" />
        <Stat label="Ordered" value={k.ordered} tone={k.ordered > 0 ? 'active' : undefined} testId="count-ordered" />
        <Stat label="Delivered" value={k.delivered} tone="ok" testId="count-delivered" />
        <Stat label="Failed" value={k.failed} tone={k.failed > 0 ? 'bad' : undefined} testId="count-failed" />
        {k.cancelled > 0 && <Stat label="Cancelled" value={k.cancelled} tone="bad" />}
        {k.skipped > 0 && <Stat label="Skipped" value={k.skipped} />}
        {k.invalid > 0 && <Stat label="Need fixing" value={k.invalid} tone="warn" />}
        {c.flagged > 0 && <Stat label="Flagged" value={c.flagged} tone="bad" testId="count-flagged" />}
      </div>
    </section>
  );
}
