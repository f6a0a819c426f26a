// Runs the app's imports and reports in the import worker (import-worker.ts), so the engine's thread
// keeps answering while a large file is read and stored, or every row of a campaign written out: it posts the job and gets back only what the
// handler returns (import-jobs.ts). One worker, started on the first import and kept for the next
// ones (starting one costs a module load and a database open), let go after a while without work.
// A worker that dies with jobs in hand (it exited, threw where nothing caught it, or close()
// terminated it) fails them with ImportStoppedError: its storing transaction never committed.
// A worker whose code cannot load at all (it never said it was ready; jobs are sent only once it
// has) would fail every import for good: the packaged app's worker loads from app.asar, which this
// machine cannot try. Then, and only then, the jobs run on this thread instead, said once in the log:
// imports hold the engine's thread while they run, but they work.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ImportRequest, PreviewRequest } from '../campaigns/importer.ts';
import type { RevalidateCounts } from '../campaigns/revalidate.ts';
import type { FollowUpRequest } from '../campaigns/follow-up.ts';
import { discardUnfinishedImports, type ProductSnapshot } from '../db/repos/campaigns.ts';
import type { Db } from '../db/open.ts';
import { errorData, plainError, purposefulError, runImportJob, type ErrorData, type CreateAnswer, type FollowUpAnswer, type ImportFault, type ImportJob, type PreviewDto, type PreviewRows } from './import-jobs.ts';
import type { CreateProgress } from './create-progress.ts';
import type { StopCell } from './create-stop.ts';
import type { WorkerProgress, WorkerReady, WorkerReply, WorkerRequest, WorkerSetup } from './import-worker.ts';
import { errorText, type AppLog } from './errors.ts';

/**
 * Where the worker's code is, by one rule: beside this module's own file.
 * - Built (the desktop app: electron-vite bundles the main process into out/main/index.js, and
 *   electron.vite.config.ts gives import-worker.ts as a second input, so it is out/main/import-worker.js,
 *   with the chunks they share beside them): import.meta.url is a .js file, the worker is ./import-worker.js.
 * - Source (run through tsx: the browser shell, the CLI, tests, benches): import.meta.url is this
 *   .ts file, and the worker starts import-worker-dev.mjs, which registers tsx inside the thread and
 *   imports ./import-worker.ts (Node 20 ignores `execArgv: ['--import', 'tsx']` in a worker).
 */
export function importWorkerUrl(moduleUrl: string = import.meta.url): URL {
  return new URL(new URL(moduleUrl).pathname.endsWith('.ts') ? './import-worker-dev.mjs' : './import-worker.js', moduleUrl);
}

/** The import did not finish: its worker stopped (or failed unexpectedly) before answering. Nothing was stored. */
export class ImportStoppedError extends Error {
  override readonly name = 'ImportStoppedError';
  constructor(kind: ImportJob['kind'], cause: unknown) {
    super(
      kind === 'create'
        ? 'The import stopped before it finished; nothing was stored and no campaign was created. Try again; if it keeps happening, the details are in the log.'
        : kind === 'report'
          ? 'Writing the report stopped before it finished; nothing was changed. Try again; if it keeps happening, the details are in the log.'
          : kind === 'revalidate'
            ? 'Checking the rows again stopped before it finished; no row was changed. Try again; if it keeps happening, the details are in the log.'
          : kind === 'followUp'
            ? 'Making the follow-up campaign stopped before it finished; nothing was stored. Try again; if it keeps happening, the details are in the log.'
          : 'Checking the file stopped before it finished; nothing was stored. Try again; if it keeps happening, the details are in the log.',
      { cause },
    );
  }
}

/** A job's error as its caller gets it, from the worker or this thread alike: the error an import raises on purpose, else ImportStoppedError. */
function jobError(kind: ImportJob['kind'], data: ErrorData): Error {
  return purposefulError(data) ?? new ImportStoppedError(kind, plainError(data));
}

export interface ImportRunnerOptions {
  /** The engine's connection: the worker opens the same file, with the same busy timeout and page limit. */
  readonly db: Db;
  /** Tests only: the first worker started fails this way inside its storing transaction. */
  readonly fault?: ImportFault;
  /** How long a worker without work is kept (default 30 s). */
  readonly idleMs?: number;
  /** Where the worker's code is (default importWorkerUrl()); tests give one that cannot load. */
  readonly workerUrl?: URL;
  /** Told once when the worker cannot start and imports run on this thread instead. */
  readonly log?: AppLog;
}

export interface ImportRunner {
  /** `rows` 'none': the worker builds no row list, so none crosses to this thread. */
  preview(request: PreviewRequest, rows: PreviewRows): Promise<PreviewDto>;
  /**
   * Creates the campaign (or nothing, for a file without recipient rows); `now` is its creation time.
   * `onProgress` hears how far it is (a few times a second at most), never after the promise settles.
   * `stop`: its stop cell (create-stop.ts); a stop asked in time fails it with CreateStoppedError,
   * what it stored removed first, and the worker goes on with the next job.
   */
  create(request: ImportRequest, now: number, onProgress?: (progress: CreateProgress) => void, stop?: StopCell): Promise<CreateAnswer>;
  /** The campaign's delivery report as CSV text, read and written out in the worker. */
  report(campaignId: string): Promise<string>;
  /** The campaign's unsent rows checked again against `snapshot`, in one transaction, in the worker. */
  revalidate(campaignId: string, products: ReadonlyMap<number, ProductSnapshot>, now: number): Promise<RevalidateCounts>;
  /** A follow-up campaign from a campaign's failed, cancelled or expired rows, read, checked and stored in one transaction, in the worker. */
  followUp(request: FollowUpRequest, now: number): Promise<FollowUpAnswer>;
  /** Terminates the worker; imports still in it fail with ImportStoppedError, having stored nothing. */
  close(): Promise<void>;
}

interface Pending {
  readonly worker: Worker;
  readonly job: ImportJob;
  /** Posted once the worker is ready; until then it waits here. */
  readonly request: WorkerRequest;
  readonly kind: ImportJob['kind'];
  readonly onProgress?: ((progress: CreateProgress) => void) | undefined;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export function createImportRunner(options: ImportRunnerOptions): ImportRunner {
  const { db } = options;
  const idleMs = options.idleMs ?? 30_000;
  const pending = new Map<number, Pending>();
  let fault: ImportFault | null = options.fault ?? null;
  let worker: Worker | null = null;
  let idle: NodeJS.Timeout | null = null;
  let nextId = 0;
  let closed = false;
  /** Workers that said they are ready: only these are sent jobs. */
  const ready = new WeakSet<Worker>();
  /** Why the worker could not start, once it could not: every job then runs on this thread. */
  let unavailable: unknown = null;

  const busy = (w: Worker) => [...pending.values()].some((p) => p.worker === w);

  const stopped = (w: Worker, cause: unknown) => {
    if (worker === w) worker = null;
    for (const [id, p] of pending) {
      if (p.worker !== w) continue;
      pending.delete(id);
      p.reject(new ImportStoppedError(p.kind, cause));
    }
  };

  /** The worker never became ready (its code did not load): no job reached it, so its jobs, and every later one, run here. */
  const cannotStart = (w: Worker, cause: unknown) => {
    if (closed) return stopped(w, cause);
    if (worker === w) worker = null;
    if (unavailable === null) {
      unavailable = cause;
      options.log?.('warn', `The import worker could not start (${errorText(cause)}); imports run on the engine's thread instead, which holds the window while a large file is read.`);
    }
    for (const [id, p] of pending) {
      if (p.worker !== w) continue;
      pending.delete(id);
      runHere(p.job, p.onProgress).then(p.resolve, p.reject);
    }
  };

  /** A job on this thread, answered as the worker answers: its result through JSON, its errors as they cross back. */
  const runHere = async (job: ImportJob, onProgress?: (progress: CreateProgress) => void): Promise<unknown> => {
    await new Promise((resolve) => setImmediate(resolve));
    try {
      return JSON.parse(JSON.stringify(runImportJob(db, job, onProgress)));
    } catch (error) {
      const data = errorData(error);
      throw jobError(job.kind, data);
    }
  };

  const start = (): Worker => {
    const setup: WorkerSetup = { file: db.name, busyTimeoutMs: Number(db.pragma('busy_timeout', { simple: true })), fault };
    fault = null;
    const w = new Worker(options.workerUrl ?? importWorkerUrl(), { workerData: setup });
    w.on('message', (reply: WorkerReply | WorkerProgress | WorkerReady) => {
      if ('ready' in reply) {
        ready.add(w);
        for (const p of pending.values()) if (p.worker === w) w.postMessage(p.request);
        return;
      }
      const p = pending.get(reply.id);
      if (!p) return;
      if ('progress' in reply) {
        try {
          p.onProgress?.(reply.progress);
        } catch {
          // A listener's failure is not the import's.
        }
        return;
      }
      pending.delete(reply.id);
      if (reply.ok) p.resolve(JSON.parse(reply.json));
      else p.reject(jobError(p.kind, reply.error));
      if (!busy(w)) rest(w);
    });
    w.on('error', (error) => (ready.has(w) ? stopped(w, error) : cannotStart(w, error)));
    w.on('exit', (code) => {
      const cause = new Error(`the import worker exited with code ${code}`);
      if (ready.has(w)) stopped(w, cause);
      else cannotStart(w, cause);
    });
    return w;
  };

  // Without work the worker keeps no process alive, and is let go after idleMs.
  const rest = (w: Worker) => {
    w.unref();
    if (idle) clearTimeout(idle);
    idle = setTimeout(() => {
      if (worker !== w || busy(w)) return;
      worker = null;
      void w.terminate();
    }, idleMs);
    idle.unref();
  };

  const inFlight = new Set<string>();

  /** What a stopped create stored under `marker`, removed: in a worker, or here when closing. */
  const discard = async (marker: string): Promise<void> => {
    try {
      if (closed) discardUnfinishedImports(db, marker);
      else await run({ kind: 'discard', marker });
    } catch {
      // Left hidden; removed at the next start (discardUnfinishedImports in openEngine).
    }
  };

  const run = (job: ImportJob, onProgress?: (progress: CreateProgress) => void): Promise<unknown> => {
    if (closed) return Promise.reject(new ImportStoppedError(job.kind, new Error('the import runner is closed')));
    if (unavailable !== null) return runHere(job, onProgress);
    if (idle) clearTimeout(idle);
    const w = (worker ??= start());
    w.ref();
    const id = ++nextId;
    return new Promise((resolve, reject) => {
      const request: WorkerRequest = { id, job, pageLimit: Number(db.pragma('max_page_count', { simple: true })), ...(onProgress ? { progress: true } : {}) };
      pending.set(id, { worker: w, job, request, kind: job.kind, onProgress, resolve, reject });
      if (ready.has(w)) w.postMessage(request);
    });
  };

  return {
    preview: (request, rows) => run({ kind: 'preview', request, rows }) as Promise<PreviewDto>,
    async create(request, now, onProgress, stop) {
      // Rows go in parts behind a hidden campaign (import-jobs.ts); if the job fails or its worker
      // dies, what it stored is removed before the caller hears of it.
      const marker = `${hostname()} ${process.pid} ${randomUUID()}`;
      inFlight.add(marker);
      try {
        return (await run({ kind: 'create', request, now, marker, ...(stop ? { stop } : {}) }, onProgress)) as CreateAnswer;
      } catch (error) {
        await discard(marker);
        throw error;
      } finally {
        inFlight.delete(marker);
      }
    },
    report: (campaignId) => run({ kind: 'report', campaignId }) as Promise<string>,
    revalidate: (campaignId, products, now) => run({ kind: 'revalidate', campaignId, products: [...products], now }) as Promise<RevalidateCounts>,
    followUp: (request, now) => run({ kind: 'followUp', request, now }) as Promise<FollowUpAnswer>,
    async close() {
      closed = true;
      if (idle) clearTimeout(idle);
      const w = worker;
      worker = null;
      if (w) await w.terminate();
      // Imports cut off by the close: remove their parts now (closing may take the time).
      for (const marker of inFlight) discardUnfinishedImports(db, marker);
    },
  };
}
