// One sender per campaign across processes (schema 3, db/repos/send-leases.ts): a run holds the
// campaign's lease while it sends, renewing it as it goes, and another process that asks to send
// the same campaign is refused with a message that says who is sending it. The keys already make
// a second sender harmless to the invoice; the lease keeps it from POSTing every row again.

import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from '../db/open.ts';
import { getCampaign } from '../db/repos/campaigns.ts';
import { getSendLease, releaseSendLease, renewSendLease, sendLeaseLive, takeSendLease, type HeldLease as HeldSendLease, type LeaseHolder } from '../db/repos/send-leases.ts';

export class CampaignBusyError extends Error {
  override readonly name = 'CampaignBusyError';
}

/** How long a lease lasts unless renewed: a sender that stops renewing (hung, or on another host and gone) is waited out this long. */
export const SEND_LEASE_TTL_MS = 30_000;

/** What a run asks before each order leaves: is the campaign still ours to send? */
export interface HeldLease {
  /**
   * True while this run's lease has not run out, or could be renewed because nobody took it over.
   * False once another process holds it (this one stalled past its lease, a sleep): send nothing more.
   * Synchronous and cheap while the lease is fresh; call it inside the intent's transaction.
   */
  stillHeld(): boolean;
  /** Aborts when another process asks this run to pause (seen at the next renewal, within seconds). */
  readonly stopRequested: AbortSignal;
}

const ALWAYS_HELD: HeldLease = { stillHeld: () => true, stopRequested: new AbortController().signal };

/** How often a run renews its lease, and so how soon it sees a pause asked from another process. */
const RENEW_EVERY_MS = 2_000;

function busyError(campaignName: string, holder: HeldSendLease): CampaignBusyError {
  const where = holder.host === hostname() ? `process ${holder.pid}` : `process ${holder.pid} on ${holder.host}`;
  return new CampaignBusyError(
    `Campaign "${campaignName}" is being sent right now by another Giftbatch (${where}, since ` +
      `${new Date(holder.takenAt).toISOString()}): the app, or a giftbatch command. Pause it there or let it finish; ` +
      `nothing was sent from here.`,
  );
}

/** Throws CampaignBusyError when another live process sends the campaign: checked before a run asks anything. */
export function assertNotSentElsewhere(db: Db, campaign: { id: string; name: string }): void {
  const holder = getSendLease(db, campaign.id);
  if (holder && sendLeaseLive(db, campaign.id, Date.now())) throw busyError(campaign.name, holder);
}

/**
 * Runs `send` holding the campaign's lease, or throws CampaignBusyError (nothing done) when another
 * live process holds it. Leases are wall-clock facts shared between processes, hence Date.now().
 */
export async function withSendLease<T>(
  db: Db,
  campaignId: string,
  send: (lease: HeldLease) => Promise<T>,
  opts: { ttlMs?: number } = {},
): Promise<T> {
  const ttlMs = opts.ttlMs ?? SEND_LEASE_TTL_MS;
  const campaign = getCampaign(db, campaignId);
  // An unknown campaign: let the run say so in its own words.
  if (!campaign) return send(ALWAYS_HELD);
  const me: LeaseHolder = { owner: `${hostname()}:${process.pid}:${randomUUID()}`, host: hostname(), pid: process.pid };
  const taken = takeSendLease(db, campaignId, me, { now: Date.now(), ttlMs });
  if (!taken.ok) throw busyError(campaign.name, taken.holder);
  // Until when this run knows the lease is its own; once lost, it stays lost for this run.
  let heldUntil = Date.now() + ttlMs;
  let lost = false;
  const stop = new AbortController();
  const renewNow = (): boolean => {
    if (lost) return false;
    const until = Date.now() + ttlMs;
    try {
      const renewal = renewSendLease(db, campaignId, me.owner, until);
      if (renewal === 'lost') lost = true;
      else heldUntil = until;
      if (renewal === 'stop-requested') stop.abort();
    } catch {
      // The data file is closing: the run is ending too, and the lease runs out by itself.
    }
    return !lost;
  };
  const renew = setInterval(renewNow, Math.min(ttlMs / 3, RENEW_EVERY_MS));
  renew.unref();
  const lease: HeldLease = { stillHeld: () => !lost && (Date.now() < heldUntil || renewNow()), stopRequested: stop.signal };
  try {
    return await send(lease);
  } finally {
    clearInterval(renew);
    try {
      releaseSendLease(db, campaignId, me.owner);
    } catch {
      // As above: a closed data file keeps the lease until it runs out (or this host sees us gone).
    }
  }
}
