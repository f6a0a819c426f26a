// The app's own path: campaigns created, edited and sent through the contract's handlers (what the
// desktop calls over IPC and the browser shell over HTTP), with every progress event built and
// serialised as a transport would. This process is the engine; the simulator runs in its own
// process (`--latency 150 --rate 200`: its own 429 past 200 requests/s, so "no 429" is a check).
//
// - app_send_cpu_ms_per_order_1k / _10k: CPU (user + system, this process) from `campaigns:send`
//   to `campaign:finished`, per order, for a 1,000-row and then a 10,000-row campaign at 200/s.
//   A warm-up campaign of 1,000 rows is sent first (V8 compiling the path), reported separately.
// - app_send_orders_per_s_10k: orders ÷ wall time of the same 10,000-row run.
// - send_rss_growth_mb_10k: resident memory after the 10,000-row send minus after the 1,000-row
//   send, each after a full GC, same process.
// - main_thread_max_block_ms_send_10k: the longest stretch this thread was busy without yielding
//   during the 10,000-row send (perf_hooks' event-loop delay histogram at 1 ms resolution, its
//   max minus the resolution).
// - edit_row_ms_10k: median wall time of `rows:edit` on one row of a 10,000-row draft (9 edits
//   spread over the campaign, after 3 warm-up edits).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { CallInput, CallName, CallOutput } from '../../../shared/contract.ts';
import { createAppService, type AppService } from '../../../electron/core/app/index.ts';
import { SIMULATOR_LOCAL_KEY } from '../../../electron/core/connections.ts';
import { openEngine } from '../../../electron/core/engine.ts';
import { createMemorySecretStore } from '../../../electron/core/secrets/secret-store.ts';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { recipientsCsv } from '../csv-data.ts';
import { emit, gc, log, scenario, startSimulatorProcess } from '../harness.ts';
import { median } from '../stats.ts';
import { fetchAudit, tooManyRequests } from '../simulator-audit.ts';

const RATE = 200;
const LATENCY_MS = 150;
const PRODUCT_ID = productIdFor(SIMULATOR_LOCAL_KEY, 'us-range');

async function ok<C extends CallName>(app: AppService, name: C, input: CallInput<C>): Promise<CallOutput<C>> {
  const result = await app.invoke(name, input);
  if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
  return result.value;
}

async function createDraft(app: AppService, rows: number, seed: number, label: string): Promise<string> {
  const created = await ok(app, 'campaigns:create', {
    environment: 'simulator',
    productId: PRODUCT_ID,
    country: 'US',
    fileName: `${label}.csv`,
    bytesBase64: Buffer.from(recipientsCsv(rows, seed)).toString('base64'),
    name: `Bench app send (${label})`,
    senderName: 'Bench team',
    defaultAmount: '25.00',
  });
  log(`app-send (${label}): ${created.counts.ready} ready rows, ${created.counts.invalid} invalid`);
  return created.id;
}

interface SendFigures {
  ordered: number;
  elapsedMs: number;
  cpuMs: number;
  maxBlockMs: number;
  events: number;
}

async function sendThroughHandlers(app: AppService, campaignId: string, label: string): Promise<SendFigures> {
  const check = await ok(app, 'campaigns:preflight', { campaignId });
  // Let both buckets (ours and the simulator's) refill, so the run starts as any send does.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  let events = 0;
  const offProgress = app.on('campaign:progress', (payload) => {
    if (payload.campaign.id !== campaignId) return;
    events++;
    JSON.stringify({ event: 'campaign:progress', payload }); // what a transport does with every event
  });
  const finished = new Promise<CallOutput<'campaigns:get'>>((resolve) => {
    const off = app.on('campaign:finished', (payload) => {
      if (payload.campaign.id !== campaignId) return;
      off();
      resolve(payload.campaign);
    });
  });
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await ok(app, 'campaigns:send', { campaignId, confirmed: true, totals: check.totals });
  const summary = await finished;
  const elapsedMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  histogram.disable();
  offProgress();
  const ordered = summary.counts.ordered + summary.counts.delivered;
  const figures = {
    ordered,
    elapsedMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    maxBlockMs: Math.max(0, histogram.max / 1e6 - 1),
    events,
  };
  log(
    `app-send (${label}): ${ordered} orders in ${(elapsedMs / 1000).toFixed(2)} s (${(ordered / (elapsedMs / 1000)).toFixed(1)}/s), ` +
      `CPU ${figures.cpuMs.toFixed(0)} ms (${(figures.cpuMs / Math.max(1, ordered)).toFixed(2)} ms/order), ` +
      `${events} progress events, longest block ${figures.maxBlockMs.toFixed(1)} ms, state ${summary.sendState}`,
  );
  return figures;
}

function rssMb(): number {
  gc();
  gc();
  return process.memoryUsage().rss / 1024 ** 2;
}

async function timeEdits(app: AppService, campaignId: string): Promise<number[]> {
  const page = await ok(app, 'campaigns:rows', { campaignId, offset: 0, limit: 10_000 });
  const step = Math.floor(page.rows.length / 12);
  const times: number[] = [];
  for (let i = 0; i < 12; i++) {
    const row = page.rows[i * step];
    if (!row) break;
    const t0 = performance.now();
    await ok(app, 'rows:edit', { rowId: row.id, name: `Edited ${i}`, email: `edited-${i}@example.com`, amount: '30.00', message: null });
    times.push(performance.now() - t0);
  }
  return times.slice(3);
}

scenario(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'giftbatch-bench-app-send-'));
  const sim = await startSimulatorProcess(['--latency', String(LATENCY_MS), '--rate', String(RATE), '--item-delay', '60000']);
  const engine = await openEngine({ dataDir: dir, secrets: createMemorySecretStore(), env: {} });
  const app = createAppService({ engine, shell: 'browser', env: {}, polling: { startDelayMs: 3_600_000 } });
  try {
    await ok(app, 'environments:update', { environment: 'simulator', baseUrl: sim.url, rate: RATE });
    const before = await fetchAudit(sim.url);

    const editDraft = await createDraft(app, 10_000, 21, 'edit draft');
    const edits = await timeEdits(app, editDraft);
    log(`app-send: rows:edit on a 10,000-row draft: ${edits.map((t) => t.toFixed(1)).join(', ')} ms`);

    const warm = await sendThroughHandlers(app, await createDraft(app, 1_000, 22, 'warm-up 1k'), 'warm-up 1k');
    const small = await sendThroughHandlers(app, await createDraft(app, 1_000, 23, '1k'), '1k');
    const rssAfter1k = rssMb();
    const large = await sendThroughHandlers(app, await createDraft(app, 10_000, 24, '10k'), '10k');
    const rssAfter10k = rssMb();
    const after = await fetchAudit(sim.url);

    const perOrder = (f: SendFigures) => f.cpuMs / Math.max(1, f.ordered);
    emit({
      app_send_cpu_ms_per_order_1k: perOrder(small),
      app_send_cpu_ms_per_order_10k: perOrder(large),
      app_send_orders_per_s_10k: large.ordered / (large.elapsedMs / 1000),
      app_send_orders_per_s_1k: small.ordered / (small.elapsedMs / 1000),
      app_send_cpu_ms_per_order_warmup: perOrder(warm),
      app_send_orders_10k: large.ordered,
      app_send_progress_events_10k: large.events,
      app_send_429: tooManyRequests(after, SIMULATOR_LOCAL_KEY) - tooManyRequests(before, SIMULATOR_LOCAL_KEY),
      app_send_duplicates: after.accounts[SIMULATOR_LOCAL_KEY]?.duplicates.length ?? null,
      send_rss_growth_mb_10k: rssAfter10k - rssAfter1k,
      send_rss_mb_after_1k: rssAfter1k,
      send_rss_mb_after_10k: rssAfter10k,
      main_thread_max_block_ms_send_10k: large.maxBlockMs,
      edit_row_ms_10k: median(edits),
      edit_row_ms_10k_max: Math.max(...edits),
    });
  } finally {
    await app.close();
    await engine.close();
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
