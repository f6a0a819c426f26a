// A follow-up campaign sends a NEW gift in place of one whose recipient link expired unaccepted
// (follow-up.ts). What the service does with such a gift after its expiry_date is "not shown" (the
// spec, sections 3 and 8): the simulator closes the link for good, but a service may still let the
// recipient accept it (a grace period), or renew the link. Then the follow-up's gift is a second
// one, paid for, for the same person. So before a follow-up sends, the gifts it replaces are read
// again (one poll round of the source campaign), and a row whose replaced gift was accepted
// meanwhile, or whose link is open again, stops the send until the person skips it.
import { plural } from '../../../shared/domain/plural.ts';
import { z } from 'zod';
import type { Db } from '../db/open.ts';
import { parseRows } from '../db/parse.ts';
import { statement } from '../db/statements.ts';
import type { PollRoundResult } from './poller.ts';

/**
 * Rows of @campaignId still to send (ready) and the gifts of its source campaign @source they replace
 * (rows the follow-up took, followed_up_in, that had an order). Read through the rows of the source
 * campaign by state (recipients_campaign_state), never the whole table.
 */
const REPLACING_SQL = `FROM recipients o JOIN recipients r ON r.campaign_id = o.followed_up_in AND r.line = o.line AND r.state = 'ready'
  WHERE o.campaign_id = @source AND o.followed_up_in = @campaignId AND o.order_id IS NOT NULL`;

const conflictRow = z.object({
  line: z.number().int(),
  order_id: z.number().int(),
  state: z.string(),
  acceptance_expiry: z.number().nullable(),
});

/** Lines named in a problem at most; the count says how many there are. */
const MAX_LINES = 10;

/**
 * The pre-flight's problem, or null: rows of the campaign that would give a second gift to a
 * recipient whose first one (the gift the row replaces) the service now shows delivered, or still
 * waiting with its link open again. `poll` reads one source campaign's orders again (engine.poll).
 */
export async function replacedGiftProblem(
  db: Db,
  campaignId: string,
  now: () => number,
  poll: (sourceCampaignId: string) => Promise<PollRoundResult>,
): Promise<string | null> {
  // A follow-up names its source in its first events; any other campaign has nothing to check.
  const detail = statement(db, `SELECT detail FROM events WHERE campaign_id = ? AND kind = 'follow-up-of' ORDER BY id LIMIT 1`).pluck().get(campaignId);
  const source = typeof detail === 'string' ? sourceOf(detail) : null;
  if (source === null) return null;
  // Only gifts still waiting on their recipient may have changed since (a regular poll may already
  // have found one delivered: that one is a conflict too, below).
  const waiting = statement(db, `SELECT 1 ${REPLACING_SQL} AND o.state = 'ordered' LIMIT 1`).pluck().get({ campaignId, source });
  const round: Pick<PollRoundResult, 'error'> = waiting === undefined ? {} : await poll(source);
  const conflicts = parseRows(
    conflictRow,
    'recipients',
    statement(
      db,
      `SELECT r.line, o.order_id, o.state, o.acceptance_expiry ${REPLACING_SQL}
         AND (o.state = 'delivered' OR (o.state = 'ordered' AND (o.acceptance_expiry IS NULL OR o.acceptance_expiry >= @now)))
       ORDER BY r.line`,
    ).all({ campaignId, source, now: now() }),
  );
  const parts: string[] = [];
  if (conflicts.length > 0) {
    const accepted = conflicts.filter((c) => c.state === 'delivered');
    const reopened = conflicts.filter((c) => c.state !== 'delivered');
    const lines = (rows: readonly { line: number }[]) =>
      `line${rows.length === 1 ? '' : 's'} ${rows.slice(0, MAX_LINES).map((c) => c.line).join(', ')}${rows.length > MAX_LINES ? ', …' : ''}`;
    const why = [
      accepted.length > 0 ? `the recipient accepted it after all (${lines(accepted)})` : '',
      reopened.length > 0 ? `its link is open again (${lines(reopened)})` : '',
    ].filter((s) => s !== '');
    parts.push(
      `${plural(conflicts.length, 'row')} ${conflicts.length === 1 ? 'replaces' : 'replace'} a gift whose recipient link had expired, but the service now says ${why.join(', and ')}: ` +
        (conflicts.length === 1
          ? "sent, it would give that recipient a second gift. Skip that row (in the app, on the campaign's rows), then send."
          : "sent, they would give those recipients a second gift. Skip those rows (in the app, on the campaign's rows), then send."),
    );
  }
  if (round.error !== undefined) {
    parts.push(
      `The gifts this campaign replaces (their recipient links had expired) could not all be read again, so it is not known whether ` +
        `their recipients have accepted them since (${round.error}). Try again in a moment.`,
    );
  }
  return parts.length > 0 ? parts.join(' ') : null;
}

function sourceOf(detail: string): string | null {
  try {
    const source: unknown = (JSON.parse(detail) as { source?: unknown } | null)?.source;
    return typeof source === 'string' ? source : null;
  } catch {
    return null;
  }
}
