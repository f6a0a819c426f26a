// Running the real giftbatch CLI and the real simulator as separate processes, as a user would.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AuditReport } from '../../electron/simulator/audit.ts';
import { tempDir as tempFolder } from './temp-dirs.ts';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY = join(ROOT, 'electron', 'cli', 'index.ts');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A fresh temp folder; under vitest, removed after the test file (test/support/temp-dirs.ts). */
export function tempDir(prefix = 'giftbatch-cli-'): string {
  return tempFolder(prefix);
}

/** Spawns `giftbatch <args>` the way `npm run -s giftbatch --` does (node --import tsx), in one process. */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export function collect(child: ChildProcess): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return collect(spawnCli(args, env));
}

export interface SimulatorProcess {
  url: string;
  child: ChildProcess;
  audit(): Promise<AuditReport>;
  setFaults(faults: Record<string, unknown>): Promise<void>;
  stop(): Promise<void>;
}

/** `giftbatch simulator --port 0 …` in its own process, so killing the CLI never kills the service. */
export async function startSimulatorProcess(flags: string[] = []): Promise<SimulatorProcess> {
  const child = spawnCli(['simulator', '--port', '0', ...flags]);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (d: Buffer) => {
      buffer += d.toString();
      const match = /^SIMULATOR_URL=(\S+)$/m.exec(buffer);
      if (match?.[1]) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`simulator exited (${code}): ${stderr}`)));
  });
  return {
    url,
    child,
    async audit() {
      return (await (await fetch(`${url}/__audit`)).json()) as AuditReport;
    },
    async setFaults(faults) {
      const res = await fetch(`${url}/__control/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(faults) });
      if (!res.ok) throw new Error(`setFaults: ${res.status} ${await res.text()}`);
    },
    stop() {
      return new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    },
  };
}

/** A CSV of n recipients with distinct e-mails (example.com), header Name,Email,Amount. */
export function writeRecipients(dir: string, n: number, amount = ''): string {
  const lines = ['Name,Email,Amount'];
  for (let i = 1; i <= n; i += 1) lines.push(`Recipient ${i},recipient${i}@example.com,${amount}`);
  const file = join(dir, `recipients-${n}.csv`);
  writeFileSync(file, `${lines.join('\r\n')}\r\n`);
  return file;
}

export function json<T>(text: string): T {
  return JSON.parse(text) as T;
}

/** Sets an account's balance at a simulator (its test-only control route): how tests make the service refuse for the balance. */
export async function setSimulatorBalance(url: string, key: string, balance: string, currency = 'USD'): Promise<void> {
  const res = await fetch(`${url}/__control/account`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key, currency, balance }) });
  if (!res.ok) throw new Error(`setting the balance of ${key}: ${res.status} ${await res.text()}`);
}
