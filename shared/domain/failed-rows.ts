// What a campaign says of its failed rows (the service refused their orders) that a retry would put
// back: how many, why (the service's answers, grouped), and what to do next. The same words in the
// window (its banner, with its buttons' names) and in the CLI (with its commands).
import { plural } from './plural.ts';

/** One group of failed rows refused with the same answer (CampaignSummary.failedReasons). */
export interface FailedReason {
  /** "HTTP 402 INSUFFICIENT_BALANCE"; null when the stored reason names no HTTP status. */
  readonly answer: string | null;
  /** One row's words from the service ("the order costs USD 25.00 but the balance is USD 10.00"). */
  readonly message: string;
  readonly rows: number;
}

/** How the next step is taken where the words are read: the window's buttons or the CLI's commands. */
export interface FailedRowsSteps {
  /** 'press "Retry 2 failed"', 'run `giftbatch retry c_… `' */
  readonly retry: string;
  /** 'make a follow-up campaign ("Follow-up campaign…")', 'run `giftbatch follow-up c_… --failed`' */
  readonly followUp: string;
}

/** "2 rows failed: the service refused their orders, so no gift was sent and nothing was charged for them." */
export function failedRowsHeadline(rows: number): string {
  return rows === 1
    ? 'One row failed: the service refused its order, so no gift was sent and nothing was charged for it.'
    : `${plural(rows, 'row')} failed: the service refused their orders, so no gift was sent and nothing was charged for them.`;
}

/**
 * Why, a sentence per answer: '2 rows: the service answered HTTP 402 INSUFFICIENT_BALANCE ("the order
 * costs …").'; and when the groups given do not cover every failed row, how many others there are.
 */
export function failedReasonLines(rows: number, reasons: readonly FailedReason[], perRow: string): string[] {
  const lines = reasons.map((r) => {
    const words = r.message === '' ? '' : ` ("${r.message}")`;
    const said = r.answer !== null ? `the service answered ${r.answer}${words}` : r.message !== '' ? `the service said "${r.message}"` : 'the service gave no reason';
    return `${plural(r.rows, 'row')}: ${said}.`;
  });
  const rest = rows - reasons.reduce((n, r) => n + r.rows, 0);
  if (rest > 0) lines.push(`${plural(rest, 'other row')} failed for other reasons (${perRow}).`);
  return lines;
}

/** The answer is about money: the account's balance (HTTP 402). */
const isBalance = (r: FailedReason): boolean => r.answer !== null && /^HTTP 402\b/.test(r.answer);

/**
 * What to do: fix the cause (top up the balance when the service said 402), then retry the same rows
 * under their own references (never paid twice); or a follow-up campaign, new references, for rows
 * to send differently.
 */
export function failedRowsNextStep(rows: number, reasons: readonly FailedReason[], steps: FailedRowsSteps): string {
  const them = rows === 1 ? 'it' : 'them';
  const cause = reasons.some(isBalance) ? "Top up the account's balance with the service" : 'Fix the cause with the service';
  return (
    `${cause}, then ${steps.retry}: the same ${rows === 1 ? 'row goes' : 'rows go'} again under ${rows === 1 ? 'its' : 'their'} own ${rows === 1 ? 'reference' : 'references'}, so none can be paid twice. ` +
    `To send ${them} differently instead, ${steps.followUp}: a new campaign, with new references.`
  );
}
