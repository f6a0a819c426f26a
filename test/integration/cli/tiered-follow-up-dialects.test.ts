import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIALECT_NAMES, productIdFor, type DialectName } from '../../../electron/simulator/index.ts';
import { json, runCli, setSimulatorBalance, startSimulatorProcess, tempDir, type CliResult, type SimulatorProcess } from '../../support/cli.ts';
import { auditOf, FIXED_NAME, RANGE_NAME, readReport, tierLines, tiersCsv, withDataFolder, type DataFolder, type ReportRow, type TierLine } from '../../support/tiers.ts';

// Issue 13's tiered and follow-up campaigns through every dialect the simulator speaks (issue 9's
// campaign-dialects does the single-product fault campaign). Real parts: the CLI (`send`, `resume`),
// a real SQLite data folder (read between the commands through the app's own calls, which is also
// how the follow-up is made: the call `giftbatch follow-up --failed` makes), and the simulator in
// its own process, with faults. A file whose Product column names two KR products (a fixed-price
// voucher by exact name or id, a range product by id or name, each row its own amount) is sent on
// a KRW account whose balance pays every row but two: those two are refused (402) and fail. Each
// row's order is then for its own product and amount, exactly once; the per-product totals the CLI
// prints are the file's; a follow-up campaign of the two failed rows orders each once, nothing is
// ordered twice across the two campaigns, and the source has no row left to follow up.
// A dialect in which the service issues something else than asked stops the run at the first
// order of the product it misreads, naming the difference: one wrong gift, and nothing to follow up
// (that gift was ordered and charged: it is not a failed row to send again).
// Cost: about 100 s of CPU for the 14 dialects (a simulator, `send` and `resume` processes, two
// openings of the data folder each); 71 s wall here on 2 cores under a load of 9.
const KEY = 'cli-tiers-dialects-key';
const FIXED = productIdFor(KEY, 'kr-fixed-krw');
const RANGE = productIdFor(KEY, 'kr-range-krw');
const LINES = tierLines({ fixed: FIXED, range: RANGE });
const SENT = LINES.filter((l) => !l.fails);
const FAILS = LINES.filter((l) => l.fails);
// Pays every row that should be ordered, and leaves less than any failing row costs (each costs more
// than the whole balance), whatever order the rows are charged in.
const BALANCE = SENT.reduce((sum, l) => sum + l.amount, 0) + 20_000;

// Dialects in which the service issues something else than asked: the run stops at the first order
// of the product it misreads (the range product's first row, line 3).
const SURPRISES: Partial<Record<DialectName, string>> = {
  'item-custom-amount': 'the service issued KRW 5000 for a KRW 5100 gift',
};

interface StatusJson {
  campaign_id: string;
  counts: Record<string, number>;
  send_state: string;
  paused_reason: string | null;
  flagged: number;
  charged: { currency: string; amount: string }[];
}

const krw = (n: number) => `KRW ${n}`;
const total = (lines: readonly TierLine[]) => lines.reduce((sum, l) => sum + l.amount, 0);

async function tiersThrough(dialect: DialectName): Promise<void> {
  const sim = await startSimulatorProcess([
    '--dialect', dialect,
    // This seed's first two POSTs get no fault (so the fixed voucher's first order is answered and
    // checked before the range product's rows go), and faults follow from the third.
    '--seed', '20261126',
    '--fault-reset', '0.1',
    '--fault-500', '0.1',
    '--fault-truncate', '0.1',
    '--fault-503-after-commit', '0.05',
    '--rate', '200',
    '--burst', '40',
    '--item-delay', '500',
    '--log', 'problems',
  ]);
  try {
    await runTiers(dialect, sim);
  } finally {
    await sim.stop();
  }
}

async function runTiers(dialect: DialectName, sim: SimulatorProcess): Promise<void> {
  const dir = tempDir('giftbatch-tiers-');
  const dataDir = join(dir, 'data');
  // The client's own request timeout: no fault here is a slow answer, and a loaded machine's slow one
  // must not add up to the eight unclear answers in a row that pause a campaign.
  const env = { GIFTBATCH_API_KEY: KEY };
  const common = ['--base-url', sim.url, '--data-dir', dataDir];
  // A KRW account: each charge is the face value, so "charged what was asked" is exact.
  await setSimulatorBalance(sim.url, KEY, String(BALANCE), 'KRW');

  // Sent as an organiser would, who knows the list is in KRW (a dialect's products may not state a
  // currency; campaign-dialects checks how the catalog lists them).
  const csv = tiersCsv(dir, LINES);
  const send = await runCli(['send', csv, '--product', String(RANGE), '--country', 'KR', '--currency', 'KRW', '--name', 'Tiers', '--rate', '120', '--yes', '--json', ...common], env);
  expect(send.stderr).not.toContain(KEY);
  const sent = json<StatusJson>(send.stdout);

  // The confirmation's totals: every row (the failing ones too: the balance is not known before),
  // and each tier's orders and face value.
  expect(send.stderr).toContain(`To send: ${LINES.length} orders, ${krw(total(LINES))} (face value, product currency).`);
  const fixedLines = LINES.filter((l) => l.product === 'fixed');
  const rangeLines = LINES.filter((l) => l.product === 'range');
  expect(send.stderr).toContain(`  product ${RANGE} (${RANGE_NAME}): ${rangeLines.length} orders, ${krw(total(rangeLines))}`);
  expect(send.stderr).toContain(`  product ${FIXED} (${FIXED_NAME}): ${fixedLines.length} orders, ${krw(total(fixedLines))}`);

  // The data folder read in place (real SQLite), between the commands, by the app's own calls.
  const stepOne = await withDataFolder(dataDir, (data) => checkSent(dialect, data, sim, send, sent));
  if (!stepOne) return;
  const { report, draft } = stepOne;

  // Step 2: the follow-up of the failed rows, sent with `giftbatch resume` once the account is topped up.
  await setSimulatorBalance(sim.url, KEY, '100000000', 'KRW');
  const resumed = await runCli(['resume', draft.id, '--yes', '--json', ...common], env);
  expect(resumed.code, resumed.stderr).toBe(0);
  expect(resumed.stderr).toContain(`To send: ${FAILS.length} orders, ${krw(total(FAILS))} (face value, product currency).`);
  expect(json<StatusJson>(resumed.stdout)).toMatchObject({ send_state: 'done', flagged: 0, counts: { ordered: FAILS.length, failed: 0, sending: 0, ready: 0 } });

  const after = await auditOf(sim, KEY);
  expect(after.duplicates).toEqual([]);
  expect(after.conflictingRetries).toEqual([]);
  expect(after.orders).toHaveLength(LINES.length);
  await withDataFolder(dataDir, async (data) => {
    const followed = await readReport(data, draft.id);
    // The failed rows, each ordered once in the follow-up under a new key, as its own product and amount.
    expect(followed.map((r) => [r.email, r.product_id, r.amount])).toEqual(FAILS.map((l) => [l.email, String(RANGE), String(l.amount)]));
    expectOrdersAreTheRows(followed, after.orders);
    // Nobody has two gifts across the two campaigns: one order per e-mail of the file, each under its own key.
    const ordered = [...report, ...followed].filter((r) => r.state === 'ordered' || r.state === 'delivered');
    expect(ordered.map((r) => r.email).sort()).toEqual(LINES.map((l) => l.email).sort());
    expect(new Set(ordered.map((r) => r.external_reference_id)).size).toBe(LINES.length);

    // The source: its failed rows are the follow-up's now, none left to follow up or retry.
    const source = await data.ok('campaigns:get', { campaignId: sent.campaign_id });
    expect(source).toMatchObject({ counts: { ordered: SENT.length, failed: FAILS.length }, followUpRows: { failed: 0, cancelled: 0, expired: 0 }, retryable: 0 });
    await expectNothingToFollowUp(data, sent.campaign_id, 'Tiers (follow-up)');
  });
  expect((await auditOf(sim, KEY)).orders).toHaveLength(LINES.length);
}

/**
 * Step 1 on the data folder after `send`: each row's order, or the surprise that stopped the run
 * (then null: nothing to follow up); else the follow-up campaign of the failed rows, made by the
 * call `giftbatch follow-up --failed` makes.
 */
async function checkSent(dialect: DialectName, data: DataFolder, sim: SimulatorProcess, send: CliResult, sent: StatusJson) {
  const audit = await auditOf(sim, KEY);
  expect(audit.duplicates).toEqual([]);
  expect(audit.conflictingRetries).toEqual([]);
  expect(audit.withoutExternalReferenceId).toEqual([]);
  const report = await readReport(data, sent.campaign_id);
  expect(report.map((r) => r.source_line)).toEqual(LINES.map((l) => String(l.line)));
  // Each row as its own gift: the product its cell names (by id or name), the amount it asks (a
  // fixed-price row without one, its product's price).
  expect(report.map((r) => [r.product_id, r.amount])).toEqual(LINES.map((l) => [String(l.product === 'fixed' ? FIXED : RANGE), String(l.amount)]));

  const surprise = SURPRISES[dialect];
  if (surprise) {
    expect(send.code).toBe(1);
    expect(sent).toMatchObject({ send_state: 'paused', paused_reason: 'mismatch', flagged: 1 });
    expect(send.stderr).toContain(surprise);
    // The fixed voucher's first order went alone and was right; the range product's first order
    // went alone too, was misread, and stopped the run: one wrong gift, not one per row in flight.
    const wrong = audit.orders.filter((o) => o.requestedAmount !== null && o.price.amount !== o.requestedAmount);
    expect(wrong, 'gifts issued otherwise than asked').toHaveLength(1);
    expect(audit.orders).toHaveLength(2);
    expectOrdersAreTheRows(report, audit.orders, { flagged: 1 });
    // The wrong gift was ordered and charged: it is not a failed row a follow-up would send again.
    await expectNothingToFollowUp(data, sent.campaign_id);
    expect((await auditOf(sim, KEY)).orders).toHaveLength(2);
    return null;
  }

  // Every row but the two refused ordered once, as its own product and amount.
  expect(send.code, send.stderr).toBe(1); // rows failed: exit 1
  expect(sent).toMatchObject({ send_state: 'done', paused_reason: null, flagged: 0 });
  expect(sent.counts).toMatchObject({ ordered: SENT.length, failed: FAILS.length, sending: 0, ready: 0, invalid: 0 });
  // Faults really happened in the run: resets after commit, 5xx, truncated bodies.
  expect(audit.faults.resetAfterCommit + audit.faults.error500BeforeCommit + audit.faults.truncate + audit.faults.error503AfterCommit).toBeGreaterThan(0);
  expect(audit.orders).toHaveLength(SENT.length);
  expectOrdersAreTheRows(report, audit.orders);
  expect(report.filter((r) => r.state === 'failed').map((r) => Number(r.source_line))).toEqual(FAILS.map((l) => l.line));
  for (const row of report.filter((r) => r.state === 'failed')) expect(row.last_error, `line ${row.source_line}`).toContain('INSUFFICIENT_BALANCE');
  expect(sent.charged).toEqual([{ currency: 'KRW', amount: String(total(SENT)) }]);

  const draft = await data.ok('campaigns:followUp', { campaignId: sent.campaign_id, include: ['failed'] });
  expect(draft).toMatchObject({ sendState: 'draft', counts: { ready: FAILS.length, ordered: 0, invalid: 0 } });
  return { report, draft };
}

/** `takenBy`: the follow-up that took the failed rows, which the answer names; none when no row failed. */
async function expectNothingToFollowUp(h: DataFolder, campaignId: string, takenBy?: string): Promise<void> {
  const none = await h.service.invoke('campaigns:followUp', { campaignId, include: ['failed'] });
  const said = takenBy
    ? `"Tiers" has no rows that failed left to follow up: the ${FAILS.length} it had were followed up already, in "${takenBy}"`
    : '"Tiers" has no rows that failed, so there is nothing to follow up';
  expect(none).toMatchObject({ ok: false, error: { code: 'invalid-input', message: expect.stringContaining(said) } });
}

/** Each ordered row of the report has exactly one order under its key, for its own product, issued and charged what it asked. */
function expectOrdersAreTheRows(report: readonly ReportRow[], orders: Awaited<ReturnType<typeof auditOf>>['orders'], opts: { flagged?: number } = {}): void {
  const byKey = new Map<string, (typeof orders)[number][]>();
  for (const o of orders) byKey.set(o.externalReferenceId ?? '', [...(byKey.get(o.externalReferenceId ?? '') ?? []), o]);
  let flagged = 0;
  for (const row of report) {
    const found = byKey.get(row.external_reference_id) ?? [];
    if (row.state === 'failed' || row.state === 'ready') {
      expect(found, `line ${row.source_line} (${row.state}) has no order`).toHaveLength(0);
      continue;
    }
    if (row.state === 'sending') {
      // Left unresolved by a stopped run: at most one order under its key, which the next resume looks up.
      expect(found.length, `line ${row.source_line} (sending) has at most one order`).toBeLessThanOrEqual(1);
      continue;
    }
    expect(found, `line ${row.source_line} has one order`).toHaveLength(1);
    const order = found[0];
    expect(String(order?.productId), `line ${row.source_line}'s product`).toBe(row.product_id);
    expect(order?.charged.currency).toBe('KRW');
    if (row.discrepancy !== '') {
      flagged += 1;
      continue;
    }
    expect(order?.price.amount, `line ${row.source_line} issued`).toBe(row.amount);
    expect(order?.charged.amount, `line ${row.source_line} charged`).toBe(row.amount);
    expect(row.issued_amount).toBe(row.amount);
    expect(row.charged_amount).toBe(row.amount);
    if (row.product_id === String(RANGE)) expect(order?.requestedAmount).toBe(row.amount);
  }
  expect(flagged, 'rows issued otherwise than asked').toBe(opts.flagged ?? 0);
}

// Concurrent, as campaign-dialects: a run mostly waits (retries, timeouts), each on its own simulator.
describe.concurrent('a tiered campaign and its follow-up through every dialect of the spec', () => {
  it.each(DIALECT_NAMES)('%s', (dialect) => tiersThrough(dialect), 180_000);
});
