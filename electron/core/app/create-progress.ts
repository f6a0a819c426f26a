// How far a campaigns:create is (the contract's `campaigns:createProgress`): the file read and
// checked, then its rows stored part by part (import-jobs.ts). Reported in the import worker and
// throttled there, so a few messages a second at most cross to the engine's thread (import-runner.ts
// hands them on, service.ts emits them): never one per part, let alone per row.
import type { EventPayload } from '../../../shared/contract.ts';

/** One report, without the caller's correlation (the handler adds its `progressId`). */
export type CreateProgress = Omit<EventPayload<'campaigns:createProgress'>, 'progressId'>;

/** At most four reports a second, beside the first of each phase and the last. */
export const CREATE_PROGRESS_INTERVAL_MS = 250;

export interface ThrottleOptions {
  readonly intervalMs?: number;
  /** Milliseconds, monotonic (default performance.now). */
  readonly now?: () => number;
}

/**
 * Passes on to `send` the first report of each phase and the last one (every row stored) at once,
 * and between them at most one per interval; drops a report that says nothing new. Nothing is held
 * back for later: the worker's thread is busy or paused between reports, and the last one always
 * goes, so no figure is left behind.
 */
export function throttleCreateProgress(send: (progress: CreateProgress) => void, options: ThrottleOptions = {}): (progress: CreateProgress) => void {
  const interval = options.intervalMs ?? CREATE_PROGRESS_INTERVAL_MS;
  const now = options.now ?? (() => performance.now());
  let last: CreateProgress | null = null;
  let lastAt = Number.NEGATIVE_INFINITY;
  return (progress) => {
    const at = now();
    const newPhase = last?.phase !== progress.phase;
    const done = progress.phase === 'storing' && progress.stored === progress.total;
    const same = !newPhase && last?.stored === progress.stored && last.total === progress.total;
    if (same || (!newPhase && !done && at - lastAt < interval)) return;
    last = progress;
    lastAt = at;
    send(progress);
  };
}

/**
 * The rows stored when the storer is about to write part `partIndex` (0 for the first): it calls
 * `between` before every part (db/repos/campaigns.ts createCampaign), each part `rowsPerPart` rows.
 */
export function storedBeforePart(partIndex: number, rowsPerPart: number, total: number): number {
  return Math.min(partIndex * rowsPerPart, total);
}
