import { join } from 'node:path';
import { app, BrowserWindow, shell } from 'electron';

/** Links the app may open in the user's browser; everything else is refused. */
export const EXTERNAL_LINK_ALLOWLIST: readonly string[] = ['https://giftbatch.app/'];

export function isAllowedExternal(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  // Compare the parsed form, so "https://giftbatch.app.evil.example/" or user-info tricks fail.
  return parsed.protocol === 'https:' && !parsed.username && !parsed.password && EXTERNAL_LINK_ALLOWLIST.some((prefix) => parsed.href.startsWith(prefix));
}

/** The page never navigates: the renderer routes by hash, and any other navigation is an attack or a stray link. */
export function allowNavigation(_url: string): boolean {
  return false;
}

/** No new windows ever; an allowed link goes to the user's browser instead. */
export function windowOpenDecision(url: string): { action: 'deny'; openExternally: boolean } {
  return { action: 'deny', openExternally: isAllowedExternal(url) };
}

export const PRELOAD_FILE = join(import.meta.dirname, '../preload/index.cjs');
export const INDEX_FILE = join(import.meta.dirname, '../renderer/index.html');

export function createMainWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Giftbatch',
    // Pinned by a test: a renderer that cannot reach Node, other origins or other windows. Written
    // out here, where Electronegativity and our own scan read them (a spread would hide them).
    webPreferences: {
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
      // The preload exposes the contract's named calls only (electron/preload), in a sandboxed, isolated context.
      preload: PRELOAD_FILE /* eng-disable PRELOAD_JS_CHECK */,
    },
  });
  window.once('ready-to-show', () => window.show());
  window.webContents.on('will-navigate', (event, url) => {
    if (!allowNavigation(url)) event.preventDefault();
  });
  window.webContents.on('will-redirect', (event, url) => {
    if (!allowNavigation(url)) event.preventDefault();
  });
  window.webContents.on('will-attach-webview', (event) => event.preventDefault());
  window.webContents.setWindowOpenHandler(({ url }) => {
    const decision = windowOpenDecision(url);
    // Only links on EXTERNAL_LINK_ALLOWLIST, compared in their parsed form (isAllowedExternal).
    if (decision.openExternally) void shell.openExternal(url); /* eng-disable OPEN_EXTERNAL_JS_CHECK */
    return { action: decision.action };
  });
  const devUrl = rendererDevUrl(app.isPackaged, process.env);
  if (devUrl) void window.loadURL(devUrl);
  else void window.loadFile(INDEX_FILE);
  return window;
}

/** The dev server's address, only while developing: a packaged app loads its own files, whatever the environment says. */
export function rendererDevUrl(packaged: boolean, env: NodeJS.ProcessEnv): string | null {
  const url = env.ELECTRON_RENDERER_URL;
  if (packaged || !url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' && ['localhost', '127.0.0.1'].includes(parsed.hostname) ? url : null;
  } catch {
    return null;
  }
}
