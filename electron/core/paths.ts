// Where Giftbatch keeps its data when no folder is given. The desktop app sets Electron's userData
// to this folder at start (electron/main/index.ts), so the app, the CLI and the browser shell share
// one database.
import { lstatSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export const APP_FOLDER = 'Giftbatch';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.GIFTBATCH_DATA_DIR) return env.GIFTBATCH_DATA_DIR;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_FOLDER);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_FOLDER);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_FOLDER);
}

export const DATABASE_FILE = 'giftbatch.sqlite';
export const SIMULATOR_STATE_FILE = 'simulator-state.jsonl';

/** The data folder cannot be used: it is a file, or it cannot be created (the reason says why, naming the folder at fault). */
export class DataFolderError extends Error {
  override readonly name = 'DataFolderError';
  constructor(
    readonly folder: string,
    /** What is wrong, to follow the folder's name: "is a file, not a folder", "cannot be created (…)". */
    readonly problem: string,
  ) {
    super(`The data folder ${folder} ${problem}.`);
  }
}

/** Why a folder cannot be made in `parent`, from mkdir's error code. */
function mkdirReason(error: unknown, parent: string): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return `no permission to make a folder in ${parent}`;
    case 'EROFS':
      return `${parent} is on a read-only filesystem`;
    // mkdir in a folder that exists but takes no new folders (/proc, /sys) answers ENOENT.
    case 'ENOENT':
      return `${parent} does not take new folders`;
    case 'ENOSPC':
    case 'EDQUOT':
      return `the disk holding ${parent} is full`;
    case 'ENAMETOOLONG':
      return 'its name is too long';
    default:
      return `${parent} refused it (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** What is at `path`: nothing (ENOENT, or a file on the way: ENOTDIR) is undefined; a folder that cannot be looked in says so. */
function statOf(dir: string, path: string) {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') return undefined;
    throw new DataFolderError(dir, `cannot be looked at (${code === 'EACCES' || code === 'EPERM' ? `no permission to look in ${dirname(path)}` : String(error)})`);
  }
}

/**
 * The folders to create for `dir` to exist, outermost first (none when it is a folder already).
 * Throws DataFolderError when `dir`, or a folder it would be in, is a file. Creates nothing.
 */
export function checkDataFolder(dir: string): string[] {
  const missing: string[] = [];
  let at = resolve(dir);
  for (;;) {
    const found = statOf(dir, at);
    if (found?.isDirectory()) return missing;
    if (found) throw new DataFolderError(dir, missing.length === 0 ? 'is a file, not a folder' : `cannot be created (${at} is a file, not a folder)`);
    const parent = dirname(at);
    missing.unshift(at);
    // The root itself missing: mkdir says why.
    if (parent === at) return missing;
    at = parent;
  }
}

/**
 * Makes sure `dir` is a folder, creating it and any missing parent (private to its owner, 0700), or
 * throws DataFolderError saying why not. The one way the engine opens its data folder (desktop,
 * browser shell, CLI). One folder at a time: Node 20's mkdirSync(dir, { recursive: true }) never
 * returns for a folder under /proc (mkdir answers ENOENT there although the parent exists, so it
 * makes the parent and tries the folder again, for ever, at full CPU).
 */
export function openDataFolder(dir: string): void {
  for (const folder of checkDataFolder(dir)) {
    try {
      mkdirSync(folder, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
        // Made meanwhile by another process: as good.
        if (statOf(dir, folder)?.isDirectory()) continue;
        // Something is there that stat does not see: a link to nothing.
        if (lstatSync(folder, { throwIfNoEntry: false })?.isSymbolicLink()) {
          throw new DataFolderError(dir, `cannot be created (${folder} is a link to a folder that does not exist)`);
        }
      }
      throw new DataFolderError(dir, `cannot be created (${mkdirReason(error, dirname(folder))})`);
    }
  }
}
