import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { json, runCli, startSimulatorProcess, tempDir, writeRecipients, type SimulatorProcess } from '../../support/cli.ts';

// Issue 11, item 3, through the CLI: rows for recipients who already have a gift ordered from this
// environment are sent only with an explicit confirmation (--send-repeats); --yes alone is not it.
const KEY = 'cli-repeats-key';
let sim: SimulatorProcess;
beforeAll(async () => {
  sim = await startSimulatorProcess(['--log', 'problems']);
});
afterAll(async () => {
  await sim?.stop();
});

describe('a second campaign to the same people', () => {
  it('is held until --send-repeats confirms it', async () => {
    const dir = tempDir();
    const env = { GIFTBATCH_API_KEY: KEY };
    const common = ['--base-url', sim.url, '--data-dir', join(dir, 'data')];
    const csv = writeRecipients(dir, 3);
    const product = String(productIdFor(KEY, 'us-fixed-10'));
    expect((await runCli(['send', csv, '--product', product, '--yes', '--json', ...common], env)).code).toBe(0);

    const held = await runCli(['send', csv, '--product', product, '--yes', '--json', ...common], env);
    expect(held.code).toBe(1);
    expect(held.stderr).toMatch(/3 row\(s\) \(lines 2, 3, 4\) are for recipients who already have a gift ordered from this environment.*--send-repeats/);
    const id = json<{ campaign_id: string }>(held.stdout).campaign_id;
    expect((await sim.audit()).accounts[KEY]?.orders).toHaveLength(3);

    const sent = await runCli(['resume', id, '--send-repeats', '--yes', '--json', ...common], env);
    expect(sent.code, sent.stderr).toBe(0);
    expect((await sim.audit()).accounts[KEY]?.orders).toHaveLength(6);
  }, 60_000);
});
