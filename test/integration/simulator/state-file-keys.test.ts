// Issue 12: no state file ever holds an API key. Accounts are stored under a hash of their key,
// requests are matched by hashing the key they present, and a file written by an older simulator
// (raw keys, v1 lines) is rewritten on load.

import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SIMULATOR_STATE_FILE } from '../../../electron/core/paths.ts';
import { openEmbeddedService } from '../../../electron/core/embedded-simulator.ts';
import {
  accountIdOf, hiddenKeyLabel, productIdFor, STATE_VERSION, type SimulatorOptions,
} from '../../../electron/simulator/index.ts';
import { item, json, manualClock, orderBody, startSimulator, type Harness } from '../../support/simulator-http.ts';

const MARKER = 'sk_marker_KEY_7f3a9c1e';
const OTHER = 'sk_marker_OTHER_2d8b';
// The keys in fixtures/state-v1.jsonl, a file written by the simulator before this change.
const LEGACY_KEY = 'sk_legacy_KEY_4b1d9e';
const LEGACY_OTHER = 'sk_legacy_OTHER_8c2f';
const fixture = fileURLToPath(new URL('./fixtures/state-v1.jsonl', import.meta.url));

let dir: string;
let stateFile: string;
let running: Harness | null = null;
let logs: string[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sim-state-keys-'));
  stateFile = join(dir, 'simulator-state.jsonl');
  logs = [];
});

afterEach(async () => {
  await running?.sim.stop();
  running = null;
  rmSync(dir, { recursive: true, force: true });
});

async function restart(options: SimulatorOptions = {}): Promise<Harness> {
  await running?.sim.stop();
  running = await startSimulator({ itemDelayMs: 1000, ...options, stateFile, log: (l) => logs.push(l) });
  return running;
}

/** The file's bytes hold none of the keys, in any line. */
function expectNoKeyIn(file: string, ...keys: string[]): void {
  const bytes = readFileSync(file);
  for (const key of keys) expect(bytes.includes(Buffer.from(key, 'utf8')), `${file} contains the key ${key}`).toBe(false);
}

function lines(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('the state file holds a hash of each key, never the key', () => {
  it('after orders, an acceptance, a forced status and an account change with a marker key, the file\'s bytes do not contain the key; a restarted simulator serves the account by the key', async () => {
    const clock = manualClock();
    let h = await restart({ now: clock.now });
    const body = orderBody(MARKER, { external_reference_id: 'marker-1' });
    const first = await h.post(MARKER, '/v1/orders', body);
    expect(first.status).toBe(200);
    const created = await json(first);
    const details = await json(await h.order(MARKER, { ...item(MARKER, 'us-recipient-details'), external_reference_id: 'marker-2' }));
    h.sim.acceptRecipient(MARKER, details['id'] as number);
    h.sim.forceStatus(MARKER, details['id'] as number, { orderStatus: 'PAYMENT_PENDING' });
    h.sim.setAccount(OTHER, { currency: 'EUR', balance: '80.00' });
    expect((await h.order(OTHER, item(OTHER, 'de-fixed-eur'))).status).toBe(200);
    const before = h.sim.audit().accounts[MARKER];
    expect(before?.orders).toHaveLength(2);
    await h.sim.stop();
    running = null;

    expectNoKeyIn(stateFile, MARKER, OTHER);
    const written = lines(stateFile);
    expect(new Set(written.map((l) => l['v']))).toEqual(new Set([STATE_VERSION]));
    expect(written.every((l) => !('key' in l))).toBe(true);
    expect(new Set(written.map((l) => l['account']))).toEqual(new Set([accountIdOf(MARKER), accountIdOf(OTHER)]));
    expect(written.map((l) => l['type'])).toEqual(['account', 'order', 'order', 'accept', 'force', 'account', 'account', 'order']);

    clock.advance(5000);
    h = await restart({ now: clock.now });
    // Nobody has presented a key since the restart: the audit names the accounts by their hash.
    expect(Object.keys(h.sim.audit().accounts).sort()).toEqual([hiddenKeyLabel(MARKER), hiddenKeyLabel(OTHER)].sort());
    expect(hiddenKeyLabel(MARKER)).toBe(`sha256:${accountIdOf(MARKER)}`);
    expect(h.sim.audit().accounts[hiddenKeyLabel(MARKER)]?.balance).toEqual(before?.balance);

    // The same request again: idempotent replay across the restart, no second order, no charge.
    const again = await h.post(MARKER, '/v1/orders', body);
    expect(again.status).toBe(200);
    expect(await json(again)).toEqual({ ...created, order_item: { ...(created['order_item'] as object), status: 'COMPLETED' } });
    const byRef = await json(await h.get(MARKER, '/v1/orders?page=0&element_size=10&external_reference_id=marker-1'));
    expect((byRef['orders'] as { id: number }[]).map((o) => o.id)).toEqual([created['id']]);
    const got = await json(await h.get(MARKER, `/v1/orders/${String(details['id'])}`));
    expect(got['status']).toBe('PAYMENT_PENDING');
    // Product ids still derive from the key, as before the restart.
    expect((got['order_item'] as Record<string, unknown>)['product_id']).toBe(productIdFor(MARKER, 'us-recipient-details'));
    // Another key does not reach the account.
    expect((await h.get(OTHER, `/v1/orders/${String(created['id'])}`)).status).toBe(404);
    expect((await h.get('sk_marker_KEY_7f3a9c1f', `/v1/orders/${String(created['id'])}`)).status).toBe(404);

    // Presented since the restart: named by the key again, with its orders and unchanged balance.
    const audit = h.sim.audit().accounts;
    expect(audit[hiddenKeyLabel(MARKER)]).toBeUndefined();
    expect(audit[MARKER]?.orders.map((o) => o.id)).toEqual(before?.orders.map((o) => o.id));
    expect(audit[MARKER]?.balance).toEqual(before?.balance);
    expect(audit[MARKER]?.duplicates).toEqual([]);
    expect(audit[MARKER]?.conflictingRetries).toEqual([]);
    expect(audit[OTHER]?.balance.amount).toBe('55.00');

    // New orders after the restart: still no key in the file, nor in the log.
    expect((await h.order(MARKER, { external_reference_id: 'marker-3' })).status).toBe(200);
    await h.sim.stop();
    running = null;
    expectNoKeyIn(stateFile, MARKER, OTHER);
    expect(logs.join('\n')).not.toContain(MARKER);
  });

  it('a control call with the key finds an account loaded from the file, and names it by the key from then on', async () => {
    let h = await restart();
    const created = await json(await h.order(MARKER, item(MARKER, 'us-recipient-details')));
    h = await restart();
    expect(h.sim.audit().accounts[MARKER]).toBeUndefined();
    const accepted = await h.post(null, '/__control/accept', { key: MARKER, orderId: created['id'] });
    expect(accepted.status).toBe(200);
    expect(h.sim.audit().accounts[MARKER]?.orders[0]?.itemStatus).toBe('COMPLETED');
    // A wrong key does not reach it.
    expect((await h.post(null, '/__control/accept', { key: OTHER, orderId: created['id'] })).status).toBe(409);
    expectNoKeyIn(stateFile, MARKER, OTHER);
  });

  it('keys given to the simulator (keys, accounts) name their accounts in the audit at once; they are not written either', async () => {
    let h = await restart({ keys: [MARKER] });
    expect((await h.order(MARKER)).status).toBe(200);
    h = await restart({ keys: [MARKER], accounts: { [OTHER]: { currency: 'KRW', balance: '500000' } } });
    expect(Object.keys(h.sim.audit().accounts)).toEqual([MARKER]);
    expect((await h.order(OTHER)).status).toBe(401);
    h = await restart({ accounts: { [OTHER]: { currency: 'KRW', balance: '500000' } } });
    expect((await h.order(OTHER, item(OTHER, 'kr-fixed-krw'))).status).toBe(200);
    h = await restart({ accounts: { [OTHER]: { currency: 'KRW', balance: '1' } } });
    expect(h.sim.audit().accounts[OTHER]?.balance.amount).toBe('470000');
    await h.sim.stop();
    running = null;
    expectNoKeyIn(stateFile, MARKER, OTHER);
  });
});

describe('a state file written by an older simulator (v1: raw keys)', () => {
  it('loads, is rewritten with the keys hashed, and serves the same accounts and orders by their keys', async () => {
    copyFileSync(fixture, stateFile);
    expect(readFileSync(stateFile, 'utf8')).toContain(LEGACY_KEY); // the old format, as the old simulator wrote it
    // An unreadable v1 line (it may hold a key) is dropped by the rewrite; a newer version's line is kept.
    const future = JSON.stringify({ v: STATE_VERSION + 1, type: 'hologram', account: accountIdOf(LEGACY_KEY) });
    appendFileSync(stateFile, `{"v":1,"type":"teleport","key":"${LEGACY_KEY}"}\n${future}\n`);

    const clock = manualClock(Date.parse('2025-03-01T10:00:10Z'));
    let h = await restart({ now: clock.now });
    expect(logs.join('\n')).toMatch(/rewrote 10 v1 lines as v2/);
    expectNoKeyIn(stateFile, LEGACY_KEY, LEGACY_OTHER);
    const rewritten = readFileSync(stateFile, 'utf8').trimEnd().split('\n');
    expect(rewritten).toHaveLength(11);
    expect(rewritten[10]).toBe(future);
    expect(rewritten.slice(0, 10).map((l) => (JSON.parse(l) as { v: number }).v)).toEqual(Array<number>(10).fill(STATE_VERSION));
    expect(rewritten[0]).toBe(`{"v":2,"type":"account","account":"${accountIdOf(LEGACY_KEY)}","balance":{"minor":100000000,"currency":"USD"}}`);
    expect(Object.keys(h.sim.audit().accounts).sort()).toEqual([hiddenKeyLabel(LEGACY_KEY), hiddenKeyLabel(LEGACY_OTHER)].sort());

    // The first order again, byte for byte the request the old simulator stored: the same order back.
    const replayed = await h.post(LEGACY_KEY, '/v1/orders', orderBody(LEGACY_KEY, { external_reference_id: 'legacy-1' }));
    expect(replayed.status).toBe(200);
    expect((await json(replayed))['id']).toBe(900_001);
    expect((await h.order(LEGACY_OTHER, item(LEGACY_OTHER, 'de-fixed-eur'))).status).toBe(200);
    const audit = h.sim.audit().accounts;
    expect(audit[LEGACY_KEY]?.orders.map((o) => [o.id, o.externalReferenceId, o.productSlug, o.status, o.itemStatus])).toEqual([
      [900_001, 'legacy-1', 'us-fixed-25', 'COMPLETED', 'COMPLETED'],
      [900_002, 'legacy-2', 'kr-fixed-krw', 'COMPLETED', 'COMPLETED'],
      [900_003, 'legacy-3', 'us-recipient-details', 'COMPLETED', 'COMPLETED'],
      [900_004, 'legacy-4', 'us-fixed-25', 'CANCELLED', 'CANCELLED'],
    ]);
    expect(audit[LEGACY_KEY]?.balance.amount).toBe('999827.05'); // 1,000,000 − 25 − 22.95 − 100 − 25
    expect(audit[LEGACY_KEY]?.conflictingRetries).toEqual([]);
    expect(audit[LEGACY_OTHER]?.orders.map((o) => o.id)).toEqual([900_005, 900_006]);
    expect(audit[LEGACY_OTHER]?.balance).toEqual({ amount: '450.00', minor: 45000, currency: 'EUR' });

    // The next start reads v2 lines only: nothing to migrate, same state.
    logs = [];
    h = await restart({ now: clock.now });
    expect(logs.join('\n')).not.toMatch(/rewrote/);
    expect(logs.filter((l) => l.includes(': skipped'))).toEqual([expect.stringMatching(/line 11: skipped, written by another version/)]);
    expect((await h.get(LEGACY_KEY, '/v1/orders/900004')).status).toBe(200);
    expect(h.sim.audit().accounts[LEGACY_KEY]?.balance.amount).toBe('999827.05');
    await h.sim.stop();
    running = null;
    expectNoKeyIn(stateFile, LEGACY_KEY, LEGACY_OTHER);
  });

  it('when the rewrite fails, the simulator still serves the old file, appends v2 lines, and migrates on a later start', async () => {
    copyFileSync(fixture, stateFile);
    mkdirSync(`${stateFile}.migrating`); // the temporary file cannot be created
    let h = await restart();
    expect(logs.join('\n')).toMatch(/could not rewrite its 10 v1 lines/);
    expect((await h.order(LEGACY_KEY, { external_reference_id: 'after-failed-migration' })).status).toBe(200);
    await h.sim.stop();
    running = null;
    const mixed = lines(stateFile);
    expect(mixed.map((l) => l['v'])).toEqual([...Array<number>(10).fill(1), 2]);

    rmSync(`${stateFile}.migrating`, { recursive: true });
    logs = [];
    h = await restart();
    expect(logs.join('\n')).toMatch(/rewrote 10 v1 lines as v2/);
    expectNoKeyIn(stateFile, LEGACY_KEY, LEGACY_OTHER);
    expect((await h.get(LEGACY_KEY, '/v1/orders?page=0&element_size=10')).status).toBe(200);
    expect(h.sim.audit().accounts[LEGACY_KEY]?.orders.map((o) => o.externalReferenceId)).toEqual([
      'legacy-1', 'legacy-2', 'legacy-3', 'legacy-4', 'after-failed-migration',
    ]);
  });
});

describe('the built-in simulator of a data folder', () => {
  it('keeps no key in the folder\'s state file, and still finds the account\'s orders after a restart', async () => {
    const dataDir = join(dir, 'data');
    mkdirSync(dataDir);
    const headers = { 'SERVICE-API-KEY': MARKER, 'content-type': 'application/json' };
    const body = JSON.stringify(orderBody(MARKER, { external_reference_id: 'embedded-1' }));
    const first = await openEmbeddedService(dataDir);
    let created: Record<string, unknown>;
    try {
      created = await json(await fetch(`${first.url}/v1/orders`, { method: 'POST', headers, body }));
    } finally {
      await first.stop();
    }
    expectNoKeyIn(join(dataDir, SIMULATOR_STATE_FILE), MARKER);

    const second = await openEmbeddedService(dataDir);
    try {
      const again = await fetch(`${second.url}/v1/orders`, { method: 'POST', headers, body });
      expect(again.status).toBe(200);
      expect((await json(again))['id']).toBe(created['id']);
    } finally {
      await second.stop();
    }
    expectNoKeyIn(join(dataDir, SIMULATOR_STATE_FILE), MARKER);
  });
});
