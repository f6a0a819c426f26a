// Why a campaign is not moving, in words, with the next step: interrupted, paused by the breaker,
// a refused key, a failed pre-flight, an order the service issued otherwise than asked; plus the
// next poll while orders await delivery, and when the service was last asked about them.
import { Fragment } from 'react';
import type { CampaignSummary } from '../../../../shared/contract.ts';
import { failedReasonLines, failedRowsHeadline, failedRowsNextStep } from '../../../../shared/domain/failed-rows.ts';
import { plural } from '../../../../shared/domain/plural.ts';
import { Message } from '../../components/Message.tsx';
import { useNow } from '../../components/useNow.ts';
import { formatTotals } from '../../lib/money-display.ts';
import { formatDateTime, formatRelative } from '../../lib/time.ts';
import { interruptedSummary } from '../../stores/campaigns-store.ts';
import { awaitingDelivery } from '../campaigns/campaign-state.ts';
import { showsHeldRows } from './HeldRows.tsx';

const ADVICE: Record<NonNullable<CampaignSummary['pausedReason']>, string> = {
  user: 'You paused it. Orders already placed are still tracked.',
  'circuit-breaker': 'Several requests in a row got no clear answer from the service, so sending stopped by itself. Nothing was marked failed on that evidence. Check the connection (Environments & key), then resume.',
  interrupted: 'Giftbatch stopped while this campaign was sending. Nothing more is sent until you press Resume; rows that were mid-send are first looked up, so none is ordered twice.',
  preflight: 'The pre-flight check failed (the product changed, is out of stock, or an amount no longer fits). Fix the cause, then resume.',
  auth: 'The service refused the API key. Enter a valid key under Environments & key, then resume.',
  refused: 'Nothing more goes out until you resume.',
  mismatch: 'The service answered an order with something other than what the row asked (another amount, currency, product or recipient). The flagged row shows both values; nothing more was sent. Check with the service before you resume: the next order goes alone and is checked again.',
  unconfirmed: 'Giftbatch cannot tell whether some gifts that were being sent when it stopped were ordered: the service\'s order list may not go back far enough to show them, and sending them again could pay for a second gift. They are listed below under "Rows to look up at the service" with their references: look each up in the service\'s own records. Found an order: enter its number and record it. None there: press Resume and choose "Send them again". Nothing is sent again until you decide.',
};

/** The failed rows to retry: why, and what to do (failedRowsWords). */
function FailedRowsBanner({ summary: c }: { summary: CampaignSummary }) {
  const { headline, reasons, next } = failedRowsWords(c);
  return (
    <Message kind="warning" testId="banner-failed">
      <p>
        <strong>{headline}</strong>
      </p>
      {reasons.map((line) => (
        <p key={line} className="small" data-testid="banner-failed-reason">
          {line}
        </p>
      ))}
      <p>{next}</p>
    </Message>
  );
}

/** The service issued something else than a row asked: what, where, and what to do, before the counts. */
function MismatchBanner({ summary: c }: { summary: CampaignSummary }) {
  const { left, progress } = interruptedSummary(c);
  return (
    <Message kind="error" testId="banner-mismatch">
      <p>
        <strong>Paused: the service issued something other than what was asked.</strong> {c.pausedDetail ?? ADVICE.mismatch}
      </p>
      <p className="small">
        {c.flagged > 0 && (
          <>
            {c.flagged === 1 ? 'One row is' : `${c.flagged} rows are`} flagged below (⚠) with what it asked and what was issued.{' '}
          </>
        )}
        {progress}{left > 0 ? ` (${formatTotals(c.remaining, 'nothing')})` : ''}; nothing more goes out until you resume.
      </p>
    </Message>
  );
}

/**
 * The pause's stored detail, shown after the advice when it tells a person something more: the
 * service's message, the error that stopped sending. Left out: for rows held for a person (the panel
 * "Rows to look up at the service" lists each with its reference and each row's Details gives the
 * whole reason, so the banner does not repeat that long text a third time); a detail the advice
 * already says ("Giftbatch stopped while this campaign was sending."); and a single word, an engine's
 * token ("closed") rather than a sentence, which would read as "Detail: closed".
 */
export function pauseDetailShown(c: CampaignSummary): boolean {
  const detail = c.pausedDetail?.trim();
  if (!detail) return false;
  // A one-word detail of an interrupted run is an engine token ("closed"); of other pauses it may be
  // all there is of an error (ECONNRESET), kept for whoever helps.
  if (c.pausedReason === 'interrupted' && !/\s/.test(detail)) return false;
  if (c.pausedReason && ADVICE[c.pausedReason].includes(detail)) return false;
  // Paused on held rows: the detail is the first one's reason, which the list of held rows says.
  return !(c.pausedReason === 'unconfirmed' && showsHeldRows(c));
}

/** When the service was last asked about the campaign's orders: "Last checked just now.", "Last checked 3 min ago." */
export function lastChecked(at: number, now: number): string {
  const ago = formatRelative(Math.min(at, now), now);
  return `Last checked ${ago === 'now' ? 'just now' : ago}.`;
}

/**
 * The follow-up campaigns that took some of a campaign's rows, named as the paused banner names the ones
 * that took its failed rows: 'follow-up campaign "Gala, again"', 'follow-up campaigns "A", "B" and "C"';
 * 'a follow-up campaign' when none is known by name. With `onOpen`, each name is a link to that
 * campaign's screen (a link-styled button, as the campaigns list opens a campaign). `bare`: the names
 * alone ('"Gala, again"', '"A" and "B"'), where the sentence says what they are.
 */
export function FollowUpNames({ list, onOpen, bare = false }: { list: CampaignSummary['expiredFollowedUp']; onOpen?: ((id: string) => void) | undefined; bare?: boolean }) {
  if (list.length === 0) return <>a follow-up campaign</>;
  const name = (f: CampaignSummary['expiredFollowedUp'][number]) => (
    <Fragment key={f.id}>
      &quot;
      {onOpen ? (
        <button type="button" className="link" onClick={() => onOpen(f.id)} data-testid="banner-follow-up-link">
          {f.name}
        </button>
      ) : (
        f.name
      )}
      &quot;
    </Fragment>
  );
  const names = list.map(name);
  if (names.length === 1) return bare ? <>{names[0]}</> : <>follow-up campaign {names[0]}</>;
  return (
    <>
      {bare ? '' : 'follow-up campaigns '}
      {names.slice(0, -1).map((n, i) => (
        <Fragment key={list[i]?.id}>
          {i > 0 ? ', ' : ''}
          {n}
        </Fragment>
      ))}{' '}
      and {names.at(-1)}
    </>
  );
}

/**
 * A finished campaign's rows that were never sent because they need fixing: why is in each row's
 * Details; they are corrected and sent from this screen (Fix rows), through the first send's
 * pre-flight and confirmation, each under the reference it was given at import.
 */
export function notSentNeedFixing(rows: number): string {
  return (
    `${rows === 1 ? 'One row was' : `${rows} rows were`} not sent: ${rows === 1 ? 'it needs' : 'they need'} fixing (each row's Details says why; Problems lists them). ` +
    `Correct ${rows === 1 ? 'it' : 'them'} here, then send ${rows === 1 ? 'it' : 'them'}: the same check and confirmation as the first send, and nothing already sent is sent again.`
  );
}

/**
 * The failed rows a retry would put back (the service refused their orders): how many, why (the
 * service's answers, grouped), and the next step with the screen's buttons: top up or fix the cause,
 * then "Retry N failed" (same references), or a follow-up campaign. The CLI says the same with its
 * commands (electron/cli/status.ts failedRowsHint).
 */
export function failedRowsWords(c: Pick<CampaignSummary, 'retryable' | 'failedReasons' | 'followUpRows'>): { headline: string; reasons: string[]; next: string } {
  const n = c.retryable;
  return {
    headline: failedRowsHeadline(n),
    reasons: failedReasonLines(n, c.failedReasons, n === 1 ? 'its Details says why' : "each row's Details says why; Problems lists them"),
    next: failedRowsNextStep(n, c.failedReasons, {
      retry: `press "Retry ${n} failed"`,
      followUp: 'press "Follow-up campaign…"',
    }),
  };
}

/** Whether the failed rows' banner is shown: rows to retry, nothing sending, and no refused pause (its own banner says the same). */
export function showsFailedRows(c: CampaignSummary): boolean {
  return c.retryable > 0 && !c.running && c.sendState !== 'sending' && !(c.sendState === 'paused' && c.pausedReason === 'refused');
}

/**
 * `onFix`: opens the campaign's rows to fix on its screen (absent: the banner offers no button).
 * `onOpenCampaign`: opens another campaign's screen, for the follow-ups named (absent: plain names).
 */
export function StatusBanner({ summary: c, onFix, onOpenCampaign }: { summary: CampaignSummary; onFix?: (() => void) | undefined; onOpenCampaign?: ((id: string) => void) | undefined }) {
  const now = useNow();
  const { left, progress } = interruptedSummary(c);
  // Expired rows a follow-up campaign took: the ones it could still take are followUpRows.expired.
  const expiredTaken = Math.max(0, c.acceptanceExpired - c.followUpRows.expired);
  // Failed rows a follow-up campaign took (the refused pause's detail says so itself).
  const failedTaken = c.failedFollowedUp.reduce((n, f) => n + f.rows, 0);
  return (
    <>
      {c.sendState === 'paused' && c.pausedReason === 'mismatch' && <MismatchBanner summary={c} />}
      {c.sendState === 'paused' && c.pausedReason && c.pausedReason !== 'mismatch' && (
        <Message kind={c.pausedReason === 'user' ? 'info' : 'warning'} testId={`banner-${c.pausedReason}`}>
          <strong>{c.pausedReason === 'interrupted' ? 'Interrupted.' : 'Paused.'}</strong> {progress}
          {left > 0 ? ` (${formatTotals(c.remaining, 'nothing')})` : ''}. {ADVICE[c.pausedReason]}
          {pauseDetailShown(c) && <span className="muted"> Detail: {c.pausedDetail}</span>}
        </Message>
      )}
      {c.flagged > 0 && !(c.sendState === 'paused' && c.pausedReason === 'mismatch') && (
        <Message kind="warning" testId="banner-flagged">
          {c.flagged === 1 ? 'One row is' : `${c.flagged} rows are`} flagged below (⚠): the service's answer to {c.flagged === 1 ? 'its order' : 'their orders'} differed
          from what {c.flagged === 1 ? 'it' : 'they'} asked, or could not be read. Each flag shows what was asked and what the service stated.
        </Message>
      )}
      {c.acceptanceExpired > 0 && (
        <Message kind="warning" testId="banner-expired">
          {plural(c.acceptanceExpired, 'recipient')} never accepted before the link expired. Their rows are flagged
          below; {expiredTaken === 0
            ? "contact them or the service's support."
            : expiredTaken === c.acceptanceExpired
              ? <><FollowUpNames list={c.expiredFollowedUp} onOpen={onOpenCampaign} /> took {expiredTaken === 1 ? 'it' : 'them all'} as new gifts.</>
              : <><FollowUpNames list={c.expiredFollowedUp} onOpen={onOpenCampaign} /> took {expiredTaken} of them as new gifts; contact the others or the service&apos;s support.</>}
        </Message>
      )}
      {showsFailedRows(c) && <FailedRowsBanner summary={c} />}
      {failedTaken > 0 && !(c.sendState === 'paused' && c.pausedReason === 'refused') && (
        <Message kind="info" testId="banner-failed-followed-up">
          {failedTaken} failed → followed up in <FollowUpNames list={c.failedFollowedUp} onOpen={onOpenCampaign} bare />
          {c.retryable > 0 ? `; ${c.retryable} not yet.` : '.'}
        </Message>
      )}
      {c.sendState === 'done' && c.counts.invalid > 0 && (
        <Message kind="info" testId="banner-unsent-invalid">
          {notSentNeedFixing(c.counts.invalid)}
          {onFix && !c.running && (
            <>
              {' '}
              <button type="button" className="button-small" onClick={onFix} data-testid="banner-fix-rows">
                {c.counts.invalid === 1 ? 'Fix the row' : `Fix the ${c.counts.invalid} rows`}
              </button>
            </>
          )}
        </Message>
      )}
      {((c.nextPollAt !== null && c.counts.ordered > 0) || c.lastPolledAt !== null) && (
        <p className="muted small" data-testid="next-poll" role="status">
          {c.nextPollAt !== null && c.counts.ordered > 0 && (
            <>
              {awaitingDelivery(c)} awaiting delivery{c.acceptanceExpired > 0 ? `, ${c.acceptanceExpired} with an expired link` : ''}. Next check{' '}
              {formatRelative(c.nextPollAt, now)}.{' '}
            </>
          )}
          {c.lastPolledAt !== null && (
            <span data-testid="last-checked" title={formatDateTime(c.lastPolledAt, { seconds: true })}>
              {lastChecked(c.lastPolledAt, now)}
            </span>
          )}
        </p>
      )}
    </>
  );
}
