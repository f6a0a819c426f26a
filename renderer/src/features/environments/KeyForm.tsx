// The API key goes in and never comes back: after saving, only "set, ending …1234" is shown.
import { useState } from 'react';
import type { EnvironmentInfo } from '../../../../shared/contract.ts';
import { useStores } from '../../stores/hooks.ts';

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
        onChange={(e) => setKey(e.target.value)}
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
    </form>
  );
}
