// How a send run ends and what it says: the campaign's final send state, and the sentences a person
// reads (why it paused, what to do next).
import { plural } from '../../../shared/domain/plural.ts';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/open.ts';
import { getCampaign, setSendState, type PauseReason } from '../db/repos/campaigns.ts';
import { countByState, type StateCounts } from '../db/repos/recipients.ts';
import type { Ambiguous } from '../service/index.ts';
import type { Order } from '../service/types.ts';
import type { SendResult, StopReason } from './send-queue.ts';
import type { Job } from './send-work.ts';

export interface StopRequest {
  /** 'lease': another process holds the campaign now; its send state is that process's to keep. */
  readonly reason: Exclude<PauseReason, 'interrupted' | 'preflight'> | 'lease';
  readonly detail: string;
}

export function finish(
  db: Db,
  clock: Clock,
  campaignId: string,
  stop: StopRequest | null,
  fatal: { error: unknown } | null,
  unbuildable: ReadonlyMap<number, string>,
  leftSending: readonly Job[],
): Omit<SendResult, 'campaignId' | 'stats' | 'reconciliation' | 'lookedUpOnPause'> {
  const counts = countByState(db, campaignId);
  let stoppedBy: StopReason;
  let reason: PauseReason | null = null;
  let detail: string;
  if (fatal !== null) {
    stoppedBy = 'user';
    reason = 'interrupted';
    detail = stop?.detail ?? 'Sending stopped on an internal error.';
  } else if (stop?.reason === 'lease') {
    stoppedBy = 'lease';
    detail = stop.detail;
  } else if (stop) {
    stoppedBy = stop.reason;
    reason = stop.reason;
    detail = stop.detail;
  } else if (counts.ready === 0 && counts.sending === 0) {
    stoppedBy = 'done';
    detail = doneDetail(counts);
  } else if (unbuildable.size > 0) {
    stoppedBy = 'preflight';
    reason = 'preflight';
    const [first] = unbuildable.values();
    detail = `${plural(unbuildable.size, 'row')} could not be sent and ${unbuildable.size === 1 ? 'was' : 'were'} left ready. ${first ?? ''}`.trim();
  } else {
    stoppedBy = 'attempts';
    reason = 'circuit-breaker';
    const lines = leftSending.map((j) => j.row.line).slice(0, 5).join(', ');
    detail =
      `${plural(counts.sending, 'row')} got no clear answer after every attempt allowed in one run (line${leftSending.length === 1 ? '' : 's'} ${lines}${leftSending.length > 5 ? ', …' : ''}). ` +
      `Sending paused; press Resume to look ${counts.sending === 1 ? 'it' : 'them'} up by key and try again.`;
  }
  const now = clock.now();
  const from = getCampaign(db, campaignId)?.sendState ?? 'sending';
  if (stop?.reason === 'lease' && fatal === null) {
    // Not ours to change any more.
  } else if (reason === null) {
    if (from !== 'done') setSendState(db, campaignId, { from, to: 'done' }, now);
  } else if (from === 'sending') {
    setSendState(db, campaignId, { from, to: 'paused', reason, detail }, now);
  }
  const campaign = getCampaign(db, campaignId);
  return {
    stoppedBy,
    sendState: campaign?.sendState ?? from,
    pausedReason: campaign?.pausedReason ?? null,
    message: detail,
    counts,
  };
}

export function rejectionText(status: number, code: string | undefined, message: string): string {
  return `${message} (HTTP ${status}${code ? ` ${code}` : ''})`;
}

// What a refused pause says and advises when it pauses, stored at the end of its detail
// (refusedDetail); pausedDetailNow words its advice again from the same parts.
const PAUSED_NOT_FAILED = 'Sending paused rather than fail every row';
const FIX_THE_CAUSE = 'fix the cause with the service (a balance, a product)';
const REFUSED_ADVICE = `${PAUSED_NOT_FAILED}; ${FIX_THE_CAUSE}, retry the failed rows, then resume.`;

export function refusedDetail(times: number, refusal: string): string {
  return `The service refused ${times} orders in a row with the same answer: ${refusal}. ${REFUSED_ADVICE}`;
}

/** What a paused campaign's detail rests on now, from its summary's counts. */
export interface PauseFacts {
  readonly pausedReason: PauseReason | null;
  readonly pausedDetail: string | null;
  /** Its failed rows a retry puts back (none a follow-up took). */
  readonly retryable: number;
  /** Rows still to send here (ready and sending). */
  readonly left: number;
  /** The follow-up campaigns that took its failed rows, and how many each (recipients.ts failedRowsFollowedUp). */
  readonly failedFollowedUp: readonly { readonly name: string; readonly rows: number }[];
}

/**
 * The pause's detail as it stands now. A refused pause advises retrying the failed rows; once a
 * follow-up campaign took some, it says where they went and what resuming still sends (or that
 * nothing is left here), and asks to retry only the failed rows a retry still puts back.
 * Any other detail is returned as stored.
 */
export function pausedDetailNow(facts: PauseFacts): string | null {
  const detail = facts.pausedDetail;
  const taken = facts.failedFollowedUp.reduce((n, f) => n + f.rows, 0);
  if (facts.pausedReason !== 'refused' || detail === null || !detail.endsWith(REFUSED_ADVICE) || taken === 0) return detail;
  const names = facts.failedFollowedUp.map((f) => `"${f.name}"`);
  const where = names.length === 1 ? `follow-up campaign ${names[0] ?? ''}` : `follow-up campaigns ${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
  const gone = `${taken === 1 ? 'One failed row' : `${taken} failed rows`} went to ${where} and ${taken === 1 ? 'is' : 'are'} sent from there`;
  const next =
    facts.retryable > 0
      ? `${FIX_THE_CAUSE}, retry the ${facts.retryable} other failed row${facts.retryable === 1 ? '' : 's'}, then resume.`
      : facts.left > 0
        ? `${FIX_THE_CAUSE}, then resume to send the ${plural(facts.left, 'row')} still to send here.`
        : 'nothing is left to send here.';
  return `${detail.slice(0, -REFUSED_ADVICE.length)}${PAUSED_NOT_FAILED}. ${gone}; ${next}`;
}

export function authDetail(message: string): string {
  return `The service rejected the API key, so sending stopped (${message}). Set the key for this environment again, then press Resume.`;
}

const REASON_TEXT: Record<Ambiguous['reason'], string> = {
  timeout: 'timeout',
  unreachable: 'service unreachable',
  connection: 'connection broken',
  truncated: 'answer cut off',
  'server-error': 'server error',
  status: 'unclear HTTP status',
  unreadable: 'unreadable answer',
  schema: 'unexpected answer',
  paging: 'unexpected paging',
  aborted: 'request cancelled',
  'too-large': 'answer too large',
};

export function breakerDetail(threshold: number, last: Ambiguous): string {
  const what = last.status !== undefined && last.reason !== 'timeout' ? `${REASON_TEXT[last.reason]} (HTTP ${last.status})` : REASON_TEXT[last.reason];
  return (
    `${threshold} requests in a row got no clear answer (last: ${what} on ${last.endpoint}). ` +
    'Sending paused; press Resume when the service is back.'
  );
}

/** Why a run paused on rows whose empty lookup proves nothing (ListReach): the first row's reason, and how many more. */
export function unconfirmedDetail(rows: number, first: string): string {
  return rows <= 1 ? first : `${first} ${rows - 1} more ${rows - 1 === 1 ? 'row is' : 'rows are'} in the same case; each row's Details says so.`;
}

export function mismatch(endpoint: string, order: Order, key: string): Ambiguous {
  return {
    kind: 'ambiguous',
    reason: 'schema',
    status: undefined,
    endpoint,
    message: `${endpoint}: the answer is order ${order.id} under the key "${order.externalReferenceId ?? ''}", not this row's key "${key}"; nothing was recorded from it.`,
  };
}

/**
 * What a finished run says: nothing is left to send, and what became of the rows. Rows that were
 * never to be sent (skipped, or still needing a fix) are named, so "done" never reads as "all sent".
 */
export function doneDetail(counts: StateCounts): string {
  const unsent = [
    counts.skipped > 0 ? `${counts.skipped} skipped` : '',
    counts.invalid > 0 ? `${counts.invalid} not sent (${counts.invalid === 1 ? 'it needs' : 'they need'} fixing)` : '',
  ].filter((part) => part !== '');
  return `Sending is done: ${counts.ordered + counts.delivered} ordered, ${counts.failed} failed${unsent.length > 0 ? `, ${unsent.join(', ')}` : ''}.`;
}
