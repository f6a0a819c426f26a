import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { collect, json, runCli, spawnCli, startSimulatorProcess, tempDir, writeRecipients, type SimulatorProcess } from '../../support/cli.ts';

// The app and a giftbatch command share one data folder. While one process sends a campaign,
// another that asks to send (resume) it is refused with a message that says so, a third that only
// reads (status) does not flag it as interrupted, and the campaign ends with one POST per row.
const KEY = 'two-senders-key';
const ROWS = 30;
let sim: SimulatorProcess;
let dir: string;
let base: string[];
const env = { GIFTBATCH_API_KEY: KEY };

interface Status {
  id: string;
  send_state: string;
  paused_reason: string | null;
  counts: Record<string, number>;
}

beforeAll(async () => {
  sim = await startSimulatorProcess(['--keys', KEY, '--latency', '50', '--item-delay', '60000']);
  dir = tempDir();
  base = ['--base-url', sim.url, '--data-dir', join(dir, 'data')];
});
afterAll(async () => {
  await sim?.stop();
});

describe('two processes, one campaign', () => {
  it('a second sender is refused while the first sends; a reader does not flag it as interrupted; one POST per row', async () => {
    const csv = writeRecipients(dir, ROWS);
    const product = String(productIdFor(KEY, 'us-fixed-10'));
    // 30 rows at 8 a second: about four seconds of sending.
    const first = collect(spawnCli(['send', csv, '--product', product, '--yes', '--rate', '8', '--json', ...base], env));

    let sending: Status | undefined;
    for (let i = 0; i < 200 && !sending; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const listed = await runCli(['status', '--json', ...base], env);
      if (listed.code !== 0) continue;
      sending = json<Status[]>(listed.stdout).find((s) => s.send_state === 'sending' && (s.counts.ordered ?? 0) > 0);
    }
    expect(sending, 'the first process is sending').toBeDefined();
    const id = sending!.id;

    const second = await runCli(['resume', id, '--yes', '--rate', '8', ...base], env);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/is being sent right now by another Giftbatch \(process \d+, since .*\).*nothing was sent from here/);

    const done = await first;
    expect(done.code).toBe(0);
    const result = json<{ counts: Record<string, number>; send_state: string }>(done.stdout);
    expect(result).toMatchObject({ send_state: 'done', counts: { ordered: ROWS, sending: 0, ready: 0 } });

    const account = (await sim.audit()).accounts[KEY]!;
    expect(account.orders).toHaveLength(ROWS);
    expect(account.requests['POST /v1/orders']?.['200']).toBe(ROWS);

    // With the first gone, the campaign can be sent from anywhere again (nothing left to send).
    const again = await runCli(['resume', id, '--yes', '--json', ...base], env);
    expect(again.code).toBe(0);
    expect((await sim.audit()).accounts[KEY]!.orders).toHaveLength(ROWS);
  }, 90_000);
});
