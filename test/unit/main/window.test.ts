import { describe, expect, it, vi } from 'vitest';

// window.ts imports 'electron' for BrowserWindow; the pure parts are tested without it.
const created: { webPreferences?: Record<string, unknown> }[] = [];
vi.mock('electron', () => ({
  app: { isPackaged: true },
  // Records the options the window is made with; the rest is what createMainWindow touches.
  BrowserWindow: class {
    webContents = { on: vi.fn(), setWindowOpenHandler: vi.fn() };
    constructor(options: { webPreferences?: Record<string, unknown> }) {
      created.push(options);
    }
    once = vi.fn();
    loadFile = vi.fn(async () => undefined);
    loadURL = vi.fn(async () => undefined);
  },
  shell: { openExternal: vi.fn() },
}));

const { allowNavigation, createMainWindow, isAllowedExternal, PRELOAD_FILE, windowOpenDecision } = await import('../../../electron/main/window.ts');
const { contentSecurityPolicy, cspHtmlPlugin, documentPolicy } = await import('../../../electron/core/app/csp.ts');
const { readFileSync } = await import('node:fs');

describe('desktop window security', () => {
  it('keeps the renderer isolated: contextIsolation, sandbox, no Node integration anywhere, web security on, no middle-click windows', () => {
    createMainWindow();
    expect(created.at(-1)?.webPreferences).toEqual({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      spellcheck: true,
      disableBlinkFeatures: 'Auxclick',
      preload: PRELOAD_FILE,
    });
  });

  it('denies every navigation and every new window', () => {
    for (const url of ['https://giftbatch.app/', 'https://evil.example/', 'file:///etc/passwd']) {
      expect(allowNavigation(url)).toBe(false);
      expect(windowOpenDecision(url).action).toBe('deny');
    }
  });

  it('opens only allowlisted https links externally, and no look-alikes', () => {
    expect(windowOpenDecision('https://giftbatch.app/help').openExternally).toBe(true);
    expect(isAllowedExternal('https://giftbatch.app/')).toBe(true);
    for (const url of [
      'http://giftbatch.app/',
      'https://giftbatch.app.evil.example/',
      'https://giftbatch.app@evil.example/',
      'https://user:pw@giftbatch.app/',
      'javascript:alert(1)',
      'file:///giftbatch.app/',
      'not a url',
    ]) {
      expect(isAllowedExternal(url), url).toBe(false);
      expect(windowOpenDecision(url).openExternally, url).toBe(false);
    }
  });

  it('has a strict CSP: own scripts only, no eval or inline script, no framing, no plugins', () => {
    const csp = contentSecurityPolicy();
    const directives = new Map(csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
    expect(directives.get('default-src')).toBe("'self'");
    expect(directives.get('script-src')).toBe("'self'");
    expect(directives.get('connect-src')).toBe("'self'");
    expect(directives.get('object-src')).toBe("'none'");
    expect(directives.get('frame-ancestors')).toBe("'none'");
    expect(directives.get('base-uri')).toBe("'none'");
    expect(csp).not.toMatch(/unsafe-eval|\*/);
    expect(contentSecurityPolicy(['ws://127.0.0.1:1234'])).toContain("connect-src 'self' ws://127.0.0.1:1234");
  });
});

describe('one Content-Security-Policy for the header and the page', () => {
  it("index.html's <meta> is written from the same definition as the header, less what a <meta> cannot carry", () => {
    const source = readFileSync(new URL('../../../renderer/index.html', import.meta.url), 'utf8');
    const built = cspHtmlPlugin().transformIndexHtml(source);
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)" \/>/.exec(built)?.[1];
    expect(meta).toBe(documentPolicy());
    const header = new Set(contentSecurityPolicy(['ws://127.0.0.1:*', 'ws://localhost:*']).split('; '));
    for (const directive of documentPolicy().split('; ')) expect(header.has(directive), directive).toBe(true);
    expect([...header].filter((d) => !documentPolicy().includes(d))).toEqual(["frame-ancestors 'none'"]);
    expect(() => cspHtmlPlugin().transformIndexHtml('<html></html>')).toThrow(/no %GIFTBATCH_CSP%/);
  });
});
