// import_xlsx_100k_ms vs xlsx_raw_read_100k_ms, on the same workbook, interleaved, median after
// warm-up. The workbook holds the import bench's 100,000 rows (csv-data.ts) as Excel writes them:
// texts in the shared strings, numeric amounts as numbers in a currency format. Import = importFile,
// the engine's import the app's preview and the CLI run: sniff, unzip, read the sheet's cells,
// header search and mapping, validation of every row. Raw = the same two parts (shared strings and
// sheet) inflated by fflate's stream and parsed by saxes with empty handlers: the least a streaming
// read of the workbook can cost. Beside them, xlsx_rows_of_strings_100k_ms: the least a reader of
// this workbook does with the same two libraries (every row's cells as strings, shared strings
// resolved; no limits, no cell types, dates or column positions), interleaved with the raw read
// again: how much of the import's distance from the raw read any reader would have.
import { performance } from 'node:perf_hooks';
import { SaxesParser } from 'saxes';
import { importFile } from '../../../electron/core/workbook/import.ts';
import { openZip, readPart } from '../../../electron/core/workbook/zip.ts';
import { recipientsXlsx } from '../workbook-data.ts';
import { emit, gc, interleaved, log, scenario } from '../harness.ts';
import { median } from '../stats.ts';
import { benchValidationProduct, DEFAULT_AMOUNT } from '../product.ts';

const ROWS = 100_000;
const WARMUP = 2;
const RUNS = 7;

function rawRead(bytes: Uint8Array): number {
  const zip = openZip(bytes);
  let tags = 0;
  for (const part of ['xl/sharedStrings.xml', 'xl/worksheets/sheet1.xml']) {
    const parser = new SaxesParser({ position: false });
    parser.on('opentag', () => {
      tags++;
    });
    parser.on('text', () => {});
    readPart(zip, part, (text) => parser.write(text));
    parser.close();
  }
  return tags;
}

function rowsOfStrings(bytes: Uint8Array): number {
  const zip = openZip(bytes);
  const strings: string[] = [];
  const shared = new SaxesParser({ position: false });
  let text = '';
  shared.on('opentag', (tag) => {
    if (tag.name === 'si') text = '';
  });
  shared.on('text', (t) => {
    text += t;
  });
  shared.on('closetag', (tag) => {
    if (tag.name === 'si') strings.push(text);
  });
  readPart(zip, 'xl/sharedStrings.xml', (chunk) => shared.write(chunk));
  shared.close();
  let rows = 0;
  let cells: string[] = [];
  let value = '';
  let isShared = false;
  const sheet = new SaxesParser({ position: false });
  sheet.on('opentag', (tag) => {
    if (tag.name === 'c') {
      isShared = tag.attributes.t === 's';
      value = '';
    } else if (tag.name === 'row') cells = [];
  });
  sheet.on('text', (t) => {
    value += t;
  });
  sheet.on('closetag', (tag) => {
    if (tag.name === 'c') cells.push(isShared ? (strings[Number(value)] ?? '') : value);
    else if (tag.name === 'row' && cells.length > 0) rows++;
  });
  readPart(zip, 'xl/worksheets/sheet1.xml', (chunk) => sheet.write(chunk));
  sheet.close();
  return rows;
}

scenario(async () => {
  const bytes = recipientsXlsx(ROWS);
  log(`import-xlsx: ${ROWS} rows, ${(bytes.length / 1e6).toFixed(1)} MB`);
  let check = { records: 0, valid: 0, invalid: 0, tags: 0 };
  const runImport = (): number => {
    gc();
    const t0 = performance.now();
    const result = importFile(bytes, benchValidationProduct, { defaultAmount: DEFAULT_AMOUNT });
    const ms = performance.now() - t0;
    check = { ...check, records: result.validation.totals.rows, valid: result.validation.totals.valid, invalid: result.validation.totals.invalid };
    return ms;
  };
  const runRaw = (): number => {
    gc();
    const t0 = performance.now();
    check.tags = rawRead(bytes);
    return performance.now() - t0;
  };
  const { measured: imports, baseline: raws } = interleaved(runImport, runRaw, { warmup: WARMUP, runs: RUNS });
  if (check.records !== ROWS) throw new Error(`import read ${check.records} records, expected ${ROWS}`);
  let stringRows = 0;
  const runStrings = (): number => {
    gc();
    const t0 = performance.now();
    stringRows = rowsOfStrings(bytes);
    return performance.now() - t0;
  };
  const { measured: strings, baseline: stringRaws } = interleaved(runStrings, runRaw, { warmup: 1, runs: 5 });
  if (stringRows !== ROWS + 1) throw new Error(`the rows-of-strings read found ${stringRows} rows, expected ${ROWS + 1}`);
  // The reader alone, at three sizes (no mapping or validation): how it grows.
  const readerMs: Record<string, number> = {};
  for (const n of [1_000, 10_000, 100_000]) {
    const book = n === ROWS ? bytes : recipientsXlsx(n);
    const { openWorkbook } = await import('../../../electron/core/workbook/index.ts');
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      gc();
      const t0 = performance.now();
      const wb = openWorkbook(book);
      wb.read('Recipients', () => {});
      times.push(performance.now() - t0);
    }
    readerMs[`xlsx_reader_${n / 1000}k_ms`] = median(times);
  }
  log(`import runs ${imports.map((m) => m.toFixed(0)).join(' ')} ms; raw ${raws.map((m) => m.toFixed(0)).join(' ')} ms`);
  log(`rows of strings ${strings.map((m) => m.toFixed(0)).join(' ')} ms; raw beside it ${stringRaws.map((m) => m.toFixed(0)).join(' ')} ms`);
  emit({
    import_xlsx_100k_ms: median(imports),
    xlsx_raw_read_100k_ms: median(raws),
    import_xlsx_runs_ms: imports,
    xlsx_raw_read_runs_ms: raws,
    import_xlsx_rows_valid: check.valid,
    import_xlsx_rows_invalid: check.invalid,
    xlsx_bytes: bytes.length,
    ...readerMs,
    xlsx_rows_of_strings_100k_ms: median(strings),
    xlsx_rows_of_strings_vs_raw: median(strings) / median(stringRaws),
  });
});
