// Stopping a campaigns:create on request (the contract's `campaigns:stopCreate`): one shared cell per
// create, which the engine's thread and the import worker's job both see without a message. The
// stop and the job's last step race for it with one compare-and-exchange each, so exactly one
// wins: either the job sees the stop before its last part (it throws, what it stored is removed,
// the create answers 'stopped'), or it has claimed the cell for its last part and commit (the stop
// is too late and says so; the create answers the new draft). Never a stop said to have worked on
// a create that then saved its rows. Pure: loaded by the worker and by the engine's thread.

/** The create runs and may still be stopped. */
const RUNNING = 0;
/** A stop was asked for: the job throws at its next check. */
const STOP_ASKED = 1;
/** The job is storing its last part and committing: too late to stop. */
const COMMITTING = 2;

/** One create's cell: an Int32Array over a SharedArrayBuffer, posted to the worker with the job. */
export type StopCell = Int32Array;

export function newStopCell(): StopCell {
  return new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
}

/**
 * The engine's side: asks the create to stop. 'stopping' when it will (a second ask answers the same),
 * 'saved' when its job already claimed its last step: its rows are stored, or being stored for good.
 */
export function askStop(cell: StopCell): 'stopping' | 'saved' {
  const was = Atomics.compareExchange(cell, 0, RUNNING, STOP_ASKED);
  return was === COMMITTING ? 'saved' : 'stopping';
}

/** What `campaigns:stopCreate` says when its stop will take effect (the engine's, and the browser shell's for a create still uploading). */
export const STOPPING_MESSAGE = 'Stopping: nothing of this draft will be saved.';

/** The create was stopped on request before it stored anything for good; what it stored is removed. */
export class CreateStoppedError extends Error {
  override readonly name = 'CreateStoppedError';
  constructor(message = 'Saving the draft was stopped: nothing was saved and no campaign was created.') {
    super(message);
  }
}

/**
 * The job's side, at each point it may stop (before, during (every 2,000 rows checked:
 * ValidateOptions.checkpoint) and after checking the file, before each part): throws when asked to.
 */
export function throwIfStopAsked(cell: StopCell | undefined): void {
  if (cell && Atomics.load(cell, 0) === STOP_ASKED) throw new CreateStoppedError();
}

/**
 * The job's side, right before its last step (the last part, or the one transaction of a small
 * file): claims the cell so no stop can win after it; throws if a stop won first.
 */
export function claimLastStep(cell: StopCell | undefined): void {
  if (!cell) return;
  const was = Atomics.compareExchange(cell, 0, RUNNING, COMMITTING);
  if (was === STOP_ASKED) throw new CreateStoppedError();
}
