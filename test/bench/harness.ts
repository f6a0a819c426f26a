// What every scenario shares: writing its one result line, logging to stderr, timing, and
// child processes (each scenario runs in its own Node process, so one scenario's heap, JIT state
// and garbage never weigh on another's figures).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const RESULT_MARKER = 'BENCH_RESULT ';

export function log(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}

/** Ends a scenario process: its figures as one line on stdout, for run.ts. */
export function emit(result: Record<string, unknown>): void {
  process.stdout.write(`${RESULT_MARKER}${JSON.stringify(result)}\n`);
}

export function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

export function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  // A key or data folder in the developer's environment must not leak into the processes measured.
  delete env.GIFTBATCH_API_KEY;
  delete env.GIFTBATCH_DATA_DIR;
  delete env.GIFTBATCH_REQUEST_TIMEOUT_MS;
  return env;
}

export interface Child {
  readonly url: string;
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `node --import tsx <args>` and resolves once it prints `MARKER=<url>` on stdout. */
export function startChild(args: readonly string[], marker: string, timeoutMs = 120_000): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')} printed no ${marker} line within ${timeoutMs} ms.\n${stderr.slice(-2000)}`));
    }, timeoutMs);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.length > 100_000) stderr = stderr.slice(-50_000);
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n').find((l) => l.startsWith(`${marker}=`));
      if (!line) return;
      clearTimeout(timer);
      resolve({
        url: line.slice(marker.length + 1).trim(),
        process: child,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(force);
        },
      });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited (${code ?? signal}) before printing ${marker}.\n${stderr.slice(-2000)}`));
    });
  });
}

/** The standalone simulator CLI in its own process. */
export function startSimulatorProcess(flags: readonly string[]): Promise<Child> {
  // No line per request: this process reads the child's stderr, and would pay for every one.
  return startChild(['electron/cli/index.ts', 'simulator', '--port', '0', '--log', 'problems', ...flags], 'SIMULATOR_URL');
}

export interface ScenarioRun {
  readonly result: Record<string, unknown>;
  readonly ms: number;
}

/** Runs one scenario file in a fresh Node process and returns the figures it emitted. */
export function runScenario(file: string, opts: { nodeArgs?: readonly string[]; timeoutMs?: number } = {}): Promise<ScenarioRun> {
  const started = Date.now();
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), '--import', 'tsx', file], {
    cwd: ROOT,
    env: cleanEnv(),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 180_000);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const line = stdout.split('\n').find((l) => l.startsWith(RESULT_MARKER));
      if (code === 0 && line) {
        resolve({ result: JSON.parse(line.slice(RESULT_MARKER.length)) as Record<string, unknown>, ms: Date.now() - started });
      } else {
        reject(new Error(`${file} ended (${code ?? signal}) without a result`));
      }
    });
  });
}

/** Runs a scenario's main, turning a thrown error into a non-zero exit with the reason on stderr. */
export function scenario(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      log(error instanceof Error ? (error.stack ?? error.message) : String(error));
      process.exit(1);
    },
  );
}
