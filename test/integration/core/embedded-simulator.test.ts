import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../support/temp-dirs.ts';
import { EMBEDDED_SIMULATOR_URL } from '../../../electron/core/connections.ts';
import { setSetting } from '../../../electron/core/db/repos/settings.ts';
import { SIMULATOR_LOCK_FILE, openEmbeddedService } from '../../../electron/core/embedded-simulator.ts';
import { openEngine } from '../../../electron/core/engine.ts';
import { createMemorySecretStore } from '../../../electron/core/secrets/secret-store.ts';

const dataDir = () => tempDir('giftbatch-embedded-');

describe('one built-in simulator per data folder', () => {
  it('a second opener on the same folder borrows the running simulator instead of starting another', async () => {
    const dir = dataDir();
    const first = await openEmbeddedService(dir);
    const second = await openEmbeddedService(dir);
    expect(first.owned).toBe(true);
    expect(second.owned).toBe(false);
    expect(second.url).toBe(first.url);
    await second.stop(); // borrowing stops nothing
    expect((await fetch(`${first.url}/v1/products`, { headers: { 'SERVICE-API-KEY': 'k' } })).status).toBe(200);
    await first.stop();
    expect(existsSync(join(dir, SIMULATOR_LOCK_FILE))).toBe(false);
  });

  it('takes over from an owner that died without removing its lock', async () => {
    const dir = dataDir();
    const first = await openEmbeddedService(dir);
    const created = await fetch(`${first.url}/v1/orders`, {
      method: 'POST',
      headers: { 'SERVICE-API-KEY': 'k', 'content-type': 'application/json' },
      body: JSON.stringify({ item: { id: 0 }, external_reference_id: 'x' }),
    });
    expect(created.status).toBeGreaterThanOrEqual(400); // unknown product: nothing stored, but the account exists
    await first.stop();
    writeFileSync(join(dir, SIMULATOR_LOCK_FILE), JSON.stringify({ pid: 2 ** 22 + 12345, url: 'http://127.0.0.1:1' }));
    const next = await openEmbeddedService(dir);
    expect(next.owned).toBe(true);
    expect(next.url).not.toBe('http://127.0.0.1:1');
    expect(JSON.parse(readFileSync(join(dir, SIMULATOR_LOCK_FILE), 'utf8'))).toEqual({ pid: process.pid, url: next.url });
    await next.stop();
  });
});

describe('one connection lookup', () => {
  it('new work in the simulator uses a stored external simulator; a campaign made on the built-in one keeps it', async () => {
    const engine = await openEngine({ dataDir: dataDir(), secrets: createMemorySecretStore(), env: {} });
    try {
      const builtIn = await engine.connections.get('simulator');
      expect(builtIn.baseUrl).toBe(EMBEDDED_SIMULATOR_URL);
      setSetting(engine.db, 'baseUrl.simulator', 'http://127.0.0.1:4999', Date.now());
      engine.connections.forget('simulator');
      expect((await engine.connections.get('simulator')).baseUrl).toBe('http://127.0.0.1:4999');
      // Asked for by its address (what engine.connectionFor does for a campaign made on it): the built-in one.
      expect((await engine.connections.get('simulator', { baseUrl: EMBEDDED_SIMULATOR_URL })).url).toBe(builtIn.url);
    } finally {
      await engine.close();
    }
  });
});
