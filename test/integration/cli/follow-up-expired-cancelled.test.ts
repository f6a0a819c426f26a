import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { json, runCli, startSimulatorProcess, tempDir, type SimulatorProcess } from '../../support/cli.ts';

// Event day, found in review: a follow-up of rows whose acceptance link expired (and of a cancelled
// order) is made to give those people a new gift, and `follow-up` says to send it with `resume`;
// but resume's pre-flight counted the very rows it replaces (their orders are still 'ordered') as
// "a gift from another campaign" and refused to send unless --send-repeats (exit 1, nothing sent).
// The rows a campaign follows up no longer count against it; another campaign's gift still does.
const KEY = 'cli-follow-up-expired-key';
let sim: SimulatorProcess;
beforeAll(async () => {
  // Acceptance links expire 1.5 s after the order: the recipient-details gifts expire during the test.
  sim = await startSimulatorProcess(['--log', 'problems', '--recipient-expiry', '1500', '--item-delay', '200']);
});
afterAll(async () => {
  await sim?.stop();
});

async function forceCancel(orderId: number): Promise<void> {
  const res = await fetch(`${sim.url}/__control/force-status`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: KEY, orderId, orderStatus: 'CANCELLED' }),
  });
  if (!res.ok) throw new Error(`force-status: ${res.status} ${await res.text()}`);
}

describe('giftbatch follow-up of expired and cancelled rows', () => {
  it('resume sends the follow-up (one new order per row) without --send-repeats, and still stops a repeat from a third campaign', async () => {
    const dir = tempDir();
    const env = { GIFTBATCH_API_KEY: KEY };
    const common = ['--base-url', sim.url, '--data-dir', join(dir, 'data')];
    const voyager = productIdFor(KEY, 'us-recipient-details');
    const books = productIdFor(KEY, 'us-fixed-25');
    const csv = join(dir, 'tiers.csv');
    writeFileSync(
      csv,
      ['Name,Email,Product', `Ann One,ann@example.com,${voyager}`, `Bo Two,bo@example.com,${voyager}`, `Cy Three,cy@example.com,${books}`, `Di Four,di@example.com,${books}`].join('\n') + '\n',
    );
    const sent = await runCli(['send', csv, '--product', String(books), '--yes', '--json', ...common], env);
    expect(sent.code, sent.stderr).toBe(0);
    const source = json<{ campaign_id: string; counts: Record<string, number> }>(sent.stdout);
    expect(source.counts.ordered).toBe(4);

    const orders = (await sim.audit()).accounts[KEY]?.orders ?? [];
    const cyOrder = orders.find((o) => o.productSlug === 'us-fixed-25');
    if (!cyOrder) throw new Error('no us-fixed-25 order');
    await forceCancel(cyOrder.id);
    await new Promise((r) => setTimeout(r, 2_000)); // both acceptance links expire
    const polled = await runCli(['poll', source.campaign_id, ...common], env);
    expect(polled.code, polled.stderr).toBe(0);
    // status says what to do about the expired links while no follow-up has taken them.
    const before = await runCli(['status', source.campaign_id, ...common], env);
    expect(before.stdout).toContain(`2 recipient links expired without acceptance: run \`giftbatch follow-up ${source.campaign_id} --expired\` to send them a new gift`);

    const made = await runCli(['follow-up', source.campaign_id, '--expired', '--cancelled', '--json', ...common], env);
    expect(made.code, made.stderr).toBe(0);
    const draft = json<{ campaign_id: string; counts: Record<string, number> }>(made.stdout);
    expect(draft.counts).toMatchObject({ ready: 3, skipped: 0 });
    // Afterwards it says which campaign took them (S13-E: it still read as if nothing had been done).
    const followUp = json<{ name: string }>((await runCli(['status', draft.campaign_id, '--json', ...common], env)).stdout);
    const taken = await runCli(['status', source.campaign_id, ...common], env);
    expect(taken.stdout).toContain(`2 recipient links expired without acceptance (taken by follow-up campaign ${followUp.name} (${draft.campaign_id}))`);
    expect(taken.stdout).not.toContain('--expired');
    const takenJson = json<{ acceptance_expired: number; acceptance_expired_to_follow_up: number; acceptance_expired_followed_up: unknown }>(
      (await runCli(['status', source.campaign_id, '--json', ...common], env)).stdout,
    );
    expect(takenJson).toMatchObject({ acceptance_expired: 2, acceptance_expired_to_follow_up: 0, acceptance_expired_followed_up: [{ id: draft.campaign_id, name: followUp.name, rows: 2 }] });

    const resumed = await runCli(['resume', draft.campaign_id, '--yes', '--json', ...common], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(json<{ counts: Record<string, number> }>(resumed.stdout).counts).toMatchObject({ ordered: 3, ready: 0 });
    const after = (await sim.audit()).accounts[KEY];
    expect(after?.orders).toHaveLength(7);
    expect(after?.duplicates).toEqual([]);
    expect(new Set(after?.orders.map((o) => o.externalReferenceId)).size).toBe(7);

    // A third campaign to one of them is a second gift (the follow-up's order): still confirmed first.
    const again = join(dir, 'again.csv');
    writeFileSync(again, `Name,Email\nAnn One,ann@example.com\n`);
    const third = await runCli(['send', again, '--product', String(books), '--yes', ...common], env);
    expect(third.stderr).toMatch(/already have a gift|already has a gift|skipped/);
    expect((await sim.audit()).accounts[KEY]?.orders).toHaveLength(7);
  }, 120_000);
});
