// Every campaign with its state and totals; an interrupted one says what was sent, what is left,
// and offers Resume.
import { useEffect, useState } from 'react';
import type { CampaignSummary } from '../../../../shared/contract.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Message } from '../../components/Message.tsx';
import { useCampaigns, useStores } from '../../stores/hooks.ts';
import { ResumeDialog } from '../campaign/ResumeDialog.tsx';
import { openNewCampaign } from '../new-campaign/DiscardNewCampaign.tsx';
import { CampaignRow } from './CampaignRow.tsx';

export function CampaignsScreen() {
  const stores = useStores();
  const status = useCampaigns((s) => s.status);
  const error = useCampaigns((s) => s.error);
  const campaigns = useCampaigns((s) => s.campaigns);
  const [resuming, setResuming] = useState<CampaignSummary | null>(null);

  useEffect(() => {
    void stores.campaigns.getState().load();
  }, [stores]);

  // Back to the new campaign in progress, if any, as it was left; else an empty one.
  const startNew = (): void => openNewCampaign(stores);

  return (
    <section aria-labelledby="campaigns-title" data-testid="campaigns-screen" data-loaded={status === 'ready' ? 'true' : 'false'}>
      <div className="title-row">
        <h1 id="campaigns-title">Campaigns</h1>
        <button type="button" className="button-primary" onClick={startNew} data-testid="campaigns-new">
          New campaign
        </button>
      </div>
      {status === 'failed' && error && (
        <Message kind="error">
          Could not load the campaigns: {error.message}{' '}
          <button type="button" onClick={() => void stores.campaigns.getState().load()}>
            Try again
          </button>
        </Message>
      )}
      {status === 'loading' && <p className="muted">Loading campaigns…</p>}
      {status === 'ready' && campaigns.length === 0 && (
        <EmptyState title="No campaigns yet" testId="campaigns-empty">
          <p>A campaign sends one gift to each person on a list. Start one, or try the Simulator with the sample list first.</p>
          <button type="button" className="button-primary" onClick={startNew}>
            New campaign
          </button>
        </EmptyState>
      )}
      {campaigns.length > 0 && (
        <table className="table campaigns-table" data-testid="campaigns-table">
          <thead>
            <tr>
              <th scope="col">Campaign</th>
              <th scope="col">State</th>
              <th scope="col">Delivered</th>
              <th scope="col">Charged</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {campaigns.map((c) => (
              <CampaignRow key={c.id} campaign={c} onResume={() => setResuming(c)} />
            ))}
          </tbody>
        </table>
      )}
      <ResumeDialog
        campaign={resuming}
        onClose={() => setResuming(null)}
        onConfirm={async (choices) => {
          if (!resuming) return null;
          const refusal = await stores.campaigns.getState().resume(resuming.id, choices);
          if (refusal === null) stores.app.getState().navigate({ name: 'campaign', id: resuming.id });
          return refusal;
        }}
      />
    </section>
  );
}
