// One campaign: where it stands, what it cost, how it went over time, and every row.
import { useCallback, useEffect, useState } from 'react';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Message } from '../../components/Message.tsx';
import { campaignProductsText } from '../../lib/products.ts';
import { useCampaign, useStores } from '../../stores/hooks.ts';
import { CampaignActions, canFixRows } from './CampaignActions.tsx';
import { ChargedTotals } from './ChargedTotals.tsx';
import { FixRowsPanel } from './FixRowsPanel.tsx';
import { HeldRows, showsHeldRows } from './HeldRows.tsx';
import { ProgressPanel } from './ProgressPanel.tsx';
import { RowsSection } from './RowsSection.tsx';
import { StatusBanner } from './StatusBanner.tsx';
import { TimelineChart } from './TimelineChart.tsx';

export function CampaignScreen({ id }: { id: string }) {
  const stores = useStores();
  const status = useCampaign((s) => s.status);
  const error = useCampaign((s) => s.error);
  const summary = useCampaign((s) => (s.id === id ? s.summary : null));
  const message = useCampaign((s) => s.message);
  // The rows to fix, open on this screen; `send`: straight to the first send's confirmation.
  const [fixing, setFixing] = useState<{ send: boolean } | null>(null);
  const closeFix = useCallback(() => setFixing(null), []);

  useEffect(() => {
    setFixing(null);
    void stores.campaign.getState().open(id);
  }, [stores, id]);

  if (status === 'failed' && error) {
    return (
      <EmptyState title="This campaign could not be opened" level={1} testId="campaign-error">
        <p>{error.message}</p>
        <button type="button" onClick={() => stores.app.getState().navigate({ name: 'campaigns' })}>
          Back to the campaigns
        </button>
      </EmptyState>
    );
  }
  if (!summary) return <p className="muted" role="status">Loading the campaign…</p>;

  return (
    <section className="campaign" aria-labelledby="campaign-title" data-testid="campaign-screen" data-campaign-id={summary.id} data-send-state={summary.sendState} data-running={summary.running ? 'true' : 'false'}>
      <div className="title-row">
        <div>
          <h1 id="campaign-title">{summary.name}</h1>
          <p className="muted" data-testid="campaign-product">
            {campaignProductsText(summary)} · {summary.currency}
          </p>
        </div>
        <CampaignActions summary={summary} fixing={fixing !== null} onFix={(send) => setFixing({ send })} />
      </div>
      <StatusBanner
        summary={summary}
        onFix={fixing === null && canFixRows(summary) ? () => setFixing({ send: false }) : undefined}
        onOpenCampaign={(campaignId) => stores.app.getState().navigate({ name: 'campaign', id: campaignId })}
      />
      {message && (
        <Message kind={message.kind} onDismiss={() => stores.campaign.getState().clearMessage()} testId="campaign-message">
          {message.text}
        </Message>
      )}
      {showsHeldRows(summary) && <HeldRows summary={summary} />}
      {fixing && <FixRowsPanel key={summary.id} summary={summary} sendOnOpen={fixing.send} onClose={closeFix} />}
      <div className="campaign-overview">
        <ProgressPanel summary={summary} />
        <ChargedTotals summary={summary} />
        <TimelineChart />
      </div>
      <RowsSection />
    </section>
  );
}
