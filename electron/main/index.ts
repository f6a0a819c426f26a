// Composition root of the desktop app: Electron glue only. The engine runs in this process with
// its data in the app's data folder; every contract call arrives over IPC, is checked (sender,
// then input schema) and answered as data; events go back with webContents.send.
import { resolve } from 'node:path';
import { app, dialog, ipcMain, session, type BrowserWindow } from 'electron';
import { contract, events, type EventName } from '../../shared/contract.ts';
import { contentSecurityPolicy } from '../core/app/csp.ts';
import { createAppService, defaultSampleCsvPath, type AppService } from '../core/app/index.ts';
import { openEngine, type Engine } from '../core/engine.ts';
import { defaultDataDir } from '../core/paths.ts';
import { installMenu, notifyFinished, saveReportWithDialog } from './desktop.ts';
import { guardedHandler } from './ipc-guard.ts';
import { createQuitGate } from './quit.ts';
import { createMainWindow, INDEX_FILE } from './window.ts';

export const CSP = contentSecurityPolicy();

let window: BrowserWindow | null = null;
let engine: Engine | null = null;
let service: AppService | null = null;
/** Set once the IPC handlers are registered: a window made before then would find no handler. */
let started = false;

function showWindow(): void {
  // A second launch or a dock click while the engine is still opening: start() shows the window.
  if (!started) return;
  if (!window || window.isDestroyed()) {
    window = createMainWindow();
    window.on('closed', () => (window = null));
    return;
  }
  if (window.isMinimized()) window.restore();
  window.focus();
}

async function start(): Promise<void> {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] } });
  });
  // The app asks for no permission (camera, notifications from the page, USB…): every request,
  // check and device is refused.
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  session.defaultSession.setDevicePermissionHandler(() => false);

  engine = await openEngine({ dataDir: app.getPath('userData') });
  const log = (level: string, message: string) => process.stderr.write(`giftbatch ${level}: ${message}\n`);
  service = createAppService({
    engine,
    shell: 'desktop',
    version: app.getVersion(),
    // Packaged: extraResources puts it beside the app; in development it is in the repo's resources/.
    sampleCsvPath: defaultSampleCsvPath(app.isPackaged ? process.resourcesPath : app.getAppPath()),
    saveReport: (fileName, csv) => saveReportWithDialog(window, fileName, csv),
    log,
  });
  const running = service;

  const location = { devServerUrl: app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL, indexFile: INDEX_FILE };
  for (const name of Object.keys(contract)) {
    const handler = guardedHandler(name, { mainFrame: () => (window && !window.isDestroyed() ? window.webContents.mainFrame : null), location, call: running.call });
    ipcMain.handle(name, (event, input: unknown) => handler(event, input));
  }
  for (const name of Object.keys(events) as EventName[]) {
    running.on(name, (payload) => {
      if (window && !window.isDestroyed()) window.webContents.send(name, payload);
    });
  }
  running.on('campaign:finished', ({ campaign, message }) => notifyFinished(campaign.name, message));

  installMenu();
  started = true;
  showWindow();
}

// The data folder is core/paths.ts's one definition, the folder the CLI and the browser shell use
// too. Electron's own default would be named after package.json's `name` ("giftbatch"): on Linux
// not the same folder as ~/.config/Giftbatch. Set before the lock, which lives in this folder.
// Electron refuses a relative path (GIFTBATCH_DATA_DIR=./data), so it is made absolute here.
app.setPath('userData', resolve(defaultDataDir()));

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', showWindow);
  app.on('activate', showWindow);
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  // Pause any send and close the database before quitting: the campaign then says "interrupted".
  app.on(
    'before-quit',
    createQuitGate({
      close: async () => {
        await service?.close();
        await engine?.close();
      },
      quit: () => app.quit(),
      exit: (code) => app.exit(code),
      log: (message) => process.stderr.write(`giftbatch error: ${message}\n`),
    }),
  );
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      process.stderr.write(`Giftbatch could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      // An organiser starts the app from a menu, with no terminal: say it in a dialog before exiting.
      dialog.showErrorBox('Giftbatch could not start', error instanceof Error ? error.message : String(error));
      app.exit(1);
    });
}
