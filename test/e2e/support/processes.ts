// Child processes of the suite: the browser shell (`electron/cli/web.ts`) and a standalone
// simulator (`giftbatch simulator`). Each prints one line with its address on stdout when ready.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild as startMarkedChild, type Child } from '../../support/child-process.ts';

export type { Child };

const startChild = (args: string[], marker: string): Promise<Child> => startMarkedChild(args, marker, 45_000);

export function startWebShell(dataDir: string): Promise<Child> {
  return startChild(['electron/cli/web.ts', '--port', '0', '--data-dir', dataDir, '--no-build'], 'GIFTBATCH_URL');
}

export function startSimulator(extraArgs: string[]): Promise<Child> {
  return startChild(['electron/cli/index.ts', 'simulator', '--port', '0', ...extraArgs], 'SIMULATOR_URL');
}

export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `giftbatch-e2e-${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
