// The Simulator environment's service: one built-in simulator per data folder. Its state lives in
// the folder, so two processes on the same folder (the app and a CLI command, say) must share one
// simulator rather than run two that would each append to the same state file. The first one
// starts it and leaves a lock file with its address; the others use that address while the owner
// lives. Neither file holds an API key: the state file names accounts by a hash of their key
// (simulator/account-id.ts), and one written by an older version is rewritten so on load.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { startEmbeddedSimulator } from '../simulator/index.ts';
import { SIMULATOR_STATE_FILE } from './paths.ts';

export const SIMULATOR_LOCK_FILE = 'simulator.lock';

export interface EmbeddedService {
  url: string;
  /** Whether this process runs it (and stops it), or borrows another process's. */
  owned: boolean;
  stop(): Promise<void>;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(file: string): { pid: number; url: string } | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown; url?: unknown };
    return typeof parsed.pid === 'number' && typeof parsed.url === 'string' ? { pid: parsed.pid, url: parsed.url } : null;
  } catch {
    return null;
  }
}

export async function openEmbeddedService(dataDir: string): Promise<EmbeddedService> {
  const lockFile = join(dataDir, SIMULATOR_LOCK_FILE);
  for (let attempt = 0; attempt < 5; attempt += 1) {
    let fd: number;
    try {
      fd = openSync(lockFile, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const lock = readLock(lockFile);
      if (lock && alive(lock.pid)) {
        return { url: lock.url, owned: false, stop: async () => {} };
      }
      if (!lock) {
        // Being written by its owner right now, or left empty by a crash: look again shortly.
        await new Promise((resolve) => setTimeout(resolve, 50));
        if (readLock(lockFile) === null && attempt >= 2) rmSync(lockFile, { force: true });
        continue;
      }
      rmSync(lockFile, { force: true }); // its owner died
      continue;
    }
    try {
      const simulator = await startEmbeddedSimulator({ stateFile: join(dataDir, SIMULATOR_STATE_FILE) });
      writeSync(fd, JSON.stringify({ pid: process.pid, url: simulator.url }));
      closeSync(fd);
      return {
        url: simulator.url,
        owned: true,
        async stop() {
          if (readLock(lockFile)?.pid === process.pid) rmSync(lockFile, { force: true });
          await simulator.stop();
        },
      };
    } catch (error) {
      closeSync(fd);
      rmSync(lockFile, { force: true });
      throw error;
    }
  }
  throw new Error(`Could not start the built-in simulator: ${lockFile} keeps changing. Close other Giftbatch windows and try again.`);
}
