// The API key goes in and never comes back: after saving, only "set, ending …1234" is shown.
import { useState } from 'react';
import type { EnvironmentInfo } from '../../../../shared/contract.ts';
import { uiOf } from '../../stores/environments-store.ts';
import { useEnvironments, useStores } from '../../stores/hooks.ts';

const SOURCES: Record<EnvironmentInfo['keySource'], string> = {
  keychain: 'stored in the keychain',
  session: 'kept for this session only',
  env: 'from the GIFTBATCH_API_KEY variable',
  simulator: 'not needed',
  none: '',
};

export function KeyForm({ env, busy }: { env: EnvironmentInfo; busy: boolean }) {
  const stores = useStores();
  const [key, setKey] = useState('');
  const keyError = useEnvironments((s) => uiOf(s, env.name).keyError);
  const id = `env-${env.name}-key`;
  return (
    <form
      className="field-row"
      onSubmit={async (e) => {
        e.preventDefault();
        if (key.trim() === '') return;
        const saved = await stores.environments.getState().setKey(env.name, key.trim());
        if (saved) setKey('');
      }}
    >
      <label htmlFor={id}>API key</label>
      <span className="key-status" data-testid={`${id}-status`}>
        {env.key.set ? (
          <>
            Set, ending <span className="mono">…{env.key.endsWith ?? ''}</span>
            {SOURCES[env.keySource] && <span className="muted"> ({SOURCES[env.keySource]})</span>}
          </>
        ) : (
          'Not set'
        )}
      </span>
      <input
        id={id}
        type="password"
        autoComplete="off"
        spellCheck={false}
        placeholder={env.key.set ? 'Enter a new key to replace it' : 'Paste the API key'}
        value={key}
        onChange={(e) => {
          setKey(e.target.value);
          stores.environments.getState().keyEdited(env.name);
        }}
        aria-invalid={keyError !== null}
        aria-describedby={keyError !== null ? `${id}-error` : undefined}
        data-testid={id}
      />
      <button type="submit" disabled={busy || key.trim() === ''} data-testid={`${id}-save`}>
        Save key
      </button>
      {env.key.set && env.keySource !== 'env' && (
        <button type="button" className="button-quiet" disabled={busy} onClick={() => void stores.environments.getState().clearKey(env.name)}>
          Remove key
        </button>
      )}
      {keyError !== null && (
        <span id={`${id}-error`} className="field-error" role="alert" data-testid={`${id}-error`}>
          Key not saved: {keyError}
        </span>
      )}
    </form>
  );
}
