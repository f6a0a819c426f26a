import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { json, runCli, startSimulatorProcess, tempDir, writeRecipients, type SimulatorProcess } from '../../support/cli.ts';

// Issue 3, done-when 1: a 500-row campaign against the simulator with faults on ends with exactly
// one order per valid row at the simulator, and the local records, the report and the simulator's
// audit agree row by row and in charged totals.
const KEY = 'cli-faults-test-key';
const ROWS = 500;

let sim: SimulatorProcess;
beforeAll(async () => {
  sim = await startSimulatorProcess([
    '--seed', '20261122',
    '--fault-reset', '0.04',
    '--fault-500', '0.04',
    '--fault-503', '0.01',
    '--fault-slow', '0.03',
    '--slow-ms', '1500',
    '--fault-truncate', '0.04',
    '--rate', '60',
    '--burst', '5',
    '--item-delay', '500',
  ]);
});
afterAll(async () => {
  await sim?.stop();
});

interface StatusJson {
  counts: Record<string, number>;
  charged: { currency: string; amount: string }[];
}

describe('a 500-row campaign through every fault', () => {
  it('ends with exactly one order per row, and records, report and audit agree row by row and in totals', async () => {
    const dir = tempDir();
    const csv = writeRecipients(dir, ROWS);
    const env = { GIFTBATCH_API_KEY: KEY, GIFTBATCH_REQUEST_TIMEOUT_MS: '800' };
    const common = ['--base-url', sim.url, '--data-dir', join(dir, 'data')];
    // KRW product on a USD account: every charge goes through an exchange rate and a fee.
    const product = String(productIdFor(KEY, 'kr-fixed-krw'));

    const send = await runCli(['send', csv, '--product', product, '--rate', '70', '--yes', '--json', ...common], env);
    expect(send.stderr).not.toContain(KEY);
    expect(send.code, send.stderr).toBe(0);
    const sent = json<{ campaign_id: string; counts: Record<string, number> }>(send.stdout);
    expect(sent.counts).toMatchObject({ ordered: ROWS, failed: 0, sending: 0, ready: 0 });

    const audit = (await sim.audit()).accounts[KEY];
    expect(audit).toBeDefined();
    if (!audit) return;
    // The faults really happened: resets after commit, 500s, 503s, slow answers, truncated bodies, 429s.
    expect(audit.faults.resetAfterCommit).toBeGreaterThan(0);
    expect(audit.faults.error500BeforeCommit).toBeGreaterThan(0);
    expect(audit.faults.truncate).toBeGreaterThan(0);
    expect(audit.faults.slow).toBeGreaterThan(0);
    expect(audit.requests['POST /v1/orders']?.['429'] ?? 0).toBeGreaterThan(0);
    // Exactly one order per row, none without a key, none twice.
    expect(audit.duplicates).toEqual([]);
    expect(audit.conflictingRetries).toEqual([]);
    expect(audit.withoutExternalReferenceId).toEqual([]);
    expect(audit.orders).toHaveLength(ROWS);

    const reportFile = join(dir, 'report.csv');
    const report = await runCli(['report', sent.campaign_id, '--out', reportFile, ...common], env);
    expect(report.code, report.stderr).toBe(0);
    const records = Papa.parse<Record<string, string>>(readFileSync(reportFile, 'utf8').replace(/^\uFEFF/, ''), {
      header: true,
      skipEmptyLines: true,
    }).data.filter((r) => !r.name?.startsWith('TOTAL'));
    expect(records).toHaveLength(ROWS);

    const byRef = new Map(audit.orders.map((o) => [o.externalReferenceId, o]));
    for (const row of records) {
      const order = byRef.get(row.external_reference_id ?? '');
      expect(order, `no order at the simulator for line ${row.source_line}`).toBeDefined();
      expect(row.order_id).toBe(String(order?.id));
      expect(row.item_id).toBe(String(order?.itemId));
      expect(row.charged_amount).toBe(order?.charged.amount);
      expect(row.charged_currency).toBe(order?.charged.currency);
      expect(row.exchange_rate).toBe(order?.charged.rate);
    }
    expect(new Set(records.map((r) => r.external_reference_id)).size).toBe(ROWS);

    const status = json<StatusJson>((await runCli(['status', sent.campaign_id, '--json', ...common], env)).stdout);
    expect(status.charged).toEqual(audit.chargedTotals.map((t) => ({ currency: t.currency, amount: t.amount })));
    const totalLine = readFileSync(reportFile, 'utf8').split('\r\n').find((l) => l.startsWith('TOTAL charged'));
    expect(totalLine).toContain(audit.chargedTotals[0]?.amount);
  }, 180_000);
});
