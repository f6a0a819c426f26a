import { describe, expect, it } from 'vitest';
import { createMemorySecretStore, describeSecret } from '../../../../electron/core/secrets/secret-store.ts';

describe('the session-only secret store', () => {
  it('stores a trimmed key per environment', async () => {
    const store = createMemorySecretStore();
    await store.set('sandbox', '  key-with-spaces-around-1234 ');
    expect(await store.get('sandbox')).toBe('key-with-spaces-around-1234');
    expect(await store.get('production')).toBeNull();
  });

  it('refuses an empty key or one with inner spaces, with a message that says what to do', async () => {
    const store = createMemorySecretStore();
    await expect(store.set('sandbox', '   ')).rejects.toThrow(/empty.*Paste the key/);
    await expect(store.set('sandbox', 'abc def')).rejects.toThrow(/spaces or control characters/);
  });

  it('describes a key by its last four characters only, and not even those for a short key', () => {
    expect(describeSecret('sk_live_abcdef123456')).toEqual({ set: true, endsWith: '3456' });
    expect(describeSecret('short')).toEqual({ set: true, endsWith: '' });
    expect(describeSecret(null)).toEqual({ set: false });
  });
});
