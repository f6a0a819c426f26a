// The import worker: a worker thread that runs the app's imports (decode, parse, validate, and the
// one storing transaction) on its own connection to the engine's database file, so the engine's
// thread (Electron's main thread, which every window waits on) never waits for one. Started and
// fed by import-runner.ts; one job at a time, in the order they come. WAL lets this second
// connection read while the engine's writes, and wait (busy_timeout) for the engine's writes to
// end before its own. A thread that dies inside the storing transaction leaves nothing: the
// transaction never commits, and the connection's close at thread exit rolls it back.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase, type Db } from '../db/open.ts';
import type { CreateProgress } from './create-progress.ts';
import { errorData, runImportJob, type ErrorData, type ImportFault, type ImportJob } from './import-jobs.ts';

export interface WorkerSetup {
  /** The engine's database file. */
  readonly file: string;
  readonly busyTimeoutMs: number;
  /** Tests only. */
  readonly fault: ImportFault | null;
}

export interface WorkerRequest {
  readonly id: number;
  readonly job: ImportJob;
  /** The engine connection's page limit (SQLite keeps it per connection): this one may grow no further. */
  readonly pageLimit: number;
  /** A create's caller wants to know how far it is: WorkerProgress messages come before its reply. */
  readonly progress?: boolean;
}

/**
 * `json`: the answer as JSON text. A string crosses to the main thread in one copy, and JSON.parse
 * builds a 100,000-row preview there in about half the time structured cloning takes to.
 */
export type WorkerReply = { readonly id: number; readonly ok: true; readonly json: string } | { readonly id: number; readonly ok: false; readonly error: ErrorData };

/** Posted once, when the worker's code has loaded: the runner sends jobs only after it. */
export interface WorkerReady {
  readonly ready: true;
}

/** How far job `id` is (already throttled: create-progress.ts); posted before the job's reply, never after. */
export interface WorkerProgress {
  readonly id: number;
  readonly progress: CreateProgress;
}

const port = parentPort;
if (!port) throw new Error('import-worker.ts runs in a worker thread (see import-runner.ts)');
const setup = workerData as WorkerSetup;
let db: Db | null = null;

function connection(): Db {
  if (db) return db;
  const opened = openDatabase(setup.file, { busyTimeoutMs: setup.busyTimeoutMs });
  if (setup.fault) injectFault(opened, setup.fault);
  db = opened;
  return opened;
}

port.on('message', (request: WorkerRequest) => {
  let reply: WorkerReply;
  try {
    const open = connection();
    open.pragma(`max_page_count = ${Math.trunc(request.pageLimit)}`);
    const report = request.progress ? (progress: CreateProgress) => port.postMessage({ id: request.id, progress } satisfies WorkerProgress) : undefined;
    reply = { id: request.id, ok: true, json: JSON.stringify(runImportJob(open, request.job, report)) };
  } catch (error) {
    reply = { id: request.id, ok: false, error: errorData(error) };
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true } satisfies WorkerReady);

/** Tests only: a trigger of this connection alone counts the recipient rows inserted, and fails at the Nth, inside the transaction. */
function injectFault(target: Db, fault: ImportFault): void {
  let inserted = 0;
  target.function('giftbatch_test_fault', () => {
    inserted += 1;
    if (inserted !== fault.afterRows) return null;
    if (fault.action === 'exit') process.exit(70);
    if (fault.action === 'throw') throw new Error(`test fault: thrown after ${inserted} rows inserted`);
    // Hangs until terminated: a thread stuck inside the transaction.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    return null;
  });
  target.exec('CREATE TEMP TRIGGER giftbatch_test_fault AFTER INSERT ON recipients BEGIN SELECT giftbatch_test_fault(); END');
}
