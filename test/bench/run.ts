// `npm run bench` (a table) and `npm run -s bench -- --json` (exactly one JSON document on stdout;
// every log line goes to stderr). Each figure is measured beside its baseline in the same run,
// each scenario in its own Node process. `--only import,store,...` runs some scenarios.
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { log, ROOT, runScenario } from './harness.ts';
import { evaluateTarget, formatTable, round, type TableRow, type Target } from './stats.ts';

const SCENARIOS = {
  import: { file: 'import.ts', gc: true, keys: ['import_100k_ms', 'papaparse_raw_100k_ms'] },
  // Issue 13: a workbook through the same import.
  'import-xlsx': { file: 'import-xlsx.ts', gc: true, keys: ['import_xlsx_100k_ms', 'xlsx_raw_read_100k_ms'] },
  store: { file: 'store.ts', gc: true, keys: ['store_100k_ms', 'sqlite_raw_100k_ms'] },
  rss: { file: 'rss.ts', gc: true, keys: ['engine_rss_mb_100k'] },
  poll: { file: 'poll.ts', gc: false, keys: ['poll_requests_per_round', 'poll_requests_naive', 'poll_wave_requests', 'poll_wave_requests_one_by_one', 'poll_wave_max_block_ms'] },
  send: { file: 'send.ts', gc: false, keys: ['send_rate_ratio', 'send_cpu_ms_per_order'] },
  ui: { file: 'ui.ts', gc: false, keys: ['ui_table_10k_ms', 'ui_long_tasks_during_scroll'] },
  // The app's own path (issue 10): through the contract's handlers, as the desktop and the browser shell call them.
  'app-send': {
    file: 'app-send.ts',
    gc: true,
    timeoutMs: 600_000,
    keys: ['app_send_cpu_ms_per_order_1k', 'app_send_cpu_ms_per_order_10k', 'app_send_orders_per_s_10k', 'send_rss_growth_mb_10k', 'edit_row_ms_10k'],
  },
  'app-import': { file: 'app-import.ts', gc: true, timeoutMs: 600_000, keys: ['main_thread_max_block_ms_import_100k'] },
  // The campaign screen in Chromium while 10,000 rows send at 200/s.
  'ui-send': { file: 'ui-send.ts', gc: false, timeoutMs: 600_000, keys: ['ui_long_tasks_during_send', 'ui_long_tasks_cpu_during_send'] },
} as const;
type ScenarioName = keyof typeof SCENARIOS;

/** The figures, their baselines and targets (issue 5, "Benchmarks"). */
const FIGURES: readonly {
  key: string;
  /** The name of its entry in `targets` when a key has two targets (default: the key). */
  label?: string;
  baseline: string | null;
  target: Target | ((r: Record<string, unknown>) => Target);
}[] = [
  { key: 'import_100k_ms', baseline: 'papaparse_raw_100k_ms', target: { kind: 'ratio-max', factor: 2.5 } },
  { key: 'import_xlsx_100k_ms', baseline: 'xlsx_raw_read_100k_ms', target: { kind: 'ratio-max', factor: 1.5 } },
  { key: 'store_100k_ms', baseline: 'sqlite_raw_100k_ms', target: { kind: 'ratio-max', factor: 1.5 } },
  { key: 'send_rate_ratio', baseline: null, target: { kind: 'min', limit: 0.95 } },
  { key: 'send_cpu_ms_per_order', baseline: null, target: { kind: 'below', limit: 1 } },
  // ceil(10,000 / 500) + 100, as the scenario reports it.
  { key: 'poll_requests_per_round', baseline: 'poll_requests_naive', target: (r) => ({ kind: 'max', limit: num(r.poll_requests_target) ?? 120 }) },
  // A wave of 5,000 deliveries read from the COMPLETED list: its pages, not one GET per order.
  { key: 'poll_wave_requests', baseline: 'poll_wave_requests_one_by_one', target: (r) => ({ kind: 'max', limit: num(r.poll_wave_requests_target) ?? 22 }) },
  // ... and recorded without holding the engine's thread longer than an import may.
  { key: 'poll_wave_max_block_ms', baseline: null, target: { kind: 'max', limit: 50 } },
  { key: 'ui_table_10k_ms', baseline: null, target: { kind: 'max', limit: 1000 } },
  { key: 'ui_long_tasks_during_scroll', baseline: null, target: { kind: 'max', limit: 0 } },
  { key: 'engine_rss_mb_100k', baseline: null, target: { kind: 'max', limit: 300 } },
  // Issue 10: the app's path grows linearly, edits touch one row, the engine's thread never waits long.
  { key: 'app_send_cpu_ms_per_order_10k', label: 'app_send_cpu_ms_per_order_10k_vs_1k', baseline: 'app_send_cpu_ms_per_order_1k', target: { kind: 'ratio-max', factor: 1.3 } },
  { key: 'app_send_cpu_ms_per_order_10k', baseline: null, target: { kind: 'max', limit: 2 } },
  { key: 'app_send_orders_per_s_10k', baseline: null, target: { kind: 'min', limit: 180 } },
  { key: 'edit_row_ms_10k', baseline: null, target: { kind: 'max', limit: 20 } },
  { key: 'send_rss_growth_mb_10k', baseline: null, target: { kind: 'max', limit: 50 } },
  { key: 'main_thread_max_block_ms_import_100k', baseline: null, target: { kind: 'max', limit: 50 } },
  { key: 'ui_long_tasks_during_send', baseline: null, target: { kind: 'max', limit: 0 } },
];

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function parseArgs(argv: readonly string[]): { json: boolean; only: ScenarioName[] } {
  let json = false;
  let only: ScenarioName[] = Object.keys(SCENARIOS) as ScenarioName[];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--json') json = true;
    else if (arg === '--only' || arg?.startsWith('--only=')) {
      const list = arg === '--only' ? argv[++i] : arg.slice('--only='.length);
      const names = (list ?? '').split(',').filter((n) => n !== '');
      const unknown = names.filter((n) => !(n in SCENARIOS));
      if (names.length === 0 || unknown.length > 0) throw new Error(`--only takes some of: ${Object.keys(SCENARIOS).join(', ')}`);
      only = names as ScenarioName[];
    } else if (arg === '--help' || arg === '-h') {
      process.stderr.write(`Usage: npm run bench [-- --json] [--only ${Object.keys(SCENARIOS).join(',')}]\n`);
      process.exit(0);
    } else throw new Error(`unknown option ${arg ?? ''}; try --help`);
  }
  return { json, only };
}

async function main(): Promise<number> {
  const { json, only } = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const results: Record<string, unknown> = {};
  const failures: Record<string, string> = {};
  for (const name of only) {
    const s = SCENARIOS[name];
    log(`— ${name} —`);
    try {
      const run = await runScenario(join(ROOT, 'test', 'bench', 'scenarios', s.file), {
        nodeArgs: s.gc ? ['--expose-gc'] : [],
        ...('timeoutMs' in s ? { timeoutMs: s.timeoutMs } : {}),
      });
      Object.assign(results, run.result);
      log(`${name} took ${(run.ms / 1000).toFixed(1)} s`);
    } catch (error) {
      failures[name] = error instanceof Error ? error.message : String(error);
      log(`${name} failed: ${failures[name]}`);
      for (const key of s.keys) results[key] = null;
    }
  }

  const rows: TableRow[] = [];
  const targets: Record<string, { target: string; compared: number | null; pass: boolean | null }> = {};
  for (const figure of FIGURES) {
    if (!(figure.key in results)) continue;
    const value = num(results[figure.key]);
    const baseline = figure.baseline === null ? null : num(results[figure.baseline]);
    const target = typeof figure.target === 'function' ? figure.target(results) : figure.target;
    const result = evaluateTarget(target, value, baseline);
    rows.push({ key: figure.label ?? figure.key, value, baselineKey: figure.baseline, baseline, result });
    targets[figure.label ?? figure.key] = { target: result.target, compared: round(result.compared, 3), pass: result.pass };
  }
  const allPass = rows.length > 0 && rows.every((r) => r.result.pass === true) && Object.keys(failures).length === 0;

  const document = {
    ...Object.fromEntries(Object.entries(results).map(([k, v]) => [k, typeof v === 'number' ? round(v, 3) : v])),
    targets,
    all_targets_met: allPass,
    ...(Object.keys(failures).length > 0 ? { failures } : {}),
    baselines: {
      papaparse_raw_100k_ms: 'new TextDecoder().decode(bytes) + Papa.parse(text) with papaparse default options (no header, auto delimiter), same bytes',
      xlsx_raw_read_100k_ms: "the workbook's shared strings and sheet parts inflated by fflate's stream and parsed by saxes with empty handlers, same bytes",
      sqlite_raw_100k_ms: 'one prepared better-sqlite3 INSERT of the same 14 recipient columns, values precomputed, one transaction, same schema and pragmas, fresh file',
      poll_requests_naive: 'one GET /v1/orders/{id} per tracked order',
      poll_wave_requests_one_by_one: 'the PENDING list pages plus one GET /v1/orders/{id} per delivered order (the round before it read the COMPLETED list)',
    },
    machine: {
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      cpus: availableParallelism(),
      cpu_model: cpus()[0]?.model ?? 'unknown',
      memory_gb: round(totalmem() / 1024 ** 3, 1),
      load_average_1m: round(loadavg()[0] ?? 0, 2),
    },
    bench_seconds: round((Date.now() - started) / 1000, 1),
  };

  if (json) process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  else {
    process.stdout.write(`${formatTable(rows)}\n\n`);
    process.stdout.write(`${allPass ? 'Every target met.' : 'Some targets are not met (see FAIL / n/a above).'} ${document.bench_seconds} s on ${document.machine.cpus} CPUs (${document.machine.cpu_model}), load ${document.machine.load_average_1m}.\n`);
    for (const [name, why] of Object.entries(failures)) process.stdout.write(`${name}: ${why}\n`);
  }
  return allPass ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(error instanceof Error ? error.message : String(error));
    process.exit(2);
  },
);
