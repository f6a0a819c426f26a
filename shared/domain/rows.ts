// A recipient row's life (docs/architecture.md, "A row's life"):
//
// invalid ──(edit/fix)──> ready ──(send)──> sending ──(200 order)──> ordered ──(item COMPLETED)──> delivered
//                           │                  │                         ├──(item CANCELLED / order PAYMENT_EXPIRED / CANCELLED)──> cancelled
//                           │                  └──(definite 4xx)──> failed
//                           └──(user skips)──> skipped
//
// `sending` has no way back to `ready`: once a POST may have left, the row's key is spent and the
// row can only be settled by finding or re-posting its order under that same key.

export const ROW_STATES = [
  'invalid',
  'ready',
  'sending',
  'ordered',
  'delivered',
  'failed',
  'cancelled',
  'skipped',
] as const;

export type RowState = (typeof ROW_STATES)[number];

const TRANSITIONS: Readonly<Record<RowState, readonly RowState[]>> = {
  invalid: ['ready', 'skipped', 'invalid'],
  ready: ['sending', 'skipped', 'invalid'],
  sending: ['ordered', 'failed'],
  ordered: ['delivered', 'cancelled', 'ordered'],
  delivered: [],
  // A definite rejection means no order exists under the key, so the row may be tried again with it.
  failed: ['ready'],
  cancelled: [],
  skipped: ['ready', 'invalid'],
};

export function canTransition(from: RowState, to: RowState): boolean {
  return TRANSITIONS[from].includes(to);
}

export function isRowState(value: string): value is RowState {
  return (ROW_STATES as readonly string[]).includes(value);
}

/** States in which the recipient has (or may have) a gift: its POST may have left and was not cancelled. */
export const HAS_A_GIFT: readonly RowState[] = ['sending', 'ordered', 'delivered'];

/**
 * Settled: the row's outcome is final and nothing more is waited for: its gift was delivered or
 * cancelled, its order was refused (failed), or it was skipped (a failed or skipped row changes again
 * only if the organiser sends it again). An `ordered` row is not settled: its gift is ordered and
 * waiting for delivery, which the poller checks (the first check comes 30–60 s after the send).
 */
export const SETTLED_STATES: readonly RowState[] = ['delivered', 'cancelled', 'failed', 'skipped'];

export function isSettled(state: RowState): boolean {
  return SETTLED_STATES.includes(state);
}
