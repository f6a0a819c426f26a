// send_rate_ratio and send_cpu_ms_per_order: this process is the engine; the simulator runs in
// its own process (`giftbatch simulator --latency 150 --rate 50`: 150 ms per answer, and its own
// 429 past 50 requests/s, so "no 429 provoked" is a real check). Three campaigns of 1,000 rows are
// imported through the engine and sent one after the other with the limiter at 50 requests/s.
// The first is the engine's first send since it started, and pays for V8 compiling the send path
// (its figure is reported as send_cpu_ms_per_order_first_run, never hidden); V8 goes on compiling
// through the second; the third is the engine as a running app sends every later campaign, and is
// the one the keys and the target are measured on. Rate = orders ÷ wall time of the send (checkedSend, what a send run calls);
// CPU = process.cpuUsage() (user + system, every thread of the process) over the same call.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SIMULATOR_LOCAL_KEY, type Connection } from '../../../electron/core/connections.ts';
import { checkedSend, openEngine, type Engine } from '../../../electron/core/engine.ts';
import { createCampaignNow } from '../../support/engine-import.ts';
import { createMemorySecretStore } from '../../../electron/core/secrets/secret-store.ts';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { recipientsCsv } from '../csv-data.ts';
import { emit, log, scenario, startSimulatorProcess } from '../harness.ts';
import { fetchAudit, requestCount, tooManyRequests } from '../simulator-audit.ts';

const ROWS = 1_000;
const RATE = 50;
const LATENCY_MS = 150;

interface RunFigures {
  ordered: number;
  elapsedMs: number;
  cpuUserMs: number;
  cpuSystemMs: number;
  stoppedBy: string;
}

async function sendCampaign(engine: Engine, connection: Connection, seed: number, label: string): Promise<RunFigures> {
  const product = await engine.findProduct(connection, productIdFor(SIMULATOR_LOCAL_KEY, 'us-range'), 'US');
  const { campaign, counts } = createCampaignNow(engine, connection, {
    bytes: recipientsCsv(ROWS, seed),
    product,
    name: `Bench send (${label})`,
    senderName: 'Bench team',
    defaultAmount: { minor: 2500, currency: 'USD' },
  });
  log(`send (${label}): ${counts.ready} ready rows (${counts.invalid} invalid) at ${RATE}/s, ${LATENCY_MS} ms latency`);
  // Let both buckets (ours and the simulator's) refill, so the run starts as any send does.
  await new Promise((resolve) => setTimeout(resolve, 1_500));

  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const sending = await engine.connectionFor(campaign, { rate: RATE });
  const result = await checkedSend(engine, sending, engine.queueFor(sending), campaign.id);
  const elapsedMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const ordered = result.counts.ordered + result.counts.delivered;
  log(
    `send (${label}): ${ordered} orders in ${(elapsedMs / 1000).toFixed(2)} s (${(ordered / (elapsedMs / 1000)).toFixed(1)}/s), ` +
      `CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms, stopped by ${result.stoppedBy}`,
  );
  return { ordered, elapsedMs, cpuUserMs: cpu.user / 1000, cpuSystemMs: cpu.system / 1000, stoppedBy: result.stoppedBy };
}

const perOrder = (run: RunFigures): number => (run.cpuUserMs + run.cpuSystemMs) / Math.max(1, run.ordered);

scenario(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'giftbatch-bench-send-'));
  const sim = await startSimulatorProcess(['--latency', String(LATENCY_MS), '--rate', String(RATE), '--item-delay', '60000']);
  const engine = await openEngine({ dataDir: dir, secrets: createMemorySecretStore(), env: {} });
  try {
    const connection = await engine.connections.get('simulator', { baseUrl: sim.url, rate: RATE });
    const before = await fetchAudit(sim.url);
    const first = await sendCampaign(engine, connection, 7, 'first run');
    const second = await sendCampaign(engine, connection, 8, 'second run');
    const middle = await fetchAudit(sim.url);
    const run = await sendCampaign(engine, connection, 9, 'measured run');
    const after = await fetchAudit(sim.url);
    const posts = (audit: typeof after) => requestCount(audit, SIMULATOR_LOCAL_KEY, 'POST /v1/orders');
    const orderedPerSecond = run.ordered / (run.elapsedMs / 1000);
    emit({
      send_rate_ratio: orderedPerSecond / RATE,
      send_cpu_ms_per_order: perOrder(run),
      send_orders: run.ordered,
      send_elapsed_ms: run.elapsedMs,
      send_orders_per_second: orderedPerSecond,
      send_configured_rate: RATE,
      send_latency_ms: LATENCY_MS,
      send_posts: posts(after) - posts(middle),
      send_429: tooManyRequests(after, SIMULATOR_LOCAL_KEY) - tooManyRequests(before, SIMULATOR_LOCAL_KEY),
      send_duplicates: after.accounts[SIMULATOR_LOCAL_KEY]?.duplicates.length ?? null,
      send_cpu_user_ms: run.cpuUserMs,
      send_cpu_system_ms: run.cpuSystemMs,
      send_stopped_by: run.stoppedBy,
      send_cpu_ms_per_order_first_run: perOrder(first),
      send_cpu_ms_per_order_runs: [first, second, run].map(perOrder),
      send_rate_ratio_first_run: first.ordered / (first.elapsedMs / 1000) / RATE,
      send_orders_first_run: first.ordered,
    });
  } finally {
    await engine.close();
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
