import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { settingKeys } from '../../../electron/core/app/environments.ts';
import { openDatabase } from '../../../electron/core/db/open.ts';
import { listByState } from '../../../electron/core/db/repos/recipients.ts';
import { setSetting } from '../../../electron/core/db/repos/settings.ts';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { ROW_STATES } from '../../../shared/domain/rows.ts';
import { json, runCli, startSimulatorProcess, tempDir, type SimulatorProcess } from '../../support/cli.ts';

// Event day against the poll round's list pass (53365c4, f7049ed): the real CLI and the real
// simulator as separate processes, a real data folder. An account with an older, settled campaign
// (history) sends a new one; at the service most items are delivered, some cancelled, some held
// PENDING; then `giftbatch poll` rounds. Every local row must say what the service's own record
// (GET /__audit) says of its order, no order twice, charged totals equal, and the requests by route
// show the COMPLETED list did the work. Under every list dialect, and under faults on every route.
const KEY = 'poll-event-day-key';
const HISTORY = 500; // exactly one full page of the COMPLETED list: the new orders start on page 1
const NEW = 400;
const CANCELLED = 20;
const HELD = 15;
const ITEM_DELAY_MS = 600;

const sims: SimulatorProcess[] = [];
afterEach(async () => {
  for (const sim of sims.splice(0)) await sim.stop();
});

interface Day {
  sim: SimulatorProcess;
  common: string[];
  env: NodeJS.ProcessEnv;
  dir: string;
  /** What send needs besides the file and product under this dialect (spec-minimal states no currency). */
  sendArgs: string[];
}

async function eventDay(dialect?: string, sendArgs: string[] = []): Promise<Day> {
  const sim = await startSimulatorProcess(['--log', 'problems', '--item-delay', String(ITEM_DELAY_MS), '--seed', '12', ...(dialect ? ['--dialect', dialect] : [])]);
  sims.push(sim);
  const dir = tempDir('giftbatch-event-day-');
  mkdirSync(join(dir, 'data'));
  // The organiser's rate setting for the environment (Environments in the app), so 1,100 orders go in seconds.
  const db = openDatabase(join(dir, 'data', 'giftbatch.sqlite'));
  setSetting(db, settingKeys.rate('simulator'), 300, Date.now());
  db.close();
  return { sim, dir, sendArgs, common: ['--base-url', sim.url, '--data-dir', join(dir, 'data')], env: { GIFTBATCH_API_KEY: KEY } };
}

async function send(day: Day, n: number, tag: string): Promise<string> {
  const lines = ['Name,Email,Amount'];
  for (let i = 1; i <= n; i += 1) lines.push(`${tag} ${i},${tag}-${i}@example.com,`);
  const file = join(day.dir, `${tag}.csv`);
  writeFileSync(file, `${lines.join('\r\n')}\r\n`);
  const sent = await runCli(['send', file, '--product', String(productIdFor(KEY, 'us-fixed-25')), '--yes', '--json', ...day.sendArgs, ...day.common], day.env);
  expect(sent.code, sent.stderr).toBe(0);
  return json<{ campaign_id: string }>(sent.stdout).campaign_id;
}

async function force(day: Day, orderId: number, change: Record<string, string>): Promise<void> {
  const res = await fetch(`${day.sim.url}/__control/force-status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key: KEY, orderId, ...change }) });
  expect(res.ok, await res.text()).toBe(true);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function account(day: Day) {
  const audit = (await day.sim.audit()).accounts[KEY];
  if (!audit) throw new Error('the simulator has no account for the key');
  return audit;
}

/** Requests the service answered on a route (any status, resets included). */
async function asked(day: Day, route: string): Promise<number> {
  return Object.values((await account(day)).requests[route] ?? {}).reduce((a, b) => a + b, 0);
}

interface Round {
  code: number | null;
  out: { tracked: number; settled: number; waiting: number; error?: string };
  lists: number;
  singles: number;
  ms: number;
}

async function pollRound(day: Day, id: string): Promise<Round> {
  const [lists0, singles0] = [await asked(day, 'GET /v1/orders'), await asked(day, 'GET /v1/orders/:id')];
  const started = Date.now();
  const polled = await runCli(['poll', id, '--json', '--timeout', '20', ...day.common], day.env);
  const ms = Date.now() - started;
  return {
    code: polled.code,
    out: json<Round['out']>(polled.stdout),
    lists: (await asked(day, 'GET /v1/orders')) - lists0,
    singles: (await asked(day, 'GET /v1/orders/:id')) - singles0,
    ms,
  };
}

/** The history (settled), then the new campaign: delivered at the service but CANCELLED and HELD forced. */
async function historyThenNew(day: Day, opts: { waitForDelivery?: boolean; history?: boolean } = {}): Promise<{ history?: string; id: string }> {
  let history: string | undefined;
  if (opts.history !== false) {
    history = await send(day, HISTORY, 'history');
    await sleep(ITEM_DELAY_MS + 100);
    const settled = await runCli(['poll', history, '--json', ...day.common], day.env);
    expect(settled.code, settled.stderr).toBe(0);
    expect(json<Round['out']>(settled.stdout)).toMatchObject({ tracked: HISTORY, waiting: 0 });
  }
  const id = await send(day, NEW, 'guest');
  const orders = (await account(day)).orders.slice(history ? HISTORY : 0).map((o) => o.id);
  expect(orders).toHaveLength(NEW);
  for (const orderId of orders.slice(100, 100 + CANCELLED)) await force(day, orderId, { orderStatus: 'CANCELLED' });
  for (const orderId of orders.slice(250, 250 + HELD)) await force(day, orderId, { itemStatus: 'PENDING' });
  if (opts.waitForDelivery !== false) await sleep(ITEM_DELAY_MS + 100);
  return { history, id };
}

/** Every local row against the service's record of its order, no order twice, charged totals equal. */
async function expectAgreement(day: Day, campaignIds: (string | undefined)[]): Promise<Record<string, number>> {
  const audit = await account(day);
  expect(audit.duplicates).toEqual([]);
  const service = new Map(audit.orders.map((o) => [o.id, o]));
  const db = openDatabase(join(day.dir, 'data', 'giftbatch.sqlite'));
  const states: Record<string, number> = {};
  const disagreements: string[] = [];
  const seen = new Set<number>();
  let chargedMinor = 0;
  try {
    for (const id of campaignIds.filter((c) => c !== undefined)) {
      for (const row of ROW_STATES.flatMap((state) => listByState(db, id, state))) {
        states[row.state] = (states[row.state] ?? 0) + 1;
        if (row.orderId === null) {
          disagreements.push(`line ${row.line} (${row.state}) has no order`);
          continue;
        }
        if (seen.has(row.orderId)) disagreements.push(`order ${row.orderId} on two rows`);
        seen.add(row.orderId);
        const order = service.get(row.orderId);
        if (!order) {
          disagreements.push(`order ${row.orderId} of line ${row.line} is unknown to the service`);
          continue;
        }
        const said = order.status === 'CANCELLED' || order.itemStatus === 'CANCELLED' ? 'cancelled' : order.itemStatus === 'COMPLETED' ? 'delivered' : 'ordered';
        if (row.state !== said) disagreements.push(`order ${row.orderId}: row ${row.state}, service ${order.status}/${order.itemStatus}`);
        if (row.charged?.minor !== order.charged.minor || row.charged?.currency !== order.charged.currency) {
          disagreements.push(`order ${row.orderId}: row charged ${JSON.stringify(row.charged)}, service ${order.charged.amount} ${order.charged.currency}`);
        }
        chargedMinor += row.charged?.minor ?? 0;
      }
    }
  } finally {
    db.close();
  }
  expect(disagreements).toEqual([]);
  expect(seen.size).toBe(audit.orders.length); // no order the service holds is missing a row
  expect(audit.chargedTotals).toEqual([{ amount: (chargedMinor / 100).toFixed(2), minor: chargedMinor, currency: 'USD' }]);
  expect(chargedMinor).toBe(audit.orders.length * 2_500); // USD 25 an order, cancelled ones included (charged, then refunded or not: the service's word)
  return states;
}

const settledStates = (history: number) => ({ delivered: history + NEW - CANCELLED - HELD, cancelled: CANCELLED, ordered: HELD });

describe('giftbatch poll on an event day: every row as the service has it, the wave read from the COMPLETED list', () => {
  // One page of history before the new campaign: oldest-first finds none of ours on page 0 and walks
  // back from the last page; newest-first finds them forward; bare lists (spec-minimal) have no
  // page object, so only forward, and spec-minimal lists newest first.
// (A list lag is covered by spec-minimal, whose lists are 2 s behind.)
  it.each([
    ['oldest-first (default)', undefined, [], 0],
    ['newest-first', 'newest-first', [], 0],
    // spec-minimal's lists also lag 2 s (listLagMs): polled within it, the newest orders are in no
    // list and are fetched one by one, as before the list pass; the rows agree all the same.
    ['spec-minimal (bare lists, newest first, lists 2 s behind)', 'spec-minimal', ['--currency', 'USD'], NEW - CANCELLED - HELD],
  ] as const)('%s, after a settled history: one round settles all but the held, in a few list pages and one GET per cancelled order', async (_name, dialect, sendArgs, lagging) => {
    const day = await eventDay(dialect, [...sendArgs]);
    const { history, id } = await historyThenNew(day);
    const first = await pollRound(day, id);
    expect(first.code).toBe(0);
    expect(first.out).toMatchObject({ tracked: NEW, settled: NEW - HELD, waiting: HELD });
    expect(first.out.error).toBeUndefined();
    // The PENDING page, then two COMPLETED pages: 500 history and 365 new delivered make two pages; the
    // walk reads the one with ours and the one next to it (the history page, where it stops).
    expect(first.lists).toBe(3);
    if (lagging === 0) expect(first.singles).toBe(CANCELLED); // the cancelled are in no list read: fetched one by one, nothing else
    else expect(first.singles).toBeLessThanOrEqual(CANCELLED + lagging); // at most what one-by-one fetching cost
    const second = await pollRound(day, id);
    expect(second.out).toMatchObject({ tracked: HELD, settled: 0, waiting: HELD });
    expect(second.lists + second.singles).toBe(1); // fewer than 10 left: the PENDING list only
    const states = await expectAgreement(day, [history, id]);
    expect(states).toEqual(settledStates(history ? HISTORY : 0));
  }, 60_000);

  it('faults on every route (500s, 503s, resets after commit, truncated bodies, slow answers): rounds converge, never a row the service contradicts', async () => {
    const day = await eventDay();
    const { history, id } = await historyThenNew(day, { history: false });
    await day.sim.setFaults({ seed: 5, error500BeforeCommit: 0.08, error503: 0.08, resetAfterCommit: 0.04, truncate: 0.04, slow: 0.02, slowMs: 300, faultRoutes: 'all' });
    const rounds: Round[] = [];
    for (let i = 0; i < 3; i += 1) rounds.push(await pollRound(day, id));
    // A round under faults ends with exit 0 or 3 (the service failed), never anything else.
    for (const round of rounds) expect([0, 3]).toContain(round.code);
    // Rows already written agree with the service whatever failed around them.
    await day.sim.setFaults({ error500BeforeCommit: 0, error503: 0, resetAfterCommit: 0, truncate: 0, slow: 0 });
    const clean = await pollRound(day, id);
    expect(clean.code).toBe(0);
    expect(clean.out).toMatchObject({ waiting: HELD });
    const states = await expectAgreement(day, [history, id]);
    expect(states).toEqual(settledStates(history ? HISTORY : 0));
    expect((await account(day)).faults.error500BeforeCommit).toBeGreaterThan(0);
  }, 60_000);
});
