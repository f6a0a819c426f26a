// Issue 12: the key goes only where it was entered for. Sandbox and Production accept only https:
// (plain http: only for this machine), and a new address clears the key stored for the old one.
import { describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../../../electron/core/secrets/secret-store.ts';
import { tempDir } from '../../../support/index.ts';
import { startService } from '../../../support/app-harness.ts';

describe('an environment key and its address', () => {
  it('refuses plain http: to another machine for sandbox and production, and allows it on this one', async () => {
    const h = await startService(tempDir());
    for (const environment of ['sandbox', 'production'] as const) {
      const refused = await h.service.invoke('environments:update', { environment, baseUrl: 'http://gifts.example.com' });
      expect(refused).toMatchObject({ ok: false, error: { code: 'invalid-input', message: expect.stringContaining(`plain http:, which would send the ${environment} API key unencrypted`) } });
    }
    expect(await h.ok('environments:update', { environment: 'sandbox', baseUrl: 'http://127.0.0.1:4010' })).toMatchObject({ baseUrl: 'http://127.0.0.1:4010' });
    expect(await h.ok('environments:update', { environment: 'production', baseUrl: 'https://gifts.example.com' })).toMatchObject({ baseUrl: 'https://gifts.example.com' });
    // The simulator environment is for test services: any http(s) address.
    expect(await h.ok('environments:update', { environment: 'simulator', baseUrl: 'http://sim.test:4010' })).toMatchObject({ baseUrl: 'http://sim.test:4010' });
  });

  it('a new address clears the key stored for the old one, and says so; the same address keeps it', async () => {
    const h = await startService(tempDir(), { secrets: createMemorySecretStore() });
    await h.ok('environments:update', { environment: 'production', baseUrl: 'https://gifts.example.com' });
    await h.ok('environments:setKey', { environment: 'production', key: 'prod-key-123456789' });
    const same = await h.ok('environments:update', { environment: 'production', baseUrl: 'https://gifts.example.com', rate: 4 });
    expect(same).toMatchObject({ keyCleared: false, key: { set: true } });
    const moved = await h.ok('environments:update', { environment: 'production', baseUrl: 'https://attacker.example.net' });
    expect(moved).toMatchObject({ keyCleared: true, key: { set: false }, baseUrl: 'https://attacker.example.net' });
    expect(await h.engine.secrets.get('production')).toBeNull();
  });
});
