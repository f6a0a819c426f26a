import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { getCampaign, pauseInterrupted, setSendState } from '../../../../electron/core/db/repos/campaigns.ts';
import {
  getSendLease,
  releaseSendLease,
  renewSendLease,
  sendLeaseLive,
  takeSendLease,
  type LeaseHolder,
} from '../../../../electron/core/db/repos/send-leases.ts';
import { seed, T0, tempDb } from '../../../support/db-seed.ts';

// Who is sending a campaign (schema 3): a second process must be refused while the first one
// lives, and nobody may have to wait out the lease of a sender that is gone.
const TTL = 30_000;
const otherHost: LeaseHolder = { owner: 'far:1:a', host: 'another-host.example', pid: 1 };
const here = (pid: number, owner = `here:${pid}`): LeaseHolder => ({ owner, host: hostname(), pid });
const alive = (...pids: number[]) => (pid: number) => pids.includes(pid);

describe('send leases', () => {
  it('refuses a second sender while the first holds a live lease, and says who holds it', () => {
    const { db } = tempDb();
    const { campaignId } = seed(db, 1);
    expect(takeSendLease(db, campaignId, here(4242), { now: T0, ttlMs: TTL, alive: alive(4242) })).toEqual({ ok: true });
    const refused = takeSendLease(db, campaignId, here(4343), { now: T0 + 1_000, ttlMs: TTL, alive: alive(4242, 4343) });
    expect(refused).toEqual({ ok: false, holder: { owner: 'here:4242', host: hostname(), pid: 4242, takenAt: T0, until: T0 + TTL } });
    // The same run asking again keeps it.
    expect(takeSendLease(db, campaignId, here(4242), { now: T0 + 2_000, ttlMs: TTL, alive: alive(4242) }).ok).toBe(true);
  });

  it('is taken over once it has run out, or at once when its holder on this host is gone', () => {
    const { db } = tempDb();
    const { campaignId } = seed(db, 1);
    takeSendLease(db, campaignId, otherHost, { now: T0, ttlMs: TTL });
    // Another host's process cannot be asked: its lease is waited out.
    expect(takeSendLease(db, campaignId, here(4343), { now: T0 + TTL - 1, ttlMs: TTL, alive: alive(4343) }).ok).toBe(false);
    expect(takeSendLease(db, campaignId, here(4343), { now: T0 + TTL, ttlMs: TTL, alive: alive(4343) }).ok).toBe(true);
    // A killed sender on this host: taken over without waiting.
    expect(takeSendLease(db, campaignId, here(5555), { now: T0 + TTL + 1, ttlMs: TTL, alive: alive(5555) }).ok).toBe(true);
    expect(getSendLease(db, campaignId)).toMatchObject({ owner: 'here:5555', pid: 5555, until: T0 + TTL + 1 + TTL });
  });

  it('renews and releases only for its owner', () => {
    const { db } = tempDb();
    const { campaignId } = seed(db, 1);
    takeSendLease(db, campaignId, here(4242), { now: T0, ttlMs: TTL });
    expect(renewSendLease(db, campaignId, 'someone-else', T0 + 99_000)).toBe('lost');
    expect(renewSendLease(db, campaignId, 'here:4242', T0 + 60_000)).toBe('renewed');
    expect(getSendLease(db, campaignId)?.until).toBe(T0 + 60_000);
    releaseSendLease(db, campaignId, 'someone-else');
    expect(getSendLease(db, campaignId)).not.toBeNull();
    releaseSendLease(db, campaignId, 'here:4242');
    expect(getSendLease(db, campaignId)).toBeNull();
  });

  it('startup flags a sending campaign as interrupted unless another live process is sending it', () => {
    const { db } = tempDb();
    const busy = seed(db, 1).campaignId;
    const dead = seed(db, 1).campaignId;
    const expired = seed(db, 1).campaignId;
    for (const id of [busy, dead, expired]) setSendState(db, id, { from: 'draft', to: 'sending' }, T0);
    const now = Date.now();
    // process.ppid: a process of this host that is certainly alive, and not this one.
    takeSendLease(db, busy, here(process.ppid, 'busy'), { now, ttlMs: TTL });
    takeSendLease(db, dead, here(2 ** 22 + 17, 'dead'), { now, ttlMs: TTL });
    takeSendLease(db, expired, here(process.ppid, 'expired'), { now: now - 2 * TTL, ttlMs: TTL });
    expect(sendLeaseLive(db, busy, now)).toBe(true);
    expect(sendLeaseLive(db, dead, now)).toBe(false);
    expect(sendLeaseLive(db, expired, now)).toBe(false);

    const paused = pauseInterrupted(db, now, (id) => sendLeaseLive(db, id, now));
    expect(paused.sort()).toEqual([dead, expired].sort());
    expect(getCampaign(db, busy)?.sendState).toBe('sending');
    expect(getCampaign(db, dead)).toMatchObject({ sendState: 'paused', pausedReason: 'interrupted' });
  });
});
