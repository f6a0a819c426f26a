// One environment: use it, its address, its key (never shown back, only "set, ending …1234"),
// its request rate, and a connection test with a plain result.
import { useState } from 'react';
import type { EnvironmentInfo, EnvironmentName } from '../../../../shared/contract.ts';
import { ENVIRONMENT_LABELS } from '../../components/Header.tsx';
import { Message } from '../../components/Message.tsx';
import { uiOf } from '../../stores/environments-store.ts';
import { useEnvironments, useStores } from '../../stores/hooks.ts';
import { KeyForm } from './KeyForm.tsx';

const DESCRIPTIONS: Readonly<Record<EnvironmentName, string>> = {
  simulator: 'Built into Giftbatch. Orders are simulated: no real gifts, no charges, no key needed.',
  sandbox: "The service's test environment: real API, test balance, gifts not delivered for real.",
  production: 'The real service: real gifts are e-mailed and your balance is charged.',
};

export function EnvironmentCard({ env, inUse }: { env: EnvironmentInfo; inUse: boolean }) {
  const stores = useStores();
  const ui = useEnvironments((s) => uiOf(s, env.name));
  const [baseUrl, setBaseUrl] = useState(env.baseUrl ?? '');
  const [rate, setRate] = useState(String(env.rate));
  const actions = stores.environments.getState();
  const id = `env-${env.name}`;
  const rateNumber = Number(rate);
  const rateValid = rate.trim() !== '' && Number.isFinite(rateNumber) && rateNumber > 0 && rateNumber <= 1000;

  return (
    <article className={`card env-card${inUse ? ' env-card-current' : ''}`} data-testid={id} aria-labelledby={`${id}-title`}>
      <header className="card-head">
        <h2 id={`${id}-title`}>{ENVIRONMENT_LABELS[env.name]}</h2>
        {inUse ? (
          <span className="badge badge-ok" data-testid={`${id}-in-use`}>
            In use
          </span>
        ) : (
          <button type="button" data-testid={`${id}-use`} disabled={ui.busy !== null} onClick={() => void actions.select(env.name)}>
            Use {ENVIRONMENT_LABELS[env.name]}
          </button>
        )}
      </header>
      <p className="muted">{DESCRIPTIONS[env.name]}</p>
      {ui.confirmUse && !inUse && (
        <Message kind="warning" testId={`${id}-use-warning`}>
          <strong>The last connection test of {ENVIRONMENT_LABELS[env.name]} failed</strong> (its answer is under Test connection below):
          campaigns sent here would fail the same way. Fix the address or key and test again, or use it anyway.
          <span className="actions actions-inline">
            <button type="button" data-testid={`${id}-use-anyway`} disabled={ui.busy !== null} onClick={() => void actions.select(env.name, { despiteFailedTest: true })}>
              Use {ENVIRONMENT_LABELS[env.name]} anyway
            </button>
            <button type="button" className="button-quiet" onClick={() => actions.cancelUse(env.name)}>
              Cancel
            </button>
          </span>
        </Message>
      )}

      {!env.simulated && (
        <form
          className="field-row"
          onSubmit={(e) => {
            e.preventDefault();
            void actions.update(env.name, { baseUrl: baseUrl.trim() === '' ? null : baseUrl.trim() });
          }}
        >
          <label htmlFor={`${id}-url`}>Service address</label>
          <input id={`${id}-url`} type="url" placeholder="https://…" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} data-testid={`${id}-url`} />
          <button type="submit" disabled={ui.busy !== null} data-testid={`${id}-url-save`}>
            Save address
          </button>
        </form>
      )}

      {env.simulated ? <p className="key-status">No key needed.</p> : <KeyForm env={env} busy={ui.busy !== null} />}

      <form
        className="field-row"
        onSubmit={(e) => {
          e.preventDefault();
          if (rateValid) void actions.update(env.name, { rate: rateNumber });
        }}
      >
        <label htmlFor={`${id}-rate`}>Requests per second</label>
        <input
          id={`${id}-rate`}
          type="number"
          min="0.1"
          max="1000"
          step="0.1"
          value={rate}
          onChange={(e) => setRate(e.target.value)}
          aria-describedby={`${id}-rate-help`}
          aria-invalid={!rateValid}
          className="input-narrow"
        />
        <button type="submit" disabled={ui.busy !== null || !rateValid}>
          Save rate
        </button>
        <span id={`${id}-rate-help`} className="muted small">
          Shared by sending and checking. Lower it if the service answers “too many requests”.
        </span>
      </form>

      <div className="card-foot">
        <button type="button" data-testid={`${id}-test`} disabled={ui.busy !== null} onClick={() => void actions.test(env.name)}>
          {ui.busy === 'test' ? 'Testing…' : 'Test connection'}
        </button>
        {ui.test && (
          <Message kind={ui.test.ok ? 'success' : 'error'} testId={`${id}-test-result`}>
            {ui.test.ok ? '✓ ' : '✗ '}
            {ui.test.message}
          </Message>
        )}
        {ui.error && (
          <Message kind="error" testId={`${id}-error`}>
            {ui.error}
          </Message>
        )}
        {ui.saved && <span className="muted small" role="status">{ui.saved}</span>}
      </div>
    </article>
  );
}
