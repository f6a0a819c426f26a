// Child processes of the suite: the browser shell (`electron/cli/web.ts`) and a standalone
// simulator (`giftbatch simulator`). Each prints one line with its address on stdout when ready.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './paths.ts';

export interface Child {
  url: string;
  process: ChildProcess;
  output(): string;
  /** SIGTERM, then wait for the exit. */
  stop(): Promise<void>;
  /** SIGKILL: the crash a laptop lid or a power cut makes. */
  kill(): Promise<void>;
}

function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  // A key in the developer's environment must not leak into the shells under test.
  delete env.GIFTBATCH_API_KEY;
  delete env.GIFTBATCH_DATA_DIR;
  return env;
}

function startChild(args: string[], marker: string, timeoutMs = 45_000): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stopWith = async (signal: NodeJS.Signals): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args[0]} printed no ${marker} line within ${timeoutMs} ms.\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n').find((l) => l.startsWith(`${marker}=`));
      if (!line) return;
      clearTimeout(timer);
      resolve({
        url: line.slice(marker.length + 1).trim(),
        process: child,
        output: () => `stdout: ${stdout}\nstderr: ${stderr}`,
        stop: () => stopWith('SIGTERM'),
        kill: () => stopWith('SIGKILL'),
      });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${args[0]} exited (${code ?? signal}) before printing ${marker}.\nstdout: ${stdout}\nstderr: ${stderr}`));
    });
  });
}

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
