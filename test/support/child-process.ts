// A child process that prints one `MARKER=<url>` line on stdout once it is ready (the simulator's
// SIMULATOR_URL, the browser shell's GIFTBATCH_URL), shared by the benchmarks and the end-to-end
// suite. Runs `node --import tsx <args>` from the repo root, in an environment without the
// developer's key or data folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// Long-running children (a bench's simulator) keep only the tail of what they print.
const KEEP_OUTPUT = 100_000;

export interface Child {
  readonly url: string;
  readonly process: ChildProcess;
  /** What it printed so far (the tail), for a failure message. */
  output(): string;
  /** SIGTERM, SIGKILL if it has not exited 10 s later, and wait for the exit. */
  stop(): Promise<void>;
  /** SIGKILL: the crash a laptop lid or a power cut makes. */
  kill(): Promise<void>;
}

/** The environment of the processes under test: a key or data folder of the developer's must not leak in. */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.GIFTBATCH_API_KEY;
  delete env.GIFTBATCH_DATA_DIR;
  delete env.GIFTBATCH_REQUEST_TIMEOUT_MS;
  return env;
}

/** Starts `node --import tsx <args>` and resolves once it prints `MARKER=<url>` on stdout. */
export function startChild(args: readonly string[], marker: string, timeoutMs: number): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const output = (): string => `stdout: ${stdout}\nstderr: ${stderr.slice(-2000)}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stopWith = async (signal: NodeJS.Signals): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(force);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')} printed no ${marker} line within ${timeoutMs} ms.\n${output()}`));
    }, timeoutMs);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.length > KEEP_OUTPUT) stderr = stderr.slice(-KEEP_OUTPUT / 2);
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.length > KEEP_OUTPUT) stdout = stdout.slice(-KEEP_OUTPUT / 2);
      const line = stdout.split('\n').find((l) => l.startsWith(`${marker}=`));
      if (!line) return;
      clearTimeout(timer);
      resolve({ url: line.slice(marker.length + 1).trim(), process: child, output, stop: () => stopWith('SIGTERM'), kill: () => stopWith('SIGKILL') });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited (${code ?? signal}) before printing ${marker}.\n${output()}`));
    });
  });
}
