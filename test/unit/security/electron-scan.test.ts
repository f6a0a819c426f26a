// Issue 5, Security: "Electronegativity (or an equivalent scanner) runs in CI over the Electron code
// with no high findings". electron-scan.ts says why it is our own scanner; this runs it over
// electron/main and electron/preload, and over known-bad snippets to show each check can fire.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../../electron/core/app/csp.ts';
import { scanElectronSources, type SourceFile } from './electron-scan.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));

function sources(dir: string): SourceFile[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|js|cjs|mjs)$/.test(f))
    .map((f) => ({ file: join(dir, f), text: readFileSync(join(root, dir, f), 'utf8') }));
}

const BAD: Record<string, string> = {
  NODE_INTEGRATION_ENABLED: 'new BrowserWindow({ webPreferences: { nodeIntegration: true } });',
  CONTEXT_ISOLATION_DISABLED: 'const p = { contextIsolation: false };',
  SANDBOX_DISABLED: 'const p = { sandbox: false };',
  WEB_SECURITY_DISABLED: 'const p = { webSecurity: false };',
  INSECURE_CONTENT_ALLOWED: 'const p = { allowRunningInsecureContent: true };',
  EXPERIMENTAL_FEATURES: "const p = { enableBlinkFeatures: 'X' };",
  WEBVIEW_TAG_ENABLED: 'const p = { webviewTag: true };',
  REMOTE_MODULE: "import remote from '@electron/remote';",
  EXECUTE_JAVASCRIPT: 'void win.webContents.executeJavaScript(code);',
  CERTIFICATE_ERRORS_IGNORED: "app.on('certificate-error', (e, wc, url, err, cert, cb) => cb(true));",
  INSECURE_LOAD_URL: "void win.loadURL('http://example.com/');",
  CSP_UNSAFE_EVAL: "const csp = \"script-src 'self' 'unsafe-eval'\";",
  IPC_ON_WITHOUT_REPLY_GUARD: "ipcMain.on('x', () => {});",
  WINDOW_WITHOUT_SECURE_PREFERENCES: "new BrowserWindow({ webPreferences: { preload } }); win.webContents.setWindowOpenHandler(h); win.webContents.on('will-navigate', g); win.webContents.on('will-attach-webview', g);",
  MISSING_WINDOW_OPEN_HANDLER: "new BrowserWindow({ webPreferences: { ...SECURE_WEB_PREFERENCES } }); win.webContents.on('will-navigate', g);",
  MISSING_NAVIGATION_GUARD: 'new BrowserWindow({ webPreferences: { ...SECURE_WEB_PREFERENCES } }); win.webContents.setWindowOpenHandler(h);',
  OPEN_EXTERNAL_WITHOUT_ALLOWLIST: 'win.webContents.setWindowOpenHandler(({ url }) => {\n  void shell.openExternal(url);\n  return { action: "deny" };\n});',
  IPC_HANDLER_WITHOUT_SENDER_GUARD: "ipcMain.handle('campaigns:send', (event, input) => engine.send(input));",
  PRELOAD_EXPOSES_IPC_RENDERER: "contextBridge.exposeInMainWorld('ipc', ipcRenderer);",
  PRELOAD_EXPOSES_GENERIC_INVOKE: "contextBridge.exposeInMainWorld('api', { invoke: (channel, input) => ipcRenderer.invoke(channel, input) });",
  PRELOAD_GENERIC_INVOKE: 'const invoke = (channel, input) => ipcRenderer.invoke(channel, input);',
};

describe('static security scan of the Electron shell (Electronegativity-equivalent)', () => {
  it('finds no HIGH (and no MEDIUM) issue in electron/main and electron/preload', () => {
    const files = [...sources('electron/main'), ...sources('electron/preload')];
    expect(files.map((f) => f.file)).toEqual(expect.arrayContaining([join('electron/main', 'window.ts'), join('electron/main', 'index.ts'), join('electron/preload', 'index.ts')]));
    const findings = scanElectronSources(files);
    expect(findings.filter((f) => f.severity === 'HIGH')).toEqual([]);
    expect(findings).toEqual([]);
  });

  it('finds nothing in the CSP both shells send, and no unsafe-inline for scripts', () => {
    const csp = contentSecurityPolicy(['ws://127.0.0.1:1']);
    expect(scanElectronSources([{ file: 'csp', text: JSON.stringify(csp) }])).toEqual([]);
    expect(/script-src[^;]*unsafe-inline/.test(csp)).toBe(false);
  });

  it.each(Object.entries(BAD))('fires %s on a snippet that has it', (check, snippet) => {
    const findings = scanElectronSources([{ file: 'bad.ts', text: snippet }]);
    expect(findings.map((f) => f.check)).toContain(check);
  });

  it('ignores commented-out code', () => {
    expect(scanElectronSources([{ file: 'c.ts', text: '// nodeIntegration: true was how it used to be' }])).toEqual([]);
  });
});
