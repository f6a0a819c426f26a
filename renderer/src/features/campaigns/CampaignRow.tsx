import type { CampaignSummary } from '../../../../shared/contract.ts';
import { plural } from '../../../../shared/domain/plural.ts';
import { ENVIRONMENT_LABELS } from '../../components/Header.tsx';
import { Totals } from '../../components/Money.tsx';
import { campaignProductsText } from '../../lib/products.ts';
import { formatDateTime } from '../../lib/time.ts';
import { interruptedSummary } from '../../stores/campaigns-store.ts';
import { useStores } from '../../stores/hooks.ts';
import { useDiscardGuard } from '../new-campaign/DiscardNewCampaign.tsx';
import { campaignState, giftRows } from './campaign-state.ts';

export function CampaignRow({ campaign: c, onResume }: { campaign: CampaignSummary; onResume: () => void }) {
  const stores = useStores();
  const state = campaignState(c);
  const interrupted = c.sendState === 'paused' && c.pausedReason === 'interrupted';
  const { left, progress } = interruptedSummary(c);
  // A draft opens in the wizard: a new campaign in progress there is asked about first.
  const discard = useDiscardGuard();
  const open = (): void => {
    if (c.sendState === 'draft')
      discard.guard(() => {
        void stores.wizard.getState().openDraft(c);
        stores.app.getState().navigate({ name: 'new' });
      });
    else stores.app.getState().navigate({ name: 'campaign', id: c.id });
  };
  return (
    <tr data-testid="campaign-row" data-campaign-id={c.id} data-send-state={c.sendState} data-paused-reason={c.pausedReason ?? ''} className={interrupted || c.flagged > 0 ? 'row-flagged' : undefined}>
      <td>
        <button type="button" className="link" onClick={open} data-testid="campaign-open">
          {c.name}
        </button>
        {discard.dialog}
        <div className="muted small">
          {campaignProductsText(c)} · {ENVIRONMENT_LABELS[c.environment]}
        </div>
        {c.flagged > 0 && (
          <div className="flag" data-testid="campaign-flagged">
            {plural(c.flagged, 'row')} flagged: the service's answer differed from what was asked, or could not be read.
          </div>
        )}
        {interrupted && (
          <div className="flag" data-testid="campaign-interrupted">
            Interrupted: {progress}. Nothing more is sent until you resume.
          </div>
        )}
      </td>
      <td>
        <span className={`status status-${state.tone}`}>{state.label}</span>
      </td>
      <td className="num">
        {c.counts.delivered} / {giftRows(c)}
      </td>
      <td>
        <Totals list={c.charged} stated />
      </td>
      <td className="small">{formatDateTime(c.createdAt)}</td>
      <td className="cell-actions">
        {c.sendState === 'paused' && left > 0 ? (
          <button type="button" className={interrupted ? 'button-primary' : undefined} onClick={onResume} data-testid="campaign-resume">
            Resume
          </button>
        ) : (
          <button type="button" onClick={open}>
            {c.sendState === 'draft' ? 'Review' : 'Open'}
          </button>
        )}
      </td>
    </tr>
  );
}
