// import_100k_ms vs papaparse_raw_100k_ms, on the same bytes, interleaved, median after warm-up.
// Import = importCsv: decode (fatal UTF-8 with legacy fallback) + parse + line numbers + header
// mapping + validation of every row. Raw = new TextDecoder().decode(bytes) + Papa.parse(text) with
// papaparse's default options (no header, auto-detected delimiter): the least a CSV read can cost.
import { performance } from 'node:perf_hooks';
import Papa from 'papaparse';
import { importCsv } from '../../../shared/domain/csv/index.ts';
import { recipientsCsv } from '../csv-data.ts';
import { emit, gc, interleaved, log, scenario } from '../harness.ts';
import { median } from '../stats.ts';
import { benchValidationProduct, DEFAULT_AMOUNT } from '../product.ts';

const ROWS = 100_000;
const WARMUP = 2;
const RUNS = 7;

scenario(async () => {
  const bytes = recipientsCsv(ROWS);
  log(`import: ${ROWS} rows, ${(bytes.length / 1e6).toFixed(1)} MB`);
  let check = { records: 0, valid: 0, invalid: 0, rawRows: 0 };
  const runImport = (): number => {
    gc();
    const t0 = performance.now();
    const result = importCsv(bytes, benchValidationProduct, { defaultAmount: DEFAULT_AMOUNT });
    const ms = performance.now() - t0;
    check = { ...check, records: result.validation.totals.rows, valid: result.validation.totals.valid, invalid: result.validation.totals.invalid };
    return ms;
  };
  const runRaw = (): number => {
    gc();
    const t0 = performance.now();
    const text = new TextDecoder().decode(bytes);
    const parsed = Papa.parse<string[]>(text);
    const ms = performance.now() - t0;
    check.rawRows = parsed.data.length;
    return ms;
  };
  const { measured: imports, baseline: raws } = interleaved(runImport, runRaw, { warmup: WARMUP, runs: RUNS });
  if (check.records !== ROWS) throw new Error(`import read ${check.records} records, expected ${ROWS}`);
  log(`import runs ${imports.map((m) => m.toFixed(0)).join(' ')} ms; raw ${raws.map((m) => m.toFixed(0)).join(' ')} ms`);
  emit({
    import_100k_ms: median(imports),
    papaparse_raw_100k_ms: median(raws),
    import_runs_ms: imports,
    papaparse_raw_runs_ms: raws,
    import_rows_valid: check.valid,
    import_rows_invalid: check.invalid,
    csv_bytes: bytes.length,
  });
});
