// The send_leases table: which process is sending a campaign (schema 3). A lease names its holder
// (a per-run owner id, the host and the process id) and runs until `until`; the holder renews it
// while it sends and drops it when the run ends. A lease is taken over when it has run out, when
// its holder is this very process (a run that died inside it), or when its holder was on this
// host and that process is gone (killed, crashed): no one waits out a dead sender's lease.

import { hostname } from 'node:os';
import { z } from 'zod';
import type { Db } from '../open.ts';
import { parseRow, timestamp } from '../parse.ts';
import { statement } from '../statements.ts';

export interface LeaseHolder {
  /** Unique per send run. */
  readonly owner: string;
  readonly host: string;
  readonly pid: number;
}

export interface HeldLease extends LeaseHolder {
  readonly takenAt: number;
  readonly until: number;
}

export type LeaseResult = { readonly ok: true } | { readonly ok: false; readonly holder: HeldLease };

const leaseRow = z
  .object({ owner: z.string(), host: z.string(), pid: z.number().int().positive(), taken_at: timestamp, until: timestamp })
  .transform((r): HeldLease => ({ owner: r.owner, host: r.host, pid: r.pid, takenAt: r.taken_at, until: r.until }));

/** True while a process with this id exists on this host (signal 0 only asks). */
export function processAlive(pid: number): boolean {
  // 0 and negative numbers name process groups, not a process.
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, it just is not ours to signal.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface TakeOptions {
  readonly now: number;
  readonly ttlMs: number;
  /** Whether a process of this host still runs; injectable for tests. */
  readonly alive?: (pid: number) => boolean;
}

/** Takes (or takes over) the campaign's lease for `me`, or says who holds it. One IMMEDIATE transaction. */
export function takeSendLease(db: Db, campaignId: string, me: LeaseHolder, opts: TakeOptions): LeaseResult {
  const alive = opts.alive ?? processAlive;
  const take = db.transaction((): LeaseResult => {
    const raw = statement(db, 'SELECT owner, host, pid, taken_at, until FROM send_leases WHERE campaign_id = ?').get(campaignId);
    if (raw !== undefined) {
      const held = parseRow(leaseRow, 'send_leases', raw);
      if (heldByAnother(held, opts.now, me, alive)) return { ok: false, holder: held };
    }
    statement(
      db,
      `INSERT INTO send_leases (campaign_id, owner, host, pid, taken_at, until) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (campaign_id) DO UPDATE SET owner = excluded.owner, host = excluded.host, pid = excluded.pid,
         taken_at = excluded.taken_at, until = excluded.until, stop_requested_at = NULL`,
    ).run(campaignId, me.owner, me.host, me.pid, opts.now, opts.now + opts.ttlMs);
    return { ok: true };
  });
  return take.immediate();
}

export type Renewal = 'renewed' | 'lost' | 'stop-requested';

/**
 * Extends the lease while `owner` still holds it: 'lost' when it was taken over meanwhile,
 * 'stop-requested' when another process asked the holder to pause (requestSendStop).
 */
export function renewSendLease(db: Db, campaignId: string, owner: string, until: number): Renewal {
  const raw = statement(db, 'UPDATE send_leases SET until = ? WHERE campaign_id = ? AND owner = ? RETURNING stop_requested_at')
    .pluck()
    .get(until, campaignId, owner);
  if (raw === undefined) return 'lost';
  return raw === null ? 'renewed' : 'stop-requested';
}

/**
 * Asks the process that holds a live lease on the campaign to pause it (it sees the request at its
 * next renewal, within seconds). Returns who was asked, or null when nobody else is sending it.
 */
export function requestSendStop(db: Db, campaignId: string, now: number, alive: (pid: number) => boolean = processAlive): HeldLease | null {
  return db.transaction((): HeldLease | null => {
    const held = getSendLease(db, campaignId);
    if (held === null || !heldByAnother(held, now, { host: hostname(), pid: process.pid }, alive)) return null;
    statement(db, 'UPDATE send_leases SET stop_requested_at = coalesce(stop_requested_at, ?) WHERE campaign_id = ? AND owner = ?').run(now, campaignId, held.owner);
    return held;
  }).immediate();
}

/** Drops the lease if `owner` still holds it. */
export function releaseSendLease(db: Db, campaignId: string, owner: string): void {
  statement(db, 'DELETE FROM send_leases WHERE campaign_id = ? AND owner = ?').run(campaignId, owner);
}

/**
 * Whether another live process holds the campaign's lease: not run out, not held by a process of
 * this host that is gone, nor by this process (an engine opening here supersedes what ran here
 * before). Startup uses it so that a campaign another process is sending is not flagged as
 * interrupted.
 */
export function sendLeaseLive(db: Db, campaignId: string, now: number, alive: (pid: number) => boolean = processAlive): boolean {
  const held = getSendLease(db, campaignId);
  return held !== null && heldByAnother(held, now, { host: hostname(), pid: process.pid }, alive);
}

// The one rule for "someone else is sending": the lease has not run out, and its holder is not
// this process and is not a process of this host that is gone. Another host's holder cannot be
// asked, so its lease is waited out.
function heldByAnother(held: HeldLease, now: number, me: Pick<LeaseHolder, 'host' | 'pid'>, alive: (pid: number) => boolean): boolean {
  if (held.until <= now) return false;
  if (held.host !== me.host) return true;
  return held.pid !== me.pid && alive(held.pid);
}

/** Who holds the campaign's lease, if anyone (expired leases included: `until` says). */
export function getSendLease(db: Db, campaignId: string): HeldLease | null {
  const raw = statement(db, 'SELECT owner, host, pid, taken_at, until FROM send_leases WHERE campaign_id = ?').get(campaignId);
  return raw === undefined ? null : parseRow(leaseRow, 'send_leases', raw);
}
