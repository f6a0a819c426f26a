// Exit codes of the giftbatch CLI: a stable interface, relied on by scripts outside the repo.
export const EXIT = {
  ok: 0,
  /** Some rows are invalid or failed. */
  rowsFailed: 1,
  usage: 2,
  /** The service could not be reached, or it rejected the key. */
  unreachable: 3,
  /** Ctrl-C: sending paused cleanly, nothing in flight lost; or saving the draft stopped, nothing saved or sent. */
  interrupted: 130,
} as const;

export class UsageError extends Error {
  override readonly name = 'UsageError';
}
