// The append-only log of what happened to a campaign and its rows. It feeds
// the timeline chart and the report. Triggers in the schema refuse UPDATE and DELETE.

import { z } from 'zod';
import type { Db } from '../open.ts';
import { parseRows } from '../parse.ts';
import { statement } from '../statements.ts';

export const EVENT_KINDS = [
  'imported',
  'sending',
  'retried',
  'ambiguous',
  'ordered',
  'delivered',
  'failed',
  'cancelled',
  'reconciled',
  'flagged',
  // A finding withdrawn: a later answer stated what an earlier one left out (detail: the findings' messages).
  'unflagged',
  'skipped',
  'unskipped',
  'requeued',
  'edited',
  'paused',
  'resumed',
  'started',
  'done',
  // A follow-up campaign was made from this one (detail: the new campaign's id, the kinds, the rows carried).
  'followed-up',
  // This campaign follows up an earlier one (detail: the source campaign's id, the kinds, the rows carried).
  'follow-up-of',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export type EventDetail = Readonly<Record<string, unknown>>;

export interface NewEvent {
  readonly campaignId: string;
  readonly recipientId?: number | null;
  readonly kind: EventKind;
  readonly detail?: EventDetail | null;
}

// Built once: every order appends events, and a zod schema costs more to build than to run.
const eventKind = z.enum(EVENT_KINDS);

/** Appends one event and returns its id. Call it inside the transaction whose change it records. */
export function appendEvent(db: Db, event: NewEvent, now: number): number {
  const kind = eventKind.parse(event.kind);
  const result = statement(
    db,
    'INSERT INTO events (campaign_id, recipient_id, at, kind, detail) VALUES (?, ?, ?, ?, ?)',
  ).run(event.campaignId, event.recipientId ?? null, now, kind, event.detail ? JSON.stringify(event.detail) : null);
  return Number(result.lastInsertRowid);
}

export interface TimelineBucket {
  /** Start of the bucket, ms since the epoch, a multiple of the bucket size. */
  readonly start: number;
  readonly ordered: number;
  readonly delivered: number;
}

const bucketRow = z.object({ start: z.number().int(), ordered: z.number().int(), delivered: z.number().int() });

/** Orders and deliveries per time bucket, for the campaign's chart. Empty buckets are left out. */
export function eventTimeline(db: Db, campaignId: string, bucketMs: number): TimelineBucket[] {
  const size = Math.trunc(bucketMs);
  if (!(size > 0)) throw new RangeError(`bucket size must be a positive number of milliseconds, got ${bucketMs}`);
  const raws = statement(
    db,
    `SELECT (at / CAST(@size AS INTEGER)) * CAST(@size AS INTEGER) AS start,
            sum(kind = 'ordered') AS ordered,
            sum(kind = 'delivered') AS delivered
       FROM events
      WHERE campaign_id = @campaignId AND kind IN ('ordered', 'delivered')
      GROUP BY start ORDER BY start`,
  ).all({ size, campaignId });
  return parseRows(bucketRow, 'events', raws);
}
