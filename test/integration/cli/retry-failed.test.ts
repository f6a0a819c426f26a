import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { json, runCli, startSimulatorProcess, tempDir, writeRecipients, type SimulatorProcess, setSimulatorBalance } from '../../support/cli.ts';

// Issue 11, item 6, through the CLI: repeated identical refusals pause the campaign (exit 1), and
// `giftbatch retry CAMPAIGN_ID --failed` sends the failed rows again, each under its own key, once.
const KEY = 'cli-retry-key';
let sim: SimulatorProcess;
beforeAll(async () => {
  sim = await startSimulatorProcess(['--log', 'problems']);
});
afterAll(async () => {
  await sim?.stop();
});

const setBalance = (balance: string): Promise<void> => setSimulatorBalance(sim.url, KEY, balance);

describe('giftbatch retry', () => {
  it('pauses on the same refusal three times, then retries the failed rows once the cause is fixed', async () => {
    const dir = tempDir();
    const env = { GIFTBATCH_API_KEY: KEY };
    const common = ['--base-url', sim.url, '--data-dir', join(dir, 'data')];
    await setBalance('30.00');
    const csv = writeRecipients(dir, 8);
    const product = String(productIdFor(KEY, 'us-fixed-25'));

    const sent = await runCli(['send', csv, '--product', product, '--yes', '--json', ...common], env);
    expect(sent.code).toBe(1);
    const first = json<{ campaign_id: string; paused_reason: string; counts: Record<string, number> }>(sent.stdout);
    expect(first.paused_reason).toBe('refused');
    expect(first.counts.ordered).toBe(1);
    expect(sent.stderr).toMatch(/refused 3 orders in a row with the same answer/);

    await setBalance('1000.00');
    const retried = await runCli(['retry', first.campaign_id, '--failed', '--yes', '--json', ...common], env);
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stderr).toMatch(/(1 failed row put back to send, under its own key|\d+ failed rows put back to send, each under its own key)/);
    expect(json<{ counts: Record<string, number> }>(retried.stdout).counts).toMatchObject({ ordered: 8, failed: 0, ready: 0 });
    const orders = (await sim.audit()).accounts[KEY]?.orders ?? [];
    expect(orders).toHaveLength(8);
    expect(new Set(orders.map((o) => o.externalReferenceId)).size).toBe(8);
  }, 60_000);
});
