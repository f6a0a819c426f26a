// What `giftbatch status` (and the JSON of send, resume and poll) says about a campaign: the app's
// one campaign summary (electron/core/app/summary.ts, what every screen and progress event shows),
// in the CLI's own stable JSON shape (snake_case, a stable interface: keep its keys).
import type { CampaignSummary } from '../../shared/contract.ts';
import { NO_AMOUNT } from '../../shared/domain/validation.ts';
import { RECORD_ORDER_STEP_PATTERN, RESEND_UNCONFIRMED_STEP } from '../../shared/domain/campaigns.ts';
import { failedReasonLines, failedRowsHeadline, failedRowsNextStep } from '../../shared/domain/failed-rows.ts';

export interface CampaignStatus {
  id: string;
  name: string;
  environment: CampaignSummary['environment'];
  product_id: number;
  /** Every product its rows are ordered as, its own (product_id) first: several when its file chose a gift per row. */
  products: { product_id: number; name: string | null }[];
  send_state: CampaignSummary['sendState'];
  paused_reason: CampaignSummary['pausedReason'];
  paused_detail: string | null;
  counts: CampaignSummary['counts'];
  charged: { currency: string; amount: string }[];
  /** Of `charged`, what went to orders later cancelled or whose payment expired (no gift delivered). */
  charged_cancelled: { currency: string; amount: string }[];
  /** Of `charged`, what went to orders whose recipient link expired unaccepted (the acceptance_expired rows). */
  charged_expired: { currency: string; amount: string }[];
  /** Ordered rows waiting on a recipient whose acceptance link has expired. */
  acceptance_expired: number;
  /** Of acceptance_expired, those `giftbatch follow-up ID --expired` would take now (none taken by a follow-up yet). */
  acceptance_expired_to_follow_up: number;
  /** The follow-up campaigns that took expired acceptances of this one, each with how many. */
  acceptance_expired_followed_up: { id: string; name: string; rows: number }[];
  /** Of counts.failed, those `giftbatch retry ID` would put back (none taken by a follow-up campaign). */
  failed_to_retry: number;
  /** Why those failed, grouped by the service's answer ("HTTP 402 INSUFFICIENT_BALANCE", null when none is named), largest group first (at most 3). */
  failed_reasons: { answer: string | null; message: string; rows: number }[];
  /** The follow-up campaigns that took failed rows of this one, each with how many. */
  failed_followed_up: { id: string; name: string; rows: number }[];
  /** Rows whose order answer disagreed with what they asked, or held values we could not read. */
  flagged: number;
  /** Ordered rows whose charge the service has not stated yet (`giftbatch poll` reads it): `charged` leaves them out until then. */
  uncharged_orders: number;
  /** When the service was last asked about its undelivered orders (ISO 8601, UTC); null when it never was. */
  last_checked_at: string | null;
}

/** A campaign's status as the CLI prints it, from the summary `campaigns:get` answers. */
export function campaignStatus(s: CampaignSummary): CampaignStatus {
  return {
    id: s.id,
    name: s.name,
    environment: s.environment,
    product_id: s.productId,
    products: s.productList.map((p) => ({ product_id: p.productId, name: p.name })),
    send_state: s.sendState,
    paused_reason: s.pausedReason,
    paused_detail: s.pausedDetail === null ? null : inCliWords(s.pausedDetail, s.id),
    counts: s.counts,
    charged: s.charged,
    charged_cancelled: s.chargedCancelled,
    charged_expired: s.chargedExpired,
    acceptance_expired: s.acceptanceExpired,
    acceptance_expired_to_follow_up: s.followUpRows.expired ?? 0,
    acceptance_expired_followed_up: s.expiredFollowedUp.map((f) => ({ id: f.id, name: f.name, rows: f.rows })),
    failed_to_retry: s.retryable,
    failed_reasons: s.failedReasons.map((r) => ({ answer: r.answer, message: r.message, rows: r.rows })),
    failed_followed_up: s.failedFollowedUp.map((f) => ({ id: f.id, name: f.name, rows: f.rows })),
    flagged: s.flagged,
    uncharged_orders: s.unchargedOrders,
    last_checked_at: s.lastPolledAt === null ? null : new Date(s.lastPolledAt).toISOString(),
  };
}

/**
 * The engine's words about a campaign, said in a terminal. They name the window's Resume button
 * ("Press Resume to send the rest."), which a terminal does not have: the CLI names the command that
 * does it instead. The window's words stay as the engine gives them.
 */
export function inCliWords(text: string, campaignId: string): string {
  return text
    .replaceAll(RESEND_UNCONFIRMED_STEP, `run \`giftbatch resume ${campaignId} --resend-unconfirmed\``)
    .replaceAll(RECORD_ORDER_STEP_PATTERN, (_, line: string) => `run \`giftbatch record-order ${campaignId} --line ${line} --order ORDER_ID\``)
    .replace(/\b([Pp])ress Resume\b/g, (_, p: string) => `${p === 'P' ? 'Run' : 'run'} \`giftbatch resume ${campaignId}\``);
}

/**
 * A row's validation issue, said in a terminal: where the window's Gift step has a default amount,
 * the CLI has `--amount N`. Any other issue is as the shared validation words it.
 */
export function issueInCliWords(message: string): string {
  if (!message.endsWith(NO_AMOUNT)) return message;
  return `${message.slice(0, -NO_AMOUNT.length)}no amount and no default amount: enter an amount in the row, or give one for every row without it with --amount N`;
}

/**
 * What a terminal user does about the rows a finished campaign left unsent because they need fixing:
 * the window's editor is for drafts, so the file is corrected and sent again (the recipients who got
 * their gift are skipped as earlier recipients). Null when the campaign is not done or has no such row.
 */
/**
 * The failed rows `giftbatch retry` would put back: how many, why (the service's answers, grouped)
 * and the next step, in the words the window's banner uses with its buttons (shared/domain/failed-rows.ts).
 * Null when there are none, while rows are still being sent, or when a refused pause's detail says it.
 */
export function failedRowsHint(
  status: Pick<CampaignStatus, 'send_state' | 'paused_reason' | 'failed_to_retry' | 'failed_reasons'>,
  campaignId: string,
): string | null {
  const n = status.failed_to_retry;
  if (n === 0 || status.send_state === 'sending' || (status.send_state === 'paused' && status.paused_reason === 'refused')) return null;
  const reasons = failedReasonLines(n, status.failed_reasons, `\`giftbatch report ${campaignId} --out FILE.csv\` says why for each`);
  const next = failedRowsNextStep(n, status.failed_reasons, {
    retry: `run \`giftbatch retry ${campaignId}\``,
    followUp: `run \`giftbatch follow-up ${campaignId} --failed\``,
  });
  return [failedRowsHeadline(n), ...reasons, next].join(' ');
}

/** Where the failed rows a follow-up campaign took went: '3 failed rows followed up in "Gala, again" (c_…)'; null when none was. */
export function failedFollowedUpNote(status: Pick<CampaignStatus, 'failed_followed_up'>): string | null {
  const taken = status.failed_followed_up;
  if (taken.length === 0) return null;
  const rows = taken.reduce((n, f) => n + f.rows, 0);
  const names = taken.map((f) => `"${f.name}" (${f.id})`);
  return `${rows} failed ${rows === 1 ? 'row' : 'rows'} followed up in ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`}`;
}

export function needsFixingHint(status: Pick<CampaignStatus, 'send_state' | 'counts'>, campaignId: string): string | null {
  const n = status.counts.invalid;
  if (status.send_state !== 'done' || n === 0) return null;
  return (
    `${n === 1 ? '1 row needs' : `${n} rows need`} fixing and ${n === 1 ? 'was' : 'were'} not sent (\`giftbatch report ${campaignId} --out FILE.csv\` says why for each). ` +
    `To send ${n === 1 ? 'it, correct it' : 'them, correct them'} in your file and send it again: its recipients who already have a gift from this environment are skipped.`
  );
}
