// A follow-up campaign: a new campaign, with new keys (each row a new gift), made from the rows of
// an earlier one that did not end with a gift the recipient can take. The kinds of such rows are
// defined here once; the engine, the contract and the campaign screen derive from this list.
import { isAcceptanceExpired, type AcceptanceFacts } from './acceptance.ts';

export const FOLLOW_UP_KINDS = [
  /** The service refused the order: no order exists under the row's key. */
  'failed',
  /** The order was cancelled, or its payment expired: it had an order, which will never deliver. */
  'cancelled',
  /** Ordered, but the recipient never accepted the gift before its link expired (acceptance.ts). */
  'expired',
] as const;

export type FollowUpKind = (typeof FOLLOW_UP_KINDS)[number];

/** Which kind of follow-up row this is at `now`, or null when the row is none of them. */
export function followUpKindOf(row: AcceptanceFacts, now: number): FollowUpKind | null {
  if (row.state === 'failed') return 'failed';
  if (row.state === 'cancelled') return 'cancelled';
  return isAcceptanceExpired(row, now) ? 'expired' : null;
}

/** The kinds as a person reads them in a sentence ("rows that failed or whose order was cancelled"). */
export const FOLLOW_UP_WORDS: Readonly<Record<FollowUpKind, string>> = {
  failed: 'that failed',
  cancelled: 'whose order was cancelled',
  expired: 'whose acceptance link expired',
};

/** "rows that failed, whose order was cancelled or whose acceptance link expired" for the kinds given. */
export function followUpRowsText(kinds: readonly FollowUpKind[]): string {
  const words = FOLLOW_UP_KINDS.filter((k) => kinds.includes(k)).map((k) => FOLLOW_UP_WORDS[k]);
  const last = words.pop();
  return `rows ${words.length > 0 ? `${words.join(', ')} or ${last ?? ''}` : (last ?? '')}`;
}
