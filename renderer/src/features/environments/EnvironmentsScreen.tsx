// Environments & key: which service Giftbatch talks to, with which key, at what rate.
import { useEffect } from 'react';
import { Message } from '../../components/Message.tsx';
import { useApp, useEnvironments, useStores } from '../../stores/hooks.ts';
import { EnvironmentCard } from './EnvironmentCard.tsx';

export function EnvironmentsScreen() {
  const stores = useStores();
  const status = useEnvironments((s) => s.status);
  const error = useEnvironments((s) => s.error);
  const environments = useEnvironments((s) => s.environments);
  const current = useEnvironments((s) => s.current);
  const keychain = useApp((s) => s.info?.keychain ?? null);

  useEffect(() => {
    void stores.environments.getState().load();
  }, [stores]);

  return (
    <section aria-labelledby="env-title" data-testid="environments-screen">
      <h1 id="env-title">Environments &amp; key</h1>
      <p className="lead">
        The Simulator is built in and sends nothing real. Sandbox and Production are the gift service itself: each has its own
        address and its own API key.
      </p>
      {keychain && !keychain.available && (
        <Message kind="warning" testId="keychain-notice">
          <strong>No keychain on this computer.</strong>{' '}
          {keychain.notice ?? 'A key you enter is kept for this session only and must be entered again after a restart.'}
          {keychain.detail && (
            <details className="support-detail" data-testid="keychain-detail">
              <summary>Details for support</summary>
              <span className="mono small">{keychain.detail}</span>
            </details>
          )}
        </Message>
      )}
      {status === 'failed' && error && (
        <Message kind="error">
          Could not read the environments: {error.message}{' '}
          <button type="button" onClick={() => void stores.environments.getState().load()}>
            Try again
          </button>
        </Message>
      )}
      {status === 'loading' && <p className="muted">Loading environments…</p>}
      <div className="env-grid">
        {environments.map((env) => (
          <EnvironmentCard key={env.name} env={env} inUse={env.name === current} />
        ))}
      </div>
    </section>
  );
}
