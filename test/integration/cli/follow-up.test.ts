import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { json, runCli, startSimulatorProcess, tempDir, writeRecipients, type SimulatorProcess, setSimulatorBalance } from '../../support/cli.ts';

// Issue 13, follow-up campaigns through the CLI: `giftbatch follow-up CAMPAIGN_ID --failed` makes a
// draft of the failed rows under new keys (new gifts), sends nothing, and `resume` sends it.
const KEY = 'cli-follow-up-key';
let sim: SimulatorProcess;
beforeAll(async () => {
  sim = await startSimulatorProcess(['--log', 'problems']);
});
afterAll(async () => {
  await sim?.stop();
});

const setBalance = (balance: string): Promise<void> => setSimulatorBalance(sim.url, KEY, balance);

describe('giftbatch follow-up', () => {
  it('makes a draft of the failed rows under new keys, sends nothing, and resume sends it', async () => {
    const dir = tempDir();
    const env = { GIFTBATCH_API_KEY: KEY };
    const common = ['--base-url', sim.url, '--data-dir', join(dir, 'data')];
    await setBalance('30.00');
    const csv = writeRecipients(dir, 5);
    const product = String(productIdFor(KEY, 'us-fixed-25'));
    const sent = json<{ campaign_id: string; counts: Record<string, number> }>((await runCli(['send', csv, '--product', product, '--yes', '--json', ...common], env)).stdout);
    // USD 30.00 pays one USD 25 gift; the refusals then pause the campaign (how many failed before the
    // pause depends on what was in flight).
    expect(sent.counts.ordered).toBe(1);
    const failed = sent.counts.failed ?? 0;
    expect(failed).toBeGreaterThanOrEqual(3);

    const none = await runCli(['follow-up', sent.campaign_id, '--cancelled', ...common], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/has no rows whose order was cancelled, so there is nothing to follow up/);

    const made = await runCli(['follow-up', sent.campaign_id, '--failed', '--name', 'Second try', '--json', ...common], env);
    expect(made.code, made.stderr).toBe(0);
    const draft = json<{ campaign_id: string; follows: string; include: string[]; counts: Record<string, number> }>(made.stdout);
    expect(draft).toMatchObject({ follows: sent.campaign_id, include: ['failed'], counts: { ready: failed, ordered: 0 } });
    expect(made.stderr).toContain(`giftbatch resume ${draft.campaign_id}`);
    expect((await sim.audit()).accounts[KEY]?.orders).toHaveLength(1);

    await setBalance('1000.00');
    const resumed = await runCli(['resume', draft.campaign_id, '--yes', '--json', ...common], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(json<{ counts: Record<string, number> }>(resumed.stdout).counts).toMatchObject({ ordered: failed });
    const orders = (await sim.audit()).accounts[KEY]?.orders ?? [];
    expect(orders).toHaveLength(1 + failed);
    expect(new Set(orders.map((o) => o.externalReferenceId)).size).toBe(1 + failed);
  }, 90_000);
});
