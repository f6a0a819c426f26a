// Where Giftbatch keeps its data when no folder is given. The desktop app sets Electron's userData
// to this folder at start (electron/main/index.ts), so the app, the CLI and the browser shell share
// one database.
import { homedir } from 'node:os';
import { join } from 'node:path';

export const APP_FOLDER = 'Giftbatch';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.GIFTBATCH_DATA_DIR) return env.GIFTBATCH_DATA_DIR;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_FOLDER);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_FOLDER);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_FOLDER);
}

export const DATABASE_FILE = 'giftbatch.sqlite';
export const SIMULATOR_STATE_FILE = 'simulator-state.jsonl';
