// Child processes of the suite: the browser shell (`electron/cli/web.ts`) and a standalone
// simulator (`giftbatch simulator`). Each prints one line with its address on stdout when ready.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild as startMarkedChild, type Child } from '../../support/child-process.ts';

export type { Child };

const startChild = (args: string[], marker: string): Promise<Child> => startMarkedChild(args, marker, 45_000);

/**
 * `env`: variables for the shell on top of the clean environment the suite's children get (which
 * drops a developer's GIFTBATCH_API_KEY on purpose), e.g. the Sandbox key a test chose. They go
 * through a Node env file read at start-up, so they never touch the OS keychain other tests share.
 */
export async function startWebShell(dataDir: string, env: Readonly<Record<string, string>> = {}): Promise<Child> {
  const args = ['electron/cli/web.ts', '--port', '0', '--data-dir', dataDir, '--no-build'];
  if (Object.keys(env).length === 0) return startChild(args, 'GIFTBATCH_URL');
  const dir = tempDir('env');
  const file = join(dir.path, 'shell.env');
  writeFileSync(file, Object.entries(env).map(([k, v]) => `${k}=${JSON.stringify(v)}\n`).join(''), { mode: 0o600 });
  try {
    return await startChild([`--env-file=${file}`, ...args], 'GIFTBATCH_URL');
  } finally {
    dir.remove();
  }
}

export function startSimulator(extraArgs: string[]): Promise<Child> {
  return startChild(['electron/cli/index.ts', 'simulator', '--port', '0', ...extraArgs], 'SIMULATOR_URL');
}

export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `giftbatch-e2e-${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
