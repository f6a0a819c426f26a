import { join } from 'node:path';
import { BrowserWindow, shell } from 'electron';
import type { WebPreferences } from 'electron';

/** Pinned by a test: a renderer that cannot reach Node, other origins or other windows. */
export const SECURE_WEB_PREFERENCES: Readonly<WebPreferences> = Object.freeze({
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
});

/** Links the app may open in the user's browser; everything else is refused. */
export const EXTERNAL_LINK_ALLOWLIST: readonly string[] = ['https://giftbatch.app/'];

export function isAllowedExternal(url: string): boolean {
  return EXTERNAL_LINK_ALLOWLIST.some((prefix) => url.startsWith(prefix));
}

export function createMainWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Giftbatch',
    webPreferences: { ...SECURE_WEB_PREFERENCES, preload: join(import.meta.dirname, '../preload/index.cjs') },
  });
  window.once('ready-to-show', () => window.show());
  // No navigation away from the app and no new windows: links go to the browser, if allowed.
  window.webContents.on('will-navigate', (event) => event.preventDefault());
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternal(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  const devUrl = process.env.ELECTRON_RENDERER_URL;
  if (devUrl) void window.loadURL(devUrl);
  else void window.loadFile(join(import.meta.dirname, '../renderer/index.html'));
  return window;
}
