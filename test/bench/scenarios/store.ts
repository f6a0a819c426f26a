// store_100k_ms vs sqlite_raw_100k_ms. Both write the same 100,000 validated rows into a fresh
// database file (openDatabase: same schema, indexes, triggers and pragmas: WAL, synchronous=FULL)
// in a temp folder. Store = createCampaign (campaign row, a key minted per row, JSON of issues and
// source cells, the 'imported' event, then the campaign and its counts read back). Raw = one
// prepared INSERT of the same 14 columns in one transaction, with every value computed beforehand
// (keys of the same shape, JSON already serialised): what SQLite alone costs for these rows.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase, type Db } from '../../../electron/core/db/open.ts';
import { createCampaign } from '../../../electron/core/db/repos/campaigns.ts';
import type { NewRecipient } from '../../../electron/core/db/repos/recipients.ts';
import { recipientsOf } from '../../../electron/core/campaigns/importer.ts';
import { importCsv } from '../../../shared/domain/csv/index.ts';
import { recipientsCsv } from '../csv-data.ts';
import { emit, gc, log, scenario } from '../harness.ts';
import { BENCH_PRODUCT_ID, benchSnapshot, benchValidationProduct, DEFAULT_AMOUNT } from '../product.ts';
import { median } from '../stats.ts';

const ROWS = 100_000;
const RUNS = 3;
const NOW = Date.UTC(2026, 0, 15, 9, 0, 0);

/** The rows as importCampaign hands them to createCampaign. */
function validatedRows(): NewRecipient[] {
  return recipientsOf(importCsv(recipientsCsv(ROWS), benchValidationProduct, { defaultAmount: DEFAULT_AMOUNT }), benchValidationProduct.id);
}

const CAMPAIGN = {
  name: 'Bench campaign',
  environment: 'simulator' as const,
  baseUrl: 'http://127.0.0.1:9',
  productId: BENCH_PRODUCT_ID,
  product: benchSnapshot,
  senderName: 'Bench team',
  message: 'Thank you',
  defaultAmountMinor: DEFAULT_AMOUNT.minor,
  currency: 'USD',
};

scenario(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'giftbatch-bench-store-'));
  try {
    const rows = validatedRows();
    // The raw loop's values, computed before its clock starts.
    const rawValues = rows.map((row, i) => {
      const bad = row.errors !== undefined && row.errors.length > 0;
      return [
        'c_benchraw00',
        row.line,
        row.name,
        row.email,
        row.amountMinor,
        row.currency,
        row.message ?? null,
        bad ? 'invalid' : 'ready',
        `gb-01JBENCH${String(i).padStart(18, '0')}`,
        bad ? JSON.stringify(row.errors) : null,
        row.warnings !== undefined && row.warnings.length > 0 ? JSON.stringify(row.warnings) : null,
        row.source ? JSON.stringify(row.source) : null,
        NOW,
        NOW,
      ] as const;
    });
    let run = 0;
    const fresh = (): Db => openDatabase(join(dir, `run-${run++}.sqlite`));

    const store = (): number => {
      const db = fresh();
      gc();
      const t0 = performance.now();
      const created = createCampaign(db, CAMPAIGN, rows, NOW);
      const ms = performance.now() - t0;
      if (created.counts.ready + created.counts.invalid !== ROWS) throw new Error('createCampaign stored the wrong number of rows');
      db.close();
      return ms;
    };
    const raw = (): number => {
      const db = fresh();
      db.prepare(
        `INSERT INTO campaigns (id, name, environment, base_url, product_id, product_snapshot, sender_name, currency, send_state, created_at, updated_at)
         VALUES ('c_benchraw00', 'raw', 'simulator', 'http://127.0.0.1:9', 1, '{}', 'x', 'USD', 'draft', ?, ?)`,
      ).run(NOW, NOW);
      const insert = db.prepare(`INSERT INTO recipients
        (campaign_id, line, name, email, amount_minor, currency, message, state, external_reference_id,
         errors, warnings, source, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
      gc();
      const t0 = performance.now();
      db.transaction(() => {
        for (const values of rawValues) insert.run(...values);
      })();
      const ms = performance.now() - t0;
      db.close();
      return ms;
    };

    // Warm-up: one of each (page cache, JIT).
    store();
    raw();
    const stores: number[] = [];
    const raws: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      if (i % 2 === 0) {
        stores.push(store());
        raws.push(raw());
      } else {
        raws.push(raw());
        stores.push(store());
      }
    }
    log(`store runs ${stores.map((m) => m.toFixed(0)).join(' ')} ms; raw ${raws.map((m) => m.toFixed(0)).join(' ')} ms`);
    emit({ store_100k_ms: median(stores), sqlite_raw_100k_ms: median(raws), store_runs_ms: stores, sqlite_raw_runs_ms: raws });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
