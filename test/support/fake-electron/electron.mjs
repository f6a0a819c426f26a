// A recording fake of the Electron main-process API, for running the BUILT main process
// (out/main/index.js) under plain Node, where Electron's binary cannot run. It keeps what the app
// did (paths set, handlers registered, windows made, messages sent, dialogs, quits) in `fake`, which
// the driver (drive-main.mjs) reads. Only what electron/main uses is here; anything else is missing
// on purpose, so a new use shows up as an error in the test.
import { EventEmitter } from 'node:events';
import { isAbsolute } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';

export const fake = {
  paths: new Map(),
  handlers: new Map(),
  windows: [],
  sent: [],
  errorBoxes: [],
  quits: [],
  exitCode: undefined,
  lockRequested: false,
  done: null,
};
let finish;
fake.done = new Promise((resolve) => (finish = resolve));

class FakeApp extends EventEmitter {
  isPackaged = true;
  getVersion = () => '9.9.9-fake';
  getAppPath = () => process.cwd();
  setPath(name, value) {
    // As Electron's App::SetPath.
    if (!isAbsolute(value)) throw new Error('Path must be absolute');
    fake.paths.set(name, value);
  }
  getPath(name) {
    const value = fake.paths.get(name);
    if (value === undefined) throw new Error(`fake electron: no path "${name}" was set`);
    return value;
  }
  requestSingleInstanceLock() {
    fake.lockRequested = true;
    return true;
  }
  whenReady() {
    return Promise.resolve();
  }
  /** As Electron: before-quit first; a listener that prevents it stops the quit. */
  quit() {
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    fake.quits.push(prevented ? 'prevented' : 'quit');
    if (!prevented) finish('quit');
  }
  exit(code) {
    fake.exitCode = code;
    finish('exit');
  }
}
export const app = new FakeApp();
// What a packaged app's process.resourcesPath holds (extraResources): the repo's resources/ here.
process.resourcesPath = fileURLToPath(new URL('../../../resources', import.meta.url));

export const ipcMain = {
  handle(channel, listener) {
    if (fake.handlers.has(channel)) throw new Error(`fake electron: a second handler for "${channel}"`);
    fake.handlers.set(channel, listener);
  },
};

export class BrowserWindow extends EventEmitter {
  constructor(options) {
    super();
    this.options = options;
    this.handlersAtCreation = fake.handlers.size;
    this.loaded = null;
    const frame = { url: 'about:blank' };
    this.webContents = Object.assign(new EventEmitter(), {
      mainFrame: frame,
      send: (channel, payload) => fake.sent.push({ channel, payload }),
      setWindowOpenHandler: (handler) => (this.windowOpenHandler = handler),
    });
    fake.windows.push(this);
  }
  isDestroyed = () => false;
  isMinimized = () => false;
  restore() {}
  focus() {}
  show() {}
  async loadFile(file) {
    this.loaded = file;
    this.webContents.mainFrame.url = `${pathToFileURL(file).href}#/`;
  }
  async loadURL(url) {
    this.loaded = url;
    this.webContents.mainFrame.url = url;
  }
}

export const session = {
  defaultSession: {
    webRequest: { onHeadersReceived: (listener) => (fake.onHeadersReceived = listener) },
    setPermissionRequestHandler: () => undefined,
    setPermissionCheckHandler: () => undefined,
    setDevicePermissionHandler: () => undefined,
  },
};

export const dialog = {
  showErrorBox: (title, content) => fake.errorBoxes.push({ title, content }),
  showSaveDialog: async () => ({ canceled: true }),
};

export const Menu = { buildFromTemplate: (template) => ({ template }), setApplicationMenu: (menu) => (fake.menu = menu) };
export class Notification {
  static isSupported = () => false;
}
export const shell = { openExternal: async () => undefined };
