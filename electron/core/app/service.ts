// The app service: every call of the contract on the engine, plus the background runtime (sends,
// polling, batched progress events). The desktop shell and the browser shell each create one and
// put their transport in front of `call`; tests use it directly.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { events, type CallInput, type CallName, type CallOutput, type EventName, type EventPayload, type Result } from '../../../shared/contract.ts';
import type { Clock } from '../clock.ts';
import type { Engine } from '../engine.ts';
import type { AppContext } from './context.ts';
import { dispatch, runCall, type Handlers } from './dispatch.ts';
import { createRedactor, errorText, type AppLog } from './errors.ts';
import { createImportRunner, type ImportRunnerOptions } from './import-runner.ts';
import { campaignHandlers } from './handlers-campaigns.ts';
import { rowHandlers } from './handlers-rows.ts';
import { setupHandlers } from './handlers-setup.ts';
import { createPollScheduler, type PollSchedulerOptions } from './poll-scheduler.ts';
import { createProgressBatcher } from './progress.ts';
import { createSendRuns, type QueueTuning } from './send-runs.ts';
import { campaignOrThrow, summarize } from './summary.ts';

export interface AppServiceOptions {
  engine: Engine;
  shell: AppContext['shell'];
  /** Defaults to the engine's clock. */
  clock?: Clock;
  log?: AppLog;
  version?: string;
  /** The sample recipients CSV: `resources/sample-recipients.csv` of the repo, or under process.resourcesPath when packaged. */
  sampleCsvPath?: string;
  /** Where GIFTBATCH_API_KEY is read from (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Desktop: save dialog + write; the path saved to, or null when cancelled. */
  saveReport?: (fileName: string, csv: string) => Promise<string | null>;
  /**
   * Polling schedule adjustments (tests use a fast one); `auto: false` polls only when asked (the
   * CLI, which runs its own loop and exits when done).
   */
  polling?: Pick<PollSchedulerOptions, 'delayMs' | 'startDelayMs' | 'retryDelayMs' | 'auto'>;
  /** Send queue tuning (concurrency, backoff); tests only. */
  queue?: QueueTuning;
  progressIntervalMs?: number;
  /** The import worker's fault injection and idle time; tests only. */
  imports?: Pick<ImportRunnerOptions, 'fault' | 'idleMs' | 'workerUrl'>;
}

export type Listener<E extends EventName> = (payload: EventPayload<E>) => void;

export interface AppService {
  readonly handlers: Handlers;
  /** Parse, run, and answer as data: what every transport calls. */
  call(name: string, input: unknown): Promise<Result<unknown>>;
  /** Typed form of `call`, for tests and glue code. */
  invoke<C extends CallName>(name: C, input: CallInput<C>): Promise<Result<CallOutput<C>>>;
  /**
   * The same call for a caller in this process that answers errors itself (the CLI): the output, or
   * the error as thrown (a ServiceError, a CsvLimitError…), not turned into data.
   */
  request<C extends CallName>(name: C, input: CallInput<C>): Promise<CallOutput<C>>;
  on<E extends EventName>(event: E, listener: Listener<E>): () => void;
  /** Pauses every run (marking them interrupted) and stops polling. The engine stays open: its owner closes it. */
  close(): Promise<void>;
}

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

export function defaultSampleCsvPath(resourcesPath?: string): string {
  const candidates = [
    ...(resourcesPath ? [join(resourcesPath, 'sample-recipients.csv'), join(resourcesPath, 'resources', 'sample-recipients.csv')] : []),
    join(repoRoot, 'resources', 'sample-recipients.csv'),
    join(process.cwd(), 'resources', 'sample-recipients.csv'),
  ];
  return candidates.find((p) => existsSync(p)) ?? candidates[candidates.length - 1] ?? 'sample-recipients.csv';
}

function packageVersion(): string {
  try {
    const text = readFileSync(join(repoRoot, 'package.json'), 'utf8');
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && 'version' in parsed && typeof parsed.version === 'string') return parsed.version;
  } catch {
    // Packaged builds pass the version in.
  }
  return '0.0.0';
}

export function createAppService(options: AppServiceOptions): AppService {
  const { engine } = options;
  const processEnv = options.env ?? process.env;
  const redactor = createRedactor();
  redactor.add(processEnv.GIFTBATCH_API_KEY);
  const log: AppLog = (level, message) => {
    try {
      options.log?.(level, redactor.redact(message));
    } catch {
      // A failing logger must not fail a call.
    }
  };

  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  const emit = <E extends EventName>(event: E, payload: EventPayload<E>) => {
    const parsed = events[event].safeParse(payload);
    if (!parsed.success) {
      log('error', `event ${event} does not match the contract: ${parsed.error.message}`);
      return;
    }
    for (const listener of listeners.get(event) ?? []) {
      try {
        (listener as Listener<E>)(parsed.data as EventPayload<E>);
      } catch (error) {
        log('warn', `an ${event} listener failed: ${errorText(error)}`);
      }
    }
  };

  // Built in dependency order; `summary` reads the runtime through the context once it exists.
  const ctx = {} as { -readonly [K in keyof AppContext]: AppContext[K] };
  const summary = (campaignId: string) =>
    summarize({ engine, isRunning: (id) => ctx.runs.isRunning(id), nextPollAt: (c) => ctx.pollers.nextPollAt(c) }, campaignOrThrow(engine, campaignId));

  const progress = createProgressBatcher({
    db: engine.db,
    ...(options.progressIntervalMs !== undefined ? { intervalMs: options.progressIntervalMs } : {}),
    emit: (campaignId, changedRowIds) => emit('campaign:progress', { campaign: summary(campaignId), changedRowIds }),
    onError: (error) => log('warn', `progress event failed: ${errorText(error)}`),
  });
  const pollers = createPollScheduler({
    engine,
    log,
    onChanged: (campaignId, rowIds) => progress.notify(campaignId, rowIds),
    ...options.polling,
  });
  const runs = createSendRuns({
    engine,
    log,
    onProgress: (campaignId) => progress.notify(campaignId),
    onFinished: (campaignId, message, lookedUp) => {
      try {
        emit('campaign:finished', { campaign: summary(campaignId), message: redactor.redact(message), lookedUp });
        pollers.ensure(campaignOrThrow(engine, campaignId));
      } catch (error) {
        log('warn', `finishing campaign ${campaignId}: ${errorText(error)}`);
      }
    },
    ...(options.queue ? { queue: options.queue } : {}),
  });

  const imports = createImportRunner({ db: engine.db, log, ...options.imports });

  Object.assign(ctx, {
    engine,
    shell: options.shell,
    version: options.version ?? packageVersion(),
    sampleCsvPath: options.sampleCsvPath ?? defaultSampleCsvPath(),
    processEnv,
    redactor,
    runs,
    pollers,
    progress,
    imports,
    summary,
    createProgress: (payload) => emit('campaigns:createProgress', payload),
    saveReport: options.saveReport,
  } satisfies AppContext);

  const handlers: Handlers = { ...setupHandlers(ctx), ...campaignHandlers(ctx), ...rowHandlers(ctx) };
  // Polling resumes by itself; sending never does: it waits for a person's Resume.
  pollers.resumeAll();

  let closed: Promise<void> | null = null;
  return {
    handlers,
    call: (name, input) => dispatch(handlers, name, input, { log, redactor }),
    invoke: (name, input) => dispatch(handlers, name, input, { log, redactor }) as never,
    request: (name, input) => runCall(handlers, name, input),
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener as (payload: never) => void);
      listeners.set(event, set);
      return () => set.delete(listener as (payload: never) => void);
    },
    close() {
      closed ??= (async () => {
        await imports.close();
        await runs.close();
        await pollers.close();
        progress.close();
      })();
      return closed;
    },
  };
}
