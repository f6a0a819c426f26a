// The order list's date range exists, but its parameter names are "not shown" (the spec, section 4),
// and how long a key is remembered is not shown either (section 8). With the simulator's
// `listWindowMs` (a list that shows only recent orders unless given a date range) and `keyMemoryMs`,
// the lookup of a row left `sending` a day ago is clearly, wrongly empty, and the same bytes POSTed
// again are a second order. An empty lookup of a key first sent over an hour ago counts only once the
// list shows the order of a witness: the row of this service POSTed last before it.
// Real parts: the send queue on a real SQLite file, the simulator over HTTP; time is virtual.

import { describe, expect, it } from 'vitest';
import { createSendQueue } from '../../../../electron/core/campaigns/send-queue.ts';
import { keyFingerprint } from '../../../../electron/core/connections.ts';
import { getCampaign, setAccountFingerprint } from '../../../../electron/core/db/repos/campaigns.ts';
import { getRecipient } from '../../../../electron/core/db/repos/recipients.ts';
import { fakeClock, makeCampaign, startSimulator, tempDb } from '../../../support/index.ts';

const HOUR = 3_600_000;

async function setUp(dialect: { listWindowMs: number; keyMemoryMs: number }, lost: 'error503AfterCommit' | 'error500BeforeCommit', withWitness = true) {
  const clock = fakeClock(Date.now());
  const service = await startSimulator({ now: clock.now, dialect }, { clock });
  const { db } = tempDb();
  const queue = createSendQueue({ db, client: service.client, clock, concurrency: 1, maxAttemptsPerRun: 1, backoff: { baseMs: 1, capMs: 2 } });
  // The witness: an earlier campaign on the same service, ordered normally.
  if (withWitness) {
    const earlier = makeCampaign(db, { rows: 1, key: service.key, baseUrl: service.url, name: 'Earlier' });
    expect((await queue.run(earlier.campaign.id)).stoppedBy).toBe('done');
    clock.advance(60_000);
  }
  // Then a row whose POST gets no answer: committed (503 after commit) or not (500 before it).
  service.sim.setFaults({ [lost]: 1 });
  const { campaign, rowIds } = makeCampaign(db, { rows: 1, key: service.key, baseUrl: service.url, name: 'Gala' });
  await queue.run(campaign.id);
  const row = () => getRecipient(db, rowIds[0] ?? 0);
  expect(row()?.state).toBe('sending');
  service.sim.setFaults({ [lost]: 0 });
  const orders = () => (service.sim.audit().accounts[service.key]?.orders ?? []).filter((o) => o.externalReferenceId === row()?.externalReferenceId);
  const asked = (label: string) => Object.values(service.account().requests[label] ?? {}).reduce((n, k) => n + k, 0);
  return { clock, service, db, queue, campaign, row, orders, asked };
}

describe('a row left sending, resumed a day later on a service whose list shows only recent orders', () => {
  it('is not POSTed again when the list does not show the witness either: the campaign pauses for a person, one order', async () => {
    const { clock, db, queue, campaign, row, orders } = await setUp({ listWindowMs: 6 * HOUR, keyMemoryMs: 6 * HOUR }, 'error503AfterCommit');
    expect(orders()).toHaveLength(1);

    clock.advance(24 * HOUR);
    const resumed = await queue.run(campaign.id);
    expect(resumed.reconciliation.unconfirmed).toBe(1);
    expect(resumed.stoppedBy).toBe('unconfirmed');
    expect(orders()).toHaveLength(1);
    expect(row()).toMatchObject({ state: 'sending', nextAttemptAt: null });
    expect(row()?.lastError).toMatch(/does not show order \d+ either \(line 2 of campaign c_\w+, first sent .* UTC\)/);
    expect(row()?.lastError).toContain(`Look up the reference ${row()?.externalReferenceId ?? ''}`);
    expect(getCampaign(db, campaign.id)).toMatchObject({ sendState: 'paused', pausedReason: 'unconfirmed' });
    expect(getCampaign(db, campaign.id)?.pausedDetail).toContain('second gift');

    // Resumed again without a person's word: still held, still one order.
    const again = await queue.run(campaign.id);
    expect(again.stoppedBy).toBe('unconfirmed');
    expect(orders()).toHaveLength(1);
  });

  it('is POSTed again, once, when the list shows the witness (it reaches back far enough): one extra lookup', async () => {
    const { clock, queue, campaign, row, orders, asked } = await setUp({ listWindowMs: 48 * HOUR, keyMemoryMs: 6 * HOUR }, 'error500BeforeCommit');
    expect(orders()).toHaveLength(0);
    const lookupsBefore = asked('GET /v1/orders');

    clock.advance(24 * HOUR);
    const resumed = await queue.run(campaign.id);
    expect(resumed.reconciliation.notFound).toBe(1);
    expect(resumed.stoppedBy).toBe('done');
    expect(orders()).toHaveLength(1);
    expect(row()).toMatchObject({ state: 'ordered', orderId: orders()[0]?.id });
    // The row's lookup and its witness's.
    expect(asked('GET /v1/orders') - lookupsBefore).toBe(2);
  });

  it('takes an empty lookup at its word within the hour, without a witness lookup', async () => {
    const { clock, queue, campaign, orders, asked } = await setUp({ listWindowMs: 6 * HOUR, keyMemoryMs: 6 * HOUR }, 'error500BeforeCommit');
    const lookupsBefore = asked('GET /v1/orders');
    clock.advance(30 * 60_000);
    expect((await queue.run(campaign.id)).stoppedBy).toBe('done');
    expect(orders()).toHaveLength(1);
    expect(asked('GET /v1/orders') - lookupsBefore).toBe(1);
  });

  it('with no earlier order to witness, holds the row; a person who found no order at the service has it sent again, once', async () => {
    const { clock, db, queue, campaign, row, orders } = await setUp({ listWindowMs: 6 * HOUR, keyMemoryMs: 6 * HOUR }, 'error500BeforeCommit', false);
    clock.advance(24 * HOUR);
    // The person's word speaks only for rows held before the run began (the ones they were shown):
    // given at once, it does not send a row nobody has looked up yet.
    const held = await queue.run(campaign.id, { resendUnconfirmed: true });
    expect(held.stoppedBy).toBe('unconfirmed');
    expect(row()?.lastError).toMatch(/no earlier order of this service is known to show how far back its list reaches/);
    expect(row()?.heldAt).toBe(clock.now());
    expect(orders()).toHaveLength(0);

    const resent = await queue.run(campaign.id, { resendUnconfirmed: true });
    expect(resent.stoppedBy).toBe('done');
    expect(orders()).toHaveLength(1);
    expect(row()).toMatchObject({ state: 'ordered', orderId: orders()[0]?.id, heldAt: null });
    expect(getCampaign(db, campaign.id)?.sendState).toBe('done');
  });

  it('does not take as witness an order made after the row: first sent before it, but ordered only at a later resume', async () => {
    const clock = fakeClock(Date.now());
    const service = await startSimulator({ now: clock.now, dialect: { listWindowMs: 6 * HOUR, keyMemoryMs: 6 * HOUR } }, { clock });
    const { db } = tempDb();
    const queue = createSendQueue({ db, client: service.client, clock, concurrency: 1, maxAttemptsPerRun: 1, backoff: { baseMs: 1, capMs: 2 } });
    // W: an earlier campaign's row, first sent at T, no order made (a 500 before the commit), left sending.
    service.sim.setFaults({ error500BeforeCommit: 1 });
    const earlier = makeCampaign(db, { rows: 1, key: service.key, baseUrl: service.url, name: 'Earlier' });
    await queue.run(earlier.campaign.id);
    service.sim.setFaults({ error500BeforeCommit: 0 });
    // R: a minute later, this campaign's row: its order is made, the answer lost (503 after the commit).
    clock.advance(60_000);
    service.sim.setFaults({ error503AfterCommit: 1 });
    const { campaign, rowIds } = makeCampaign(db, { rows: 1, key: service.key, baseUrl: service.url, name: 'Gala' });
    await queue.run(campaign.id);
    service.sim.setFaults({ error503AfterCommit: 0 });
    const row = () => getRecipient(db, rowIds[0] ?? 0);
    const orders = () => (service.sim.audit().accounts[service.key]?.orders ?? []).filter((o) => o.externalReferenceId === row()?.externalReferenceId);
    expect(row()?.state).toBe('sending');
    expect(orders()).toHaveLength(1);
    // Half an hour later the earlier campaign is resumed: W's order is made now, after R's.
    clock.advance(30 * 60_000);
    expect((await queue.run(earlier.campaign.id)).stoppedBy).toBe('done');

    // Six hours on, the list shows W's order (made at T + 31 min) but no longer R's (T + 1 min), and R's
    // key is forgotten: W, first sent before R, proves nothing about how far back the list reaches.
    clock.advance(6 * HOUR - 20 * 60_000);
    const resumed = await queue.run(campaign.id);
    expect(orders()).toHaveLength(1);
    expect(resumed.stoppedBy).toBe('unconfirmed');
    expect(row()).toMatchObject({ state: 'sending', nextAttemptAt: null });
  });

  it("takes its witness from the same account: another account's newer order on the same address is not in this key's list", async () => {
    const clock = fakeClock(Date.now());
    const service = await startSimulator({ now: clock.now, dialect: { listWindowMs: 48 * HOUR, keyMemoryMs: 6 * HOUR } }, { clock });
    const { db } = tempDb();
    // Two accounts on one address (production has one address for every account), each with its key.
    const accounts = [service.key, 'test_key_other_account'].map((key) => {
      const { client } = service.makeClient({ key, clock });
      return { key, queue: createSendQueue({ db, client, clock, concurrency: 1, maxAttemptsPerRun: 1, backoff: { baseMs: 1, capMs: 2 }, accountFingerprint: (like) => keyFingerprint(key, like) }) };
    });
    const [mine, other] = accounts as [(typeof accounts)[0], (typeof accounts)[0]];
    const sendUnder = async (account: typeof mine, name: string) => {
      const made = makeCampaign(db, { rows: 1, key: account.key, baseUrl: service.url, name });
      setAccountFingerprint(db, made.campaign.id, keyFingerprint(account.key), clock.now());
      await account.queue.run(made.campaign.id);
      clock.advance(60_000);
      return made;
    };
    // This account's order, then the other account's, then this account's row whose POST made no order.
    await sendUnder(mine, 'Earlier');
    await sendUnder(other, 'Their campaign');
    service.sim.setFaults({ error500BeforeCommit: 1 });
    const { campaign, rowIds } = await sendUnder(mine, 'Gala');
    service.sim.setFaults({ error500BeforeCommit: 0 });
    const row = () => getRecipient(db, rowIds[0] ?? 0);
    const orders = () => (service.sim.audit().accounts[mine.key]?.orders ?? []).filter((o) => o.externalReferenceId === row()?.externalReferenceId);
    expect(row()?.state).toBe('sending');

    // A day later this key's list reaches back two days and shows "Earlier"; the other account's order,
    // newer, is in another list. Not held: sent once.
    clock.advance(24 * HOUR);
    const resumed = await mine.queue.run(campaign.id);
    expect(resumed.reconciliation.unconfirmed).toBe(0);
    expect(resumed.stoppedBy).toBe('done');
    expect(orders()).toHaveLength(1);
    expect(row()).toMatchObject({ state: 'ordered', orderId: orders()[0]?.id, heldAt: null });
  });
});
