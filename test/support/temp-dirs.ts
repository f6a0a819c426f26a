// Temp folders a test file makes (data folders, CSV files, a CLI's or simulator's state), removed
// once the file's tests have run, passed or failed: test/support/vitest-setup.ts calls
// removeTempDirs in an afterAll that runs after the file's own (after the processes using them
// are stopped). No vitest import here: the e2e specs and the soak script load test/support/cli.ts too.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made = new Set<string>();

/** A fresh folder under the OS temp dir, removed after the test file. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

/** Removes every folder tempDir made; one that cannot be removed is named, not a test failure. */
export function removeTempDirs(): void {
  for (const dir of made) {
    made.delete(dir);
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch (error) {
      console.warn(`could not remove the test's temp folder ${dir}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
