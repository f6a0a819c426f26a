import { useEffect } from 'react';
import { useApp, useStores } from '../stores/hooks.ts';

const FADE_AFTER_MS = 10_000;

export function Notices() {
  const notices = useApp((s) => s.notices);
  const stores = useStores();
  // Good news fades; an error stays until it is read and dismissed.
  useEffect(() => {
    const timers = notices.filter((n) => n.kind !== 'error').map((n) => window.setTimeout(() => stores.app.getState().dismissNotice(n.id), FADE_AFTER_MS));
    return () => timers.forEach((t) => window.clearTimeout(t));
  }, [notices, stores]);
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
