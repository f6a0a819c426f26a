// A campaign's event log as the tests read it. The app only appends to the log and sums it
// (eventTimeline); reading it event by event is the tests' way to see what happened, in order.
import type { Db } from '../../electron/core/db/open.ts';
import type { EventKind } from '../../electron/core/db/repos/events.ts';

export interface LoggedEvent {
  readonly id: number;
  readonly campaignId: string;
  readonly recipientId: number | null;
  readonly at: number;
  readonly kind: EventKind;
  readonly detail: Readonly<Record<string, unknown>> | null;
}

interface EventRow {
  id: number;
  campaign_id: string;
  recipient_id: number | null;
  at: number;
  kind: EventKind;
  detail: string | null;
}

/** The campaign's events in the order they were appended, or one row's when `recipientId` is given. */
export function listEvents(db: Db, campaignId: string, opts: { recipientId?: number | undefined } = {}): LoggedEvent[] {
  const rows = db
    .prepare(
      `SELECT id, campaign_id, recipient_id, at, kind, detail FROM events
        WHERE campaign_id = ? AND (? IS NULL OR recipient_id = ?) ORDER BY id`,
    )
    .all(campaignId, opts.recipientId ?? null, opts.recipientId ?? null) as EventRow[];
  return rows.map((r) => ({
    id: r.id,
    campaignId: r.campaign_id,
    recipientId: r.recipient_id,
    at: r.at,
    kind: r.kind,
    detail: r.detail === null ? null : (JSON.parse(r.detail) as Record<string, unknown>),
  }));
}
