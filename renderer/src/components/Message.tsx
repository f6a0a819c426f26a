// An inline message: errors are announced at once (role=alert), the rest politely.
import type { ReactNode } from 'react';

export function Message({ kind, children, onDismiss, testId }: { kind: 'info' | 'success' | 'error' | 'warning'; children: ReactNode; onDismiss?: () => void; testId?: string }) {
  return (
    <div className={`message message-${kind}`} role={kind === 'error' ? 'alert' : 'status'} data-testid={testId}>
      <div className="message-body">{children}</div>
      {onDismiss && (
        <button type="button" className="button-quiet" onClick={onDismiss} aria-label="Dismiss message">
          ×
        </button>
      )}
    </div>
  );
}
