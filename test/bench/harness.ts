// What every scenario shares: writing its one result line, logging to stderr, timing, and
// child processes (each scenario runs in its own Node process, so one scenario's heap, JIT state
// and garbage never weigh on another's figures).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cleanEnv, startChild as startMarkedChild, type Child } from '../support/child-process.ts';

export type { Child };

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

/** Starts `node --import tsx <args>` and resolves once it prints `MARKER=<url>` (two minutes at most by default). */
export function startChild(args: readonly string[], marker: string, timeoutMs = 120_000): Promise<Child> {
  return startMarkedChild(args, marker, timeoutMs);
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

/**
 * A figure beside its baseline, measured alike: `warmup` runs of both, then `runs` of both, taking
 * turns at going first so a drift in the machine's load weighs on both alike.
 */
export function interleaved(measure: () => number, baseline: () => number, opts: { warmup: number; runs: number }): { measured: number[]; baseline: number[] } {
  for (let i = 0; i < opts.warmup; i++) {
    measure();
    baseline();
  }
  const measured: number[] = [];
  const base: number[] = [];
  for (let i = 0; i < opts.runs; i++) {
    if (i % 2 === 0) {
      measured.push(measure());
      base.push(baseline());
    } else {
      base.push(baseline());
      measured.push(measure());
    }
  }
  return { measured, baseline: base };
}
