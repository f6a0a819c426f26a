// send_rate_ratio and send_cpu_ms_per_order: this process is the engine; the simulator runs in
// its own process (`giftbatch simulator --latency 150 --rate 50`: 150 ms per answer, and its own
// 429 past 50 requests/s, so "no 429 provoked" is a real check). 1,000 rows are imported through
// the engine and sent with the limiter at 50 requests/s. Rate = orders ÷ wall time of engine.send;
// CPU = process.cpuUsage() (user + system) of this process over the same call, per order.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SIMULATOR_LOCAL_KEY } from '../../../electron/core/connections.ts';
import { openEngine } from '../../../electron/core/engine.ts';
import { createMemorySecretStore } from '../../../electron/core/secrets/secret-store.ts';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { recipientsCsv } from '../csv-data.ts';
import { emit, log, scenario, startSimulatorProcess } from '../harness.ts';
import { fetchAudit, requestCount, tooManyRequests } from '../simulator-audit.ts';

const ROWS = Number(process.env.BENCH_SEND_ROWS ?? 1_000);
const RATE = 50;
const LATENCY_MS = 150;

scenario(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'giftbatch-bench-send-'));
  const sim = await startSimulatorProcess(['--latency', String(LATENCY_MS), '--rate', String(RATE), '--item-delay', '60000']);
  const engine = await openEngine({ dataDir: dir, secrets: createMemorySecretStore(), env: {} });
  try {
    const connection = await engine.connections.get('simulator', { baseUrl: sim.url, rate: RATE });
    const product = await engine.findProduct(connection, productIdFor(SIMULATOR_LOCAL_KEY, 'us-range'), 'US');
    const { campaign, counts } = engine.createCampaign(connection, {
      bytes: recipientsCsv(ROWS, 7),
      product,
      name: 'Bench send',
      senderName: 'Bench team',
      defaultAmount: { minor: 2500, currency: 'USD' },
    });
    log(`send: ${counts.ready} ready rows (${counts.invalid} invalid) at ${RATE}/s, ${LATENCY_MS} ms latency`);
    const before = await fetchAudit(sim.url);
    // Let the limiter's bucket refill after the catalog requests, so the run starts as any send does.
    await new Promise((resolve) => setTimeout(resolve, 500));

    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const result = await engine.send(campaign.id, { rate: RATE });
    const elapsedMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);

    const after = await fetchAudit(sim.url);
    const ordered = result.counts.ordered + result.counts.delivered;
    const posts = requestCount(after, SIMULATOR_LOCAL_KEY, 'POST /v1/orders') - requestCount(before, SIMULATOR_LOCAL_KEY, 'POST /v1/orders');
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const orderedPerSecond = ordered / (elapsedMs / 1000);
    log(`send: ${ordered} orders in ${(elapsedMs / 1000).toFixed(2)} s (${orderedPerSecond.toFixed(1)}/s), CPU ${cpuMs.toFixed(0)} ms, stopped by ${result.stoppedBy}`);
    emit({
      send_rate_ratio: orderedPerSecond / RATE,
      send_cpu_ms_per_order: cpuMs / Math.max(1, ordered),
      send_orders: ordered,
      send_elapsed_ms: elapsedMs,
      send_orders_per_second: orderedPerSecond,
      send_configured_rate: RATE,
      send_latency_ms: LATENCY_MS,
      send_posts: posts,
      send_429: tooManyRequests(after, SIMULATOR_LOCAL_KEY),
      send_duplicates: after.accounts[SIMULATOR_LOCAL_KEY]?.duplicates.length ?? null,
      send_cpu_user_ms: cpu.user / 1000,
      send_cpu_system_ms: cpu.system / 1000,
      send_stopped_by: result.stoppedBy,
    });
  } finally {
    await engine.close();
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
