// Exit codes of the giftbatch CLI: a stable interface, relied on by scripts outside the repo.
import type { ErrorCode } from '../../shared/contract.ts';

export const EXIT = {
  ok: 0,
  /** Some rows are invalid or failed, or the campaign stopped for a reason of its own (README's list); also a full disk or an unexpected error. */
  rowsFailed: 1,
  usage: 2,
  /** The service could not be reached, or it rejected the key. */
  unreachable: 3,
  /** Ctrl-C: sending paused cleanly, nothing in flight lost; or saving the draft stopped, nothing saved or sent; or a poll stopped (Ctrl-C or SIGTERM), each order as it was or as the service said. */
  interrupted: 130,
} as const;

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * The exit code for a call's error code that reached the command line unhandled: the contract's
 * classification in the CLI's documented codes ('stopped': a create stopped on request, as a Ctrl-C).
 */
const EXIT_FOR: Partial<Record<ErrorCode, number>> = {
  'invalid-input': EXIT.usage,
  'not-found': EXIT.usage,
  configuration: EXIT.usage,
  'service-auth': EXIT.unreachable,
  'service-unreachable': EXIT.unreachable,
  stopped: EXIT.interrupted,
};

export function exitCodeFor(code: ErrorCode): number {
  return EXIT_FOR[code] ?? EXIT.rowsFailed;
}
