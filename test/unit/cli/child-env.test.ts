import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withoutSecrets } from '../../../electron/cli/child-env.ts';

describe('the environment of processes that are not the engine', () => {
  it('never carries the API key, and keeps everything else', () => {
    const env = { PATH: '/usr/bin', DISPLAY: ':0', GIFTBATCH_API_KEY: 'sk_live_secret' };
    expect(withoutSecrets(env)).toEqual({ PATH: '/usr/bin', DISPLAY: ':0' });
    expect(env.GIFTBATCH_API_KEY).toBe('sk_live_secret');
  });

  it('is what the browser opener and the Electron installer are started with', () => {
    const web = readFileSync(new URL('../../../electron/cli/web.ts', import.meta.url), 'utf8');
    const start = readFileSync(new URL('../../../electron/cli/start.ts', import.meta.url), 'utf8');
    expect(web).toMatch(/spawn\(command, \[url\], \{[^}]*env: withoutSecrets\(process\.env\)/);
    expect(start).toMatch(/const env = withoutSecrets\(process\.env\);/);
  });
});
