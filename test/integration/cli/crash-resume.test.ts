import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRASH_POINTS } from '../../../electron/core/crash-points.ts';
import { mulberry32, productIdFor } from '../../../electron/simulator/index.ts';
import { collect, json, runCli, spawnCli, startSimulatorProcess, tempDir, writeRecipients, type SimulatorProcess } from '../../support/cli.ts';

// Issue 3, done-when 2: the 500-row campaign, while the CLI is killed with SIGKILL at 20+ random
// moments and at each named crash point, then resumed: still exactly one order per row, and the
// local records agree with the simulator's audit row by row and in charged totals.
const KEY = 'cli-crash-test-key';
const ROWS = 500;
const RANDOM_KILLS = 20;

let sim: SimulatorProcess;
beforeAll(async () => {
  sim = await startSimulatorProcess(['--seed', '7', '--latency', '60', '--fault-reset', '0.03', '--fault-500', '0.03', '--fault-truncate', '0.03']);
});
afterAll(async () => {
  await sim?.stop();
});

describe('killed with SIGKILL mid-send, again and again, then resumed', () => {
  it('never pays twice and loses nothing', async () => {
    const random = mulberry32(20261122);
    const dir = tempDir();
    const csv = writeRecipients(dir, ROWS);
    const env = { GIFTBATCH_API_KEY: KEY };
    const common = ['--base-url', sim.url, '--data-dir', join(dir, 'data')];
    const sending = [...common, '--rate', '150'];
    const product = String(productIdFor(KEY, 'us-fixed-25'));
    let campaignId: string | null = null;
    let kills = 0;

    // Random moments: once the run is sending, wait 0–500 ms, then SIGKILL.
    for (let i = 0; i < RANDOM_KILLS; i += 1) {
      const args = campaignId ? ['resume', campaignId, '--yes', ...sending] : ['send', csv, '--product', product, '--yes', ...sending];
      const child = spawnCli(args, env);
      const done = collect(child);
      let stderr = '';
      await new Promise<void>((resolve) => {
        child.stderr?.on('data', (d: Buffer) => {
          stderr += d.toString();
          if (/progress:/.test(stderr)) resolve();
        });
        child.on('close', () => resolve());
      });
      campaignId ??= /Campaign (c_\w+)/.exec(stderr)?.[1] ?? null;
      await new Promise((r) => setTimeout(r, Math.floor(random() * 500)));
      if (child.exitCode === null) {
        child.kill('SIGKILL');
        kills += 1;
      }
      const result = await done;
      if (result.signal !== 'SIGKILL') break; // it finished before the kill: nothing left to interrupt
    }
    expect(campaignId).not.toBeNull();
    if (!campaignId) return;

    // The named points: the process dies right there, on the n-th row that passes it.
    for (const point of CRASH_POINTS.filter((p) => p !== 'mid-report')) {
      const result = await runCli(['resume', campaignId, '--yes', ...sending], { ...env, GIFTBATCH_CRASH_AT: `${point}:${1 + Math.floor(random() * 5)}` });
      if (result.signal === 'SIGKILL') kills += 1;
    }
    expect(kills).toBeGreaterThanOrEqual(10);

    const last = await runCli(['resume', campaignId, '--yes', '--json', ...sending], env);
    expect(last.code, last.stderr).toBe(0);
    expect(json<{ counts: Record<string, number> }>(last.stdout).counts).toMatchObject({ ordered: ROWS, ready: 0, sending: 0, failed: 0 });

    const audit = (await sim.audit()).accounts[KEY];
    expect(audit?.duplicates).toEqual([]);
    expect(audit?.orders).toHaveLength(ROWS);

    // Mid-report: the kill leaves no half report behind; the next one is whole.
    const reportFile = join(dir, 'report.csv');
    const crashed = await runCli(['report', campaignId, '--out', reportFile, ...common], { ...env, GIFTBATCH_CRASH_AT: 'mid-report' });
    expect(crashed.signal).toBe('SIGKILL');
    expect(existsSync(reportFile)).toBe(false);
    const report = await runCli(['report', campaignId, '--out', reportFile, ...common], env);
    expect(report.code, report.stderr).toBe(0);
    const lines = readFileSync(reportFile, 'utf8').split('\r\n');
    const byRef = new Map((audit?.orders ?? []).map((o) => [o.externalReferenceId, o]));
    const header = lines[0]?.replace(/^\uFEFF/, '').split(',') ?? [];
    const col = (name: string) => header.indexOf(name);
    const rows = lines.slice(1).filter((l) => l.startsWith('Recipient '));
    expect(rows).toHaveLength(ROWS);
    for (const line of rows) {
      const cells = line.split(',');
      const order = byRef.get(cells[col('external_reference_id')] ?? '');
      expect(cells[col('order_id')]).toBe(String(order?.id));
      expect(cells[col('charged_amount')]).toBe(order?.charged.amount);
    }
    const status = json<{ charged: unknown }>((await runCli(['status', campaignId, '--json', ...common], env)).stdout);
    expect(status.charged).toEqual(audit?.chargedTotals.map((t) => ({ currency: t.currency, amount: t.amount })));
    // The killed writer's temporary file was cleared by the next report.
    expect(readdirSync(dir).filter((f) => f.includes('report')).sort()).toEqual(['report.csv']);
  }, 300_000);
});
