import { useApp, useStores } from '../stores/hooks.ts';

export function Notices() {
  const notices = useApp((s) => s.notices);
  const stores = useStores();
  // Good news fades 10 s after it appeared (the app store times each notice); an error stays until it is read and dismissed.
  return (
    <div className="notices" aria-live="polite">
      {notices.map((n) => (
        <div key={n.id} className={`notice notice-${n.kind}`} role={n.kind === 'error' ? 'alert' : 'status'} data-testid="notice">
          <span>
            {n.campaign && <strong className="notice-campaign">{n.campaign.name}: </strong>}
            {n.text}
          </span>
          <button type="button" className="button-quiet" aria-label="Dismiss" onClick={() => stores.app.getState().dismissNotice(n.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
