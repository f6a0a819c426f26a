import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignStatus } from '../../../electron/cli/status.ts';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { collect, json, runCli, spawnCli, startSimulatorProcess, tempDir, writeRecipients, type SimulatorProcess } from '../../support/cli.ts';

// Event day, found in review: `giftbatch poll` ignored Ctrl-C (and SIGTERM) until the round in
// progress ended: against a slow service (4 s an answer) a round over 5 orders took 22 s to stop, and
// `--until-settled --timeout 200` over 1,980 orders ran 6 min 38 s. Now a stop cancels the request in
// flight and starts no other: the command exits within about a second, every row as it was or as
// the service said (never half-written), and --timeout bounds the whole command. And a long
// `--until-settled` no longer adds an abort listener per round (MaxListenersExceededWarning after 11).
const KEY = 'cli-poll-stop-key';
const SLOW = { slow: 1, slowMs: 4_000, faultRoutes: 'all' };
let sim: SimulatorProcess;
beforeAll(async () => {
  sim = await startSimulatorProcess(['--log', 'problems', '--item-delay', '100']);
});
afterEach(async () => {
  await sim.setFaults({ slow: 0 });
});
afterAll(async () => {
  await sim?.stop();
});

const slowAnswers = async (): Promise<number> => (await sim.audit()).accounts[KEY]?.faults.slow ?? 0;

/** A campaign of `n` gifts sent through the CLI, its orders delivered at the service and not yet polled (the rows still say ordered). */
async function sentCampaign(n: number, slug = 'us-fixed-25'): Promise<{ id: string; common: string[] }> {
  const dir = tempDir();
  const common = ['--base-url', sim.url, '--data-dir', join(dir, 'data')];
  const sent = await runCli(['send', writeRecipients(dir, n), '--product', String(productIdFor(KEY, slug)), '--yes', '--json', ...common], { GIFTBATCH_API_KEY: KEY });
  expect(sent.code, sent.stderr).toBe(0);
  const id = json<{ campaign_id: string; counts: Record<string, number> }>(sent.stdout).campaign_id;
  await new Promise((r) => setTimeout(r, 300)); // past the item delay: delivered at the service
  return { id, common };
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function statusOf(id: string, common: string[]): Promise<CampaignStatus> {
  const status = await runCli(['status', id, '--json', ...common], { GIFTBATCH_API_KEY: KEY });
  expect(status.code, status.stderr).toBe(0);
  return json<CampaignStatus>(status.stdout);
}

describe('giftbatch poll stops when asked', () => {
  it.each([
    ['SIGINT', 'one campaign'],
    ['SIGTERM', 'one campaign'],
    ['SIGINT', 'the whole environment'],
  ] as const)('%s during a slow round of %s: exit 130 within about a second, no request after it, every row as it was', async (signal, scope) => {
    const { id, common } = await sentCampaign(5);
    await sim.setFaults(SLOW);
    const before = await slowAnswers();
    const child = spawnCli(['poll', ...(scope === 'one campaign' ? [id] : []), '--json', ...common], { GIFTBATCH_API_KEY: KEY });
    const done = collect(child);
    // The round's first request (the PENDING list) is held 4 s by the service: stop it half-way.
    await until('the first poll request', async () => (await slowAnswers()) > before);
    await new Promise((r) => setTimeout(r, 1_000));
    const stoppedAt = Date.now();
    child.kill(signal);
    const guard = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const result = await done;
    clearTimeout(guard);
    const tookMs = Date.now() - stoppedAt;
    expect(result.code, result.stderr).toBe(130);
    expect(tookMs).toBeLessThan(1_500); // the old command went on for the whole round (about 20 s more)
    const asked = await slowAnswers();
    expect(asked - before).toBe(1); // only the request in flight at the stop
    const out = json<{ rounds: number; tracked: number; error: string; stopped: string }>(result.stdout);
    expect(out).toMatchObject({ rounds: 1, tracked: 5, stopped: signal });
    expect(out.error).toMatch(/^stopped on request after checking 0 of 5 orders/);
    expect(result.stderr).toContain(`poll: stopped by ${signal}.`);
    expect((await statusOf(id, common)).counts).toMatchObject({ ordered: 5, delivered: 0 });

    // Nothing is asked after the stop, and the next poll finds every order as the service has it.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await slowAnswers()).toBe(asked);
    await sim.setFaults({ slow: 0 });
    const again = await runCli(['poll', id, ...common], { GIFTBATCH_API_KEY: KEY });
    expect(again.code, again.stderr).toBe(0);
    expect((await statusOf(id, common)).counts).toMatchObject({ ordered: 0, delivered: 5 });
    const audit = (await sim.audit()).accounts[KEY];
    expect(audit?.duplicates).toEqual([]);
  }, 60_000);

  it('a stop between two order lookups leaves the rows checked so far delivered and the rest ordered', async () => {
    const { id, common } = await sentCampaign(5);
    await sim.setFaults({ ...SLOW, slowMs: 700 });
    const before = await slowAnswers();
    const child = spawnCli(['poll', id, '--json', ...common], { GIFTBATCH_API_KEY: KEY });
    const done = collect(child);
    // The list, then one lookup per delivered order: stop during the third lookup.
    await until('the third order lookup', async () => (await slowAnswers()) - before >= 4);
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGINT');
    const result = await done;
    expect(result.code, result.stderr).toBe(130);
    const out = json<{ error: string; settled: number; status: CampaignStatus }>(result.stdout);
    expect(out.error).toMatch(/^stopped on request after checking 2 of 5 orders/);
    expect(out.settled).toBe(2);
    expect(out.status.counts).toMatchObject({ ordered: 3, delivered: 2 });
    expect(await slowAnswers()).toBe(before + 4);
  }, 60_000);

  it('--timeout bounds the whole command, a round in progress included (exit 0, as at a timeout between rounds)', async () => {
    const { id, common } = await sentCampaign(5);
    await sim.setFaults(SLOW);
    const started = Date.now();
    const result = await runCli(['poll', id, '--until-settled', '--timeout', '2', '--json', ...common], { GIFTBATCH_API_KEY: KEY });
    const tookMs = Date.now() - started;
    expect(result.code, result.stderr).toBe(0);
    // Two seconds and the start of the process (node --import tsx); the old command took about 24 s.
    expect(tookMs).toBeLessThan(6_000);
    const out = json<{ stopped: string; error: string; status: CampaignStatus }>(result.stdout);
    expect(out.stopped).toBe('timeout');
    expect(out.error).toMatch(/^stopped on request after checking 0 of 5 orders/);
    expect(result.stderr).toContain('poll: --timeout 2 s reached');
    expect(out.status.counts).toMatchObject({ ordered: 5 });
  }, 60_000);

  it('--until-settled over many rounds adds no abort listener per round (no MaxListenersExceededWarning)', async () => {
    // Recipient-details gifts stay PENDING until accepted: every round finds them waiting.
    const { id, common } = await sentCampaign(2, 'us-recipient-details');
    const result = await runCli(['poll', id, '--until-settled', '--interval', '0.1', '--timeout', '4', '--json', ...common], { GIFTBATCH_API_KEY: KEY });
    expect(result.code, result.stderr).toBe(0);
    const out = json<{ rounds: number; waiting: number }>(result.stdout);
    expect(out.rounds).toBeGreaterThan(12); // the old command warned after 11
    expect(out.waiting).toBe(2);
    expect(result.stderr).not.toMatch(/MaxListenersExceeded|memory leak/);
  }, 60_000);
});
