// Runs the `giftbatch` command line to completion, as an organiser who also uses the CLI would, in
// the suite's clean environment plus the variables given (e.g. the Sandbox key).
import { execFile } from 'node:child_process';
import { cleanEnv } from '../../support/child-process.ts';
import { ROOT } from './paths.ts';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'electron/cli/index.ts', ...args],
      { cwd: ROOT, env: { ...cleanEnv(), ...env }, timeout: 90_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
