import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { startService } from '../../support/app-harness.ts';
import { collect, json, runCli, spawnCli, startSimulatorProcess, tempDir, writeRecipients, type SimulatorProcess } from '../../support/cli.ts';

// Issue 11, item 7: pausing in the app a campaign that a giftbatch command is sending (same data
// folder) stops that sender within seconds; nothing more is sent.
const KEY = 'pause-from-app-key';
const ROWS = 40;
let sim: SimulatorProcess;
beforeAll(async () => {
  sim = await startSimulatorProcess(['--keys', KEY, '--latency', '30', '--item-delay', '60000', '--log', 'problems']);
});
afterAll(async () => {
  await sim?.stop();
});

describe('a pause from the app reaches a giftbatch command', () => {
  it('the command stops sending within seconds, and the campaign is paused by the person', async () => {
    const dir = tempDir();
    const dataDir = join(dir, 'data');
    const env = { GIFTBATCH_API_KEY: KEY };
    const base = ['--base-url', sim.url, '--data-dir', dataDir];
    const csv = writeRecipients(dir, ROWS);
    const product = String(productIdFor(KEY, 'us-fixed-10'));
    // 40 rows at 4 a second: ten seconds of sending.
    const command = collect(spawnCli(['send', csv, '--product', product, '--yes', '--rate', '4', '--json', ...base], env));

    const app = await startService(dataDir);
    let id: string | undefined;
    for (let i = 0; i < 200 && !id; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const { campaigns } = await app.ok('campaigns:list', {});
      id = campaigns.find((c) => c.sendState === 'sending' && c.counts.ordered > 0)?.id;
    }
    expect(id, 'the command is sending').toBeDefined();

    const asked = Date.now();
    const paused = await app.ok('campaigns:pause', { campaignId: id! });
    expect(Date.now() - asked).toBeLessThan(8_000);
    expect(paused).toMatchObject({ sendState: 'paused', pausedReason: 'user', pausedDetail: expect.stringContaining('paused from another Giftbatch') });

    const done = await command;
    expect(done.code).toBe(130);
    const result = json<{ counts: Record<string, number> }>(done.stdout);
    expect(result.counts.ready).toBeGreaterThan(0);
    const orders = (await sim.audit()).accounts[KEY]?.orders ?? [];
    expect(orders.length).toBe(result.counts.ordered);
    expect(orders.length).toBeLessThan(ROWS);
    // And it resumes from the app's side of the folder as usual.
    const status = json<{ send_state: string }>((await runCli(['status', id!, '--json', ...base], env)).stdout);
    expect(status.send_state).toBe('paused');
  }, 90_000);
});
