import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openSecretStore } from '../../../../electron/core/secrets/secret-store.ts';

// `npm test` runs this inside a private D-Bus session with an unlocked gnome-keyring and sets
// GIFTBATCH_REQUIRE_KEYCHAIN=1, so there the real Secret Service must answer.
const required = process.env.GIFTBATCH_REQUIRE_KEYCHAIN === '1';
const service = `Giftbatch-test-${randomUUID()}`;
const store = await openSecretStore({ service });
const root = fileURLToPath(new URL('../../../..', import.meta.url));

describe('the OS keychain', () => {
  afterAll(async () => {
    await store.delete('sandbox');
    await store.delete('production');
  });

  it('is the backend when a Secret Service answers', () => {
    if (!required) return;
    expect(store.unavailableReason).toBeUndefined();
    expect(store.backend).toBe('keychain');
  });

  it.runIf(store.backend === 'keychain')('keeps one key per environment and shows only its last four characters', async () => {
    await store.set('sandbox', 'sk_test_0123456789abcd');
    await store.set('production', 'sk_live_zyxw98765432');
    expect(await store.get('sandbox')).toBe('sk_test_0123456789abcd');
    expect(await store.get('production')).toBe('sk_live_zyxw98765432');
    expect(await store.describe('sandbox')).toEqual({ set: true, endsWith: 'abcd' });
    expect(await store.describe('simulator')).toEqual({ set: false });
    expect(await store.delete('sandbox')).toBe(true);
    expect(await store.get('sandbox')).toBeNull();
  });

  it.runIf(store.backend === 'keychain')('a second process sees the key the first one stored (CLI and app share it)', async () => {
    await store.set('sandbox', 'sk_shared_between_processes');
    const script = `import { openSecretStore } from './electron/core/secrets/secret-store.ts';
      const s = await openSecretStore({ service: ${JSON.stringify(service)} });
      process.stdout.write(String(await s.get('sandbox')));`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    expect(out).toBe('sk_shared_between_processes');
  });

  it('falls back to a session-only store, and says why, when no keychain answers', () => {
    const script = `import { openSecretStore } from './electron/core/secrets/secret-store.ts';
      const s = await openSecretStore({ service: 'Giftbatch-nobus' });
      process.stdout.write(JSON.stringify({ backend: s.backend, reason: s.unavailableReason }));`;
    const env = { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus', DISPLAY: '' };
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', env });
    const parsed = JSON.parse(out) as { backend: string; reason: string };
    expect(parsed.backend).toBe('memory');
    expect(parsed.reason).toMatch(/No OS keychain is available .*this session only/);
  });
});
