// main_thread_max_block_ms_import_100k, main_thread_max_block_ms_preview_100k and app_import_100k_ms:
// how long the engine's thread (Electron's main thread, which every window waits on) is busy
// without a break while the app imports a 100,000-row CSV through its contract, as the renderer
// calls it: the app service on a temp data folder, 'campaigns:create' and 'campaigns:previewImport'
// (asked for no rows, as the import step asks: its totals and defaultMessage, not 100,000 rows)
// through dispatch (input parsed, handler, output checked against the contract), against the
// built-in simulator's USD range product. The longest stretch is read two ways while each call
// runs: perf_hooks.monitorEventLoopDelay at 1 ms resolution (its max, less the resolution) and a
// 1 ms setInterval probe (the largest gap between two ticks, less the interval); the figure is the
// larger of the two, the worst of RUNS calls. Then one more create while this thread writes a
// setting every 5 ms, as a send commits: a write waits for the worker's storing on this thread, and
// the longest such write is main_thread_max_write_ms_import_100k. Wall time: the median create, from call to answer.
// Every create names a progressId, as the window's does, so its progress events are in the figures.
// Then how the same path grows at 1k, 10k and 100k rows, for a CSV and a workbook (growth below).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createAppService } from '../../../electron/core/app/service.ts';
import { SIMULATOR_LOCAL_KEY } from '../../../electron/core/connections.ts';
import { openEngine } from '../../../electron/core/engine.ts';
import { setSetting } from '../../../electron/core/db/repos/settings.ts';
import { createMemorySecretStore } from '../../../electron/core/secrets/secret-store.ts';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { recipientsCsv } from '../csv-data.ts';
import { recipientsXlsx } from '../workbook-data.ts';
import { emit, gc, log, scenario } from '../harness.ts';
import { median } from '../stats.ts';

const ROWS = 100_000;
const RUNS = 3;
const PROBE_MS = 1;

interface Blocking<T> {
  value: T;
  wallMs: number;
  /** monitorEventLoopDelay's max, less its resolution. */
  histogramMs: number;
  /** The largest gap between two ticks of a 1 ms interval, less the interval. */
  probeMs: number;
  /** The longest of the small writes made on this thread meanwhile (`write`), each every WRITE_EVERY_MS. */
  writeMs: number;
}

/** While a create stores its rows, this thread writes as a send does (a commit every few ms). */
const WRITE_EVERY_MS = 5;

/** Runs `work` while watching the event loop; what it returned, how long it took, the longest block. */
async function watchLoop<T>(work: () => Promise<T>, write?: () => void): Promise<Blocking<T>> {
  const histogram = monitorEventLoopDelay({ resolution: PROBE_MS });
  let last = performance.now();
  let widest = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    widest = Math.max(widest, now - last);
    last = now;
  }, PROBE_MS);
  let writeMs = 0;
  const writer = write
    ? setInterval(() => {
        const t = performance.now();
        write();
        writeMs = Math.max(writeMs, performance.now() - t);
      }, WRITE_EVERY_MS)
    : null;
  histogram.enable();
  // Let both probes take their first reading before the work starts.
  await new Promise((resolve) => setTimeout(resolve, 10));
  const t0 = performance.now();
  const value = await work();
  const wallMs = performance.now() - t0;
  // A block at the very end is only seen once the loop turns again.
  await new Promise((resolve) => setTimeout(resolve, 10));
  histogram.disable();
  clearInterval(probe);
  if (writer) clearInterval(writer);
  return { value, wallMs, histogramMs: Math.max(0, histogram.max / 1e6 - PROBE_MS), probeMs: Math.max(0, widest - PROBE_MS), writeMs };
}

const blockOf = (b: Blocking<unknown>): number => Math.max(b.histogramMs, b.probeMs);

// How the app's path grows with the file: at each size, a CSV and the same rows as a workbook,
// through the handlers as the window and the CLI call them: the window's preview (no rows), the
// CLI's `validate` (a preview of every row, each checked against the contract on the way out) and
// create. The median of GROWTH_RUNS calls each, from call to answer.
const GROWTH_SIZES = [1_000, 10_000, 100_000] as const;
const GROWTH_RUNS = 3;
const GROWTH_CALLS = ['preview', 'validate', 'create'] as const;

type Call = (name: 'campaigns:previewImport' | 'campaigns:create', input: Record<string, unknown>) => Promise<Record<string, unknown>>;

async function growth(call: Call, request: Record<string, unknown>): Promise<Record<string, number>> {
  const figures: Record<string, number> = {};
  for (const format of ['csv', 'xlsx'] as const) {
    for (const rows of GROWTH_SIZES) {
      const bytes = format === 'csv' ? recipientsCsv(rows) : recipientsXlsx(rows);
      const file = { fileName: `growth.${format}`, bytesBase64: Buffer.from(bytes).toString('base64') };
      for (const kind of GROWTH_CALLS) {
        const times: number[] = [];
        for (let i = 0; i < GROWTH_RUNS; i++) {
          gc();
          const t0 = performance.now();
          const answer =
            kind === 'create'
              ? await call('campaigns:create', { ...request, ...file, name: `Growth ${format} ${rows} ${i + 1}`, senderName: 'Bench team', progressId: `growth ${format} ${rows} ${i}` })
              : await call('campaigns:previewImport', { ...request, ...file, rows: kind === 'preview' ? 'none' : 'all' });
          times.push(performance.now() - t0);
          const counted = kind === 'create' ? count(answer, 'counts', ['ready', 'invalid']) : count(answer, 'totals', ['rows']);
          if (counted !== rows) throw new Error(`${kind} of ${rows} ${format} rows counted ${counted}`);
        }
        figures[`app_${kind}_${format}_${rows / 1000}k_ms`] = median(times);
      }
    }
    for (const kind of GROWTH_CALLS) {
      // Time per row at 100k over time per row at 10k: 1 is linear.
      const at = (rows: number) => figures[`app_${kind}_${format}_${rows / 1000}k_ms`]! / rows;
      figures[`app_${kind}_${format}_per_row_100k_vs_10k`] = at(100_000) / at(10_000);
    }
  }
  return figures;
}

function count(answer: Record<string, unknown>, field: string, keys: readonly string[]): number {
  const counts = answer[field] as Record<string, number>;
  return keys.reduce((sum, key) => sum + (counts[key] ?? 0), 0);
}

scenario(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'giftbatch-bench-app-import-'));
  const engine = await openEngine({ dataDir, secrets: createMemorySecretStore(), env: {} });
  const problems: string[] = [];
  const service = createAppService({ engine, shell: 'browser', env: {}, log: (level, message) => level !== 'info' && problems.push(`${level}: ${message}`) });
  try {
    const productId = productIdFor(SIMULATOR_LOCAL_KEY, 'us-range');
    const file = { fileName: 'bench.csv', bytesBase64: Buffer.from(recipientsCsv(ROWS)).toString('base64') };
    const request = { ...file, environment: 'simulator' as const, productId, country: 'US', defaultAmount: '25.00' };
    log(`app-import: ${ROWS} rows, ${(file.bytesBase64.length / 1e6).toFixed(1)} MB of base64`);
    const call: Call = async (name, input) => {
      const result = await service.call(name, input);
      if (!result.ok) throw new Error(`${name} failed: ${result.error.code}: ${result.error.message} ${problems.join(' | ')}`);
      return result.value as Record<string, unknown>;
    };

    // Warm-up on a small file: the catalog, the simulator, the JIT (and, once imports run in a
    // worker, its first start), so that the measured calls are the import itself.
    const small = { fileName: 'small.csv', bytesBase64: Buffer.from(recipientsCsv(1_000, 7)).toString('base64') };
    await call('campaigns:previewImport', { ...request, ...small });
    await call('campaigns:create', { ...request, ...small, name: 'Warm-up', senderName: 'Bench team' });

    // Only the figures are kept: a preview's 100,000 rows held on would weigh on every later garbage collection.
    const previews: Blocking<null>[] = [];
    const creates: Blocking<null>[] = [];
    let writes = 0;
    for (let i = 0; i < RUNS; i++) {
      gc();
      const preview = await watchLoop(async () => {
        const { rows, totals } = (await call('campaigns:previewImport', { ...request, rows: 'none' })) as { rows: unknown[]; totals: { rows: number } };
        if (totals.rows !== ROWS || rows.length !== 0) throw new Error(`the preview counts ${totals.rows} rows and lists ${rows.length}, expected ${ROWS} and none`);
        return null;
      });
      previews.push(preview);
      gc();
      const created = await watchLoop(async () => {
        const { counts } = (await call('campaigns:create', { ...request, name: `Bench import ${i + 1}`, senderName: 'Bench team', progressId: `bench ${i}` })) as { counts: { ready: number; invalid: number } };
        if (counts.ready + counts.invalid !== ROWS) throw new Error(`the campaign holds ${counts.ready + counts.invalid} rows, expected ${ROWS}`);
        return null;
      });
      creates.push(created);
      log(
        `app-import run ${i + 1}: preview ${preview.wallMs.toFixed(0)} ms (longest block ${preview.histogramMs.toFixed(1)} / ${preview.probeMs.toFixed(1)} ms), ` +
          `create ${created.wallMs.toFixed(0)} ms (longest block ${created.histogramMs.toFixed(1)} / ${created.probeMs.toFixed(1)} ms, ` +
          `longest write from this thread meanwhile ${created.writeMs.toFixed(1)} ms)`,
      );
    }
    // Once more while this thread writes as a send does: how long its writes wait for the storing.
    gc();
    const contended = await watchLoop(async () => {
      await call('campaigns:create', { ...request, name: 'Bench import while writing', senderName: 'Bench team', progressId: 'bench while writing' });
      return null;
    }, () => setSetting(engine.db, 'bench.write', ++writes, Date.now()));
    log(`app-import while this thread writes every ${WRITE_EVERY_MS} ms: create ${contended.wallMs.toFixed(0)} ms, longest write ${contended.writeMs.toFixed(1)} ms, longest block ${blockOf(contended).toFixed(1)} ms`);
    const grown = await growth(call, request);
    log(`app-import growth: ${Object.entries(grown).map(([k, v]) => `${k} ${v.toFixed(v < 10 ? 2 : 0)}`).join(', ')}`);
    emit({
      main_thread_max_block_ms_import_100k: Math.max(...creates.map(blockOf)),
      main_thread_max_block_ms_preview_100k: Math.max(...previews.map(blockOf)),
      main_thread_max_write_ms_import_100k: contended.writeMs,
      app_import_100k_ms_while_writing: contended.wallMs,
      app_import_100k_ms: median(creates.map((c) => c.wallMs)),
      app_preview_100k_ms: median(previews.map((p) => p.wallMs)),
      main_thread_block_import_runs_ms: creates.map(blockOf),
      main_thread_block_preview_runs_ms: previews.map(blockOf),
      app_import_runs_ms: creates.map((c) => c.wallMs),
      ...grown,
    });
  } finally {
    await service.close();
    await engine.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
