// When a gift's acceptance link has expired unaccepted, defined once: the engine's row and summary
// answers, the CLI's status and poll rounds, and the rows table all ask this (the counts of such
// rows state the same rule once in SQL: EXPIRED_ACCEPTANCE_SQL in electron/core/db/repos/recipients.ts).
import type { RowState } from './rows.ts';

export interface AcceptanceFacts {
  readonly state: RowState;
  /** Epoch ms the service gave as the item's acceptance expiry; null when it gave none. */
  readonly acceptanceExpiry: number | null | undefined;
}

/**
 * The row is ordered, waiting on a recipient who must accept the gift (a recipient-enters-details
 * item), and its link's expiry has passed: the gift will not be delivered unless someone acts.
 * A delivered row was accepted; a cancelled one will never deliver; neither is "expired".
 */
export function isAcceptanceExpired(row: AcceptanceFacts, now: number): boolean {
  return row.state === 'ordered' && row.acceptanceExpiry != null && row.acceptanceExpiry < now;
}
