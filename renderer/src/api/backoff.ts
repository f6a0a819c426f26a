// Reconnect delays for the event socket: exponential, capped, with full jitter so many tabs
// reconnecting after a restart do not knock at the same instant.

export interface BackoffPolicy {
  readonly baseMs: number;
  readonly maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 250, maxMs: 10_000 };

/** Delay before reconnect attempt `attempt` (0-based); `random` returns [0, 1). */
export function reconnectDelay(attempt: number, random: () => number, policy: BackoffPolicy = DEFAULT_BACKOFF): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(attempt, 30));
  // Never zero: a server that accepts and drops at once must not be hammered in a tight loop.
  return Math.max(policy.baseMs / 2, Math.floor(random() * ceiling));
}
