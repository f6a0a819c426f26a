// Issue 12: what cannot run here (Electron's binary is not downloadable) is pinned statically.
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({ app: { isPackaged: false }, BrowserWindow: class {}, shell: { openExternal: vi.fn() } }));
const { rendererDevUrl } = await import('../../../electron/main/window.ts');

describe('the packaged app', () => {
  it('flips the fuses: not runnable as Node, no NODE_OPTIONS or --inspect, only its own integrity-checked asar', () => {
    const yml = readFileSync(new URL('../../../electron-builder.yml', import.meta.url), 'utf8');
    // The block's `  key: value` lines (no YAML library for one flat block).
    const block = yml.slice(yml.indexOf('\nelectronFuses:\n') + 1).split('\n').slice(1);
    const fuses = Object.fromEntries(block.filter((l) => /^ {2}\w+: (true|false)$/.test(l)).map((l) => l.trim().split(': ')).map(([k, v]) => [k, v === 'true']));
    expect(fuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
    expect(yml).toMatch(/^asar: true$/m);
  });

  it('names the packaged app Giftbatch: electron-builder copies package.json without its productName unless extraMetadata adds it', () => {
    const yml = readFileSync(new URL('../../../electron-builder.yml', import.meta.url), 'utf8');
    expect(yml).toMatch(/^extraMetadata:\n {2}productName: Giftbatch$/m);
  });

  it('loads a development URL only when not packaged, and only from this machine', () => {
    expect(rendererDevUrl(true, { ELECTRON_RENDERER_URL: 'http://localhost:5173' })).toBeNull();
    expect(rendererDevUrl(false, { ELECTRON_RENDERER_URL: 'http://localhost:5173' })).toBe('http://localhost:5173');
    expect(rendererDevUrl(false, { ELECTRON_RENDERER_URL: 'https://evil.example/' })).toBeNull();
    expect(rendererDevUrl(false, {})).toBeNull();
  });

  it('denies every permission request, check and device', () => {
    const main = readFileSync(new URL('../../../electron/main/index.ts', import.meta.url), 'utf8');
    expect(main).toMatch(/setPermissionRequestHandler\(\(_wc, _permission, callback\) => callback\(false\)\)/);
    expect(main).toMatch(/setPermissionCheckHandler\(\(\) => false\)/);
    expect(main).toMatch(/setDevicePermissionHandler\(\(\) => false\)/);
  });
});
