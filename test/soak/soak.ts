// The soak: a long campaign through a simulator process with every fault on and a tight rate
// limit, while the giftbatch CLI is killed again and again (SIGKILL at random moments and at the
// named crash points) and resumed. At the end: one order per key, local records equal to the
// simulator's audit row by row, charged totals equal, memory flat across runs, and a data file
// that passes `PRAGMA integrity_check`. Loopback only; every wait has a deadline.
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { CRASH_POINTS } from '../../electron/core/crash-points.ts';
import { DATABASE_FILE } from '../../electron/core/paths.ts';
import { mulberry32, productIdFor } from '../../electron/simulator/index.ts';
import { collect, spawnCli, startSimulatorProcess, tempDir, writeRecipients, type CliResult } from '../support/cli.ts';
import { compareWithAudit, readDataFile } from './checks.ts';
import { mb, watchRss } from './memory.ts';

export interface SoakOptions {
  rows: number;
  /** SIGKILLs to deliver before the campaign is allowed to finish. */
  kills: number;
  /** Wall-clock budget for the whole soak; past it, killing stops and the finish must come. */
  seconds: number;
  seed?: number;
  /** Requests per second the simulator allows per key (the client is set a little above it). */
  serviceRate?: number;
  /**
   * Probability of a 503 with Retry-After per POST (default 0.005). Each one pauses and halves the
   * client's rate by design (the service says "slow down"), so it sets how long the soak takes.
   */
  fault503?: number;
  /** Memory may grow by at most this factor from the first runs to the last (default 1.5). */
  rssFactor?: number;
  log?: (line: string) => void;
  keepData?: boolean;
}

export interface RunRecord {
  index: number;
  command: 'send' | 'resume';
  /** How the run was meant to end: a random SIGKILL, a named crash point, or on its own. */
  mode: 'random-kill' | `crash:${string}` | 'to-the-end';
  killed: boolean;
  exitCode: number | null;
  ms: number;
  peakRssMb: number;
}

export interface SoakSummary {
  ok: boolean;
  failures: string[];
  rows: number;
  kills: number;
  runs: number;
  elapsedMs: number;
  campaignId: string | null;
  orders: number;
  duplicates: number;
  rowMismatches: number;
  integrity: string;
  charged: { currency: string; amount: string }[];
  faults: Record<string, number>;
  rateLimited: number;
  memory: { firstPeakMb: number; lastPeakMb: number; ratio: number; limit: number; perRunMb: number[] };
  dataDir: string;
  runLog: RunRecord[];
}

const KEY = 'soak-test-key';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runSoak(options: SoakOptions): Promise<SoakSummary> {
  const log = options.log ?? (() => {});
  const random = mulberry32(options.seed ?? 20260501);
  const started = Date.now();
  const deadline = started + options.seconds * 1000;
  const serviceRate = options.serviceRate ?? 100;
  const dir = tempDir('giftbatch-soak-');
  const dataDir = join(dir, 'data');
  const csv = writeRecipients(dir, options.rows);
  const sim = await startSimulatorProcess([
    '--seed', String(options.seed ?? 20260501),
    '--latency', '20',
    '--jitter', '20',
    '--rate', String(serviceRate),
    '--burst', '5',
    '--fault-reset', '0.03',
    '--fault-500', '0.03',
    '--fault-503', String(options.fault503 ?? 0.005),
    '--fault-slow', '0.02',
    '--slow-ms', '1500',
    '--fault-truncate', '0.03',
  ]);
  // Slow answers outlive the request timeout: they come back as "ambiguous", like a real timeout.
  const env = { GIFTBATCH_API_KEY: KEY, GIFTBATCH_REQUEST_TIMEOUT_MS: '800' };
  const common = ['--base-url', sim.url, '--data-dir', dataDir];
  // The client's rate equals the service's, but its burst is larger: 429s with Retry-After are part
  // of the soak, and the client's limiter halves after each overload (a higher client rate only
  // drives it down further, which makes the soak slow without testing anything more).
  const sending = [...common, '--rate', String(serviceRate), '--yes', '--json'];
  // KRW product on a USD account: every charge goes through a rate, rounding included.
  const product = String(productIdFor(KEY, 'kr-fixed-krw'));
  const runLog: RunRecord[] = [];
  let campaignId: string | null = null;
  let kills = 0;
  let finished = false;

  const runOnce = async (mode: RunRecord['mode'], crashAt?: string): Promise<CliResult> => {
    const command = campaignId ? 'resume' : 'send';
    const args = campaignId ? ['resume', campaignId, ...sending] : ['send', csv, '--product', product, ...sending];
    const t0 = Date.now();
    const child = spawnCli(args, crashAt ? { ...env, GIFTBATCH_CRASH_AT: crashAt } : env);
    const rss = watchRss(child.pid ?? -1);
    const done = collect(child);
    if (mode === 'random-kill') {
      // Once it is working (reconciling or sending), a random moment later: SIGKILL.
      let stderr = '';
      await new Promise<void>((resolve) => {
        child.stderr?.on('data', (d: Buffer) => {
          stderr += d.toString();
          if (/progress:/.test(stderr)) resolve();
        });
        child.on('close', () => resolve());
      });
      await sleep(150 + Math.floor(random() * 900));
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    const hardStop = setTimeout(() => child.kill('SIGKILL'), Math.max(5_000, deadline - Date.now() + 60_000));
    const result = await done;
    clearTimeout(hardStop);
    rss.stop();
    campaignId ??= /Campaign (c_\w+)/.exec(result.stderr)?.[1] ?? null;
    const killed = result.signal === 'SIGKILL';
    if (killed) kills += 1;
    const record: RunRecord = { index: runLog.length, command, mode, killed, exitCode: result.code, ms: Date.now() - t0, peakRssMb: mb(rss.peakBytes()) };
    runLog.push(record);
    log(`run ${record.index}: ${command} ${mode} → ${killed ? 'killed' : `exit ${result.code}`} after ${record.ms} ms, peak RSS ${record.peakRssMb} MB`);
    return result;
  };

  const settled = (result: CliResult): boolean => {
    if (result.signal || result.code === null) return false;
    try {
      const counts = (JSON.parse(result.stdout) as { counts: Record<string, number> }).counts;
      return counts.ready === 0 && counts.sending === 0;
    } catch {
      return false;
    }
  };

  const crashPoints = CRASH_POINTS.filter((p) => p !== 'mid-report');
  try {
    // Phase 1: kill it, again and again. Every third kill is at a named crash point.
    for (let i = 0; kills < options.kills && Date.now() < deadline && !finished; i += 1) {
      const point = crashPoints[Math.floor(i / 3) % crashPoints.length];
      const useCrashPoint = campaignId !== null && i % 3 === 2 && point !== undefined;
      const result = useCrashPoint
        ? await runOnce(`crash:${point}`, `${point}:${1 + Math.floor(random() * 20)}`)
        : await runOnce('random-kill');
      if (!campaignId) {
        if (result.signal) continue; // killed before the import committed: try the send again
        throw new Error(`the first send did not start a campaign (exit ${result.code}): ${result.stderr.slice(-2000)}`);
      }
      finished = settled(result);
    }
    // Phase 2: let it finish. A circuit-breaker pause is a normal stop under these faults: resume.
    for (let attempt = 0; !finished && attempt < 12; attempt += 1) {
      if (Date.now() > deadline + 120_000) throw new Error('the campaign did not finish within the time budget');
      finished = settled(await runOnce('to-the-end'));
    }
    if (!campaignId) throw new Error('no campaign was created');

    const status = await collect(spawnCli(['status', campaignId, '--json', ...common], env));
    if (status.code !== 0) throw new Error(`giftbatch status failed (exit ${status.code}, ${status.signal ?? 'no signal'}): ${status.stderr.slice(-2000)}`);
    const charged = (JSON.parse(status.stdout) as { charged: { currency: string; amount: string }[] }).charged;
    const audit = (await sim.audit()).accounts[KEY];
    const facts = readDataFile(join(dataDir, DATABASE_FILE), campaignId);
    const verdict = compareWithAudit(facts, audit, options.rows, charged);
    const failures = [...verdict.failures];
    if (!finished) failures.push(`the campaign did not settle: ${JSON.stringify(facts.states)}`);
    if (kills < options.kills) failures.push(`only ${kills} of ${options.kills} kills happened before the campaign finished`);

    // Memory: the peak of the last runs against the peak of the first runs.
    const peaks = runLog.filter((r) => r.peakRssMb > 0).map((r) => r.peakRssMb);
    const quarter = Math.max(1, Math.floor(peaks.length / 4));
    const firstPeakMb = Math.max(0, ...peaks.slice(0, quarter));
    const lastPeakMb = Math.max(0, ...peaks.slice(-quarter));
    const limit = options.rssFactor ?? 1.5;
    const ratio = firstPeakMb > 0 ? Math.round((lastPeakMb / firstPeakMb) * 100) / 100 : 0;
    if (peaks.length === 0) failures.push('no memory samples: /proc/<pid>/status could not be read');
    else if (ratio > limit) failures.push(`memory grew: last runs peaked at ${lastPeakMb} MB, ${ratio}× the first runs' ${firstPeakMb} MB (limit ${limit}×)`);

    const posts = audit?.requests['POST /v1/orders'] ?? {};
    return {
      ok: failures.length === 0,
      failures,
      rows: options.rows,
      kills,
      runs: runLog.length,
      elapsedMs: Date.now() - started,
      campaignId,
      orders: verdict.orders,
      duplicates: verdict.duplicates.length,
      rowMismatches: verdict.rowMismatches,
      integrity: facts.integrity,
      charged,
      faults: { ...(audit?.faults ?? {}) },
      rateLimited: posts['429'] ?? 0,
      memory: { firstPeakMb, lastPeakMb, ratio, limit, perRunMb: peaks },
      dataDir,
      runLog,
    };
  } finally {
    await sim.stop();
    if (!options.keepData) rmSync(dir, { recursive: true, force: true });
  }
}

export function formatSummary(s: SoakSummary): string {
  const faults = Object.entries(s.faults).map(([k, n]) => `${k} ${n}`).join(', ');
  return [
    `soak: ${s.ok ? 'PASSED' : 'FAILED'} in ${(s.elapsedMs / 1000).toFixed(1)} s`,
    `  rows ${s.rows}, runs ${s.runs}, kills ${s.kills} (SIGKILL), campaign ${s.campaignId ?? '-'}`,
    `  orders at the simulator ${s.orders}, duplicate keys ${s.duplicates}, row mismatches ${s.rowMismatches}`,
    `  charged ${s.charged.map((c) => `${c.currency} ${c.amount}`).join(', ') || 'nothing'} (equal to the simulator's audit: ${s.failures.some((f) => f.startsWith('charged')) ? 'no' : 'yes'})`,
    `  faults injected: ${faults || 'none'}; 429s ${s.rateLimited}`,
    `  memory: first runs peak ${s.memory.firstPeakMb} MB, last runs peak ${s.memory.lastPeakMb} MB, ratio ${s.memory.ratio} (limit ${s.memory.limit})`,
    `  integrity_check: ${s.integrity}`,
    ...s.failures.map((f) => `  FAIL: ${f}`),
  ].join('\n');
}
