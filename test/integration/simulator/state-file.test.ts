import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  accountIdOf, hiddenKeyLabel, productIdFor, startEmbeddedSimulator, type SimulatorOptions,
} from '../../../electron/simulator/index.ts';
import { item, json, manualClock, orderBody, startSimulator, type Harness } from '../../support/simulator-http.ts';

const KEY = 'state-key-a';
const OTHER = 'state-key-b';

let dir: string;
let stateFile: string;
let running: Harness | null = null;
let logs: string[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sim-state-'));
  stateFile = join(dir, 'nested', 'simulator-state.jsonl');
  logs = [];
});

afterEach(async () => {
  await running?.sim.stop();
  running = null;
  rmSync(dir, { recursive: true, force: true });
});

/** Stops the running simulator (if any) and starts a new one on the same state file. */
async function restart(options: SimulatorOptions = {}): Promise<Harness> {
  await running?.sim.stop();
  running = await startSimulator({ itemDelayMs: 1000, ...options, stateFile, log: (l) => logs.push(l) });
  return running;
}

async function create(h: Harness, key: string, overrides: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const res = await h.order(key, overrides);
  expect(res.status).toBe(200);
  return json(res);
}

function warnings(): string[] {
  return logs.filter((l) => l.includes('skipped'));
}

/**
 * Clients come back with their keys. Until a key is presented, the audit of a restarted simulator
 * names its account `sha256:<account id>`: the state file holds no key to name it by.
 */
async function present(h: Harness, ...keys: string[]): Promise<void> {
  for (const key of keys) expect((await h.get(key, '/v1/products?size=1')).status).toBe(200);
}

describe('simulator state file: a restart on the same file keeps what was acknowledged', () => {
  it('GET /v1/orders/{id} after a restart returns the same order with the same charge', async () => {
    const clock = manualClock();
    let h = await restart({ now: clock.now });
    const usd = await create(h, KEY);
    const krw = await create(h, KEY, { ...item(KEY, 'kr-fixed-krw'), message: 'ありがとう — 감사합니다' });
    const range = await create(h, KEY, { ...item(KEY, 'us-range'), custom_amount: 33.33 });

    h = await restart({ now: clock.now });
    for (const before of [usd, krw, range]) {
      const res = await h.get(KEY, `/v1/orders/${String(before['id'])}`);
      expect(res.status).toBe(200);
      expect(await json(res)).toEqual(before);
    }
  });

  it('the same external_reference_id after a restart returns the same order: no second order, no second charge', async () => {
    const clock = manualClock();
    let h = await restart({ now: clock.now });
    await create(h, KEY, { external_reference_id: 'row-41' });
    const body = orderBody(KEY, { external_reference_id: 'row-42' });
    const first = await json(await h.post(KEY, '/v1/orders', body));
    const balanceBefore = h.sim.audit().accounts[KEY]?.balance;

    clock.advance(10);
    h = await restart({ now: clock.now });
    const again = await json(await h.post(KEY, '/v1/orders', body));
    expect(again).toEqual(first);
    const audit = h.sim.audit().accounts[KEY];
    expect(audit?.orders).toHaveLength(2);
    expect(audit?.duplicates).toEqual([]);
    expect(audit?.conflictingRetries).toEqual([]);
    expect(audit?.balance).toEqual(balanceBefore);
    const byRef = await json(await h.get(KEY, '/v1/orders?page=0&element_size=500&external_reference_id=row-42'));
    expect((byRef['orders'] as unknown[]).length).toBe(1);
  });

  it('balances survive a restart: opening balance minus charges, and a balance set by the control API', async () => {
    let h = await restart({ accounts: { [KEY]: { currency: 'KRW', balance: '1000000' } } });
    await create(h, KEY, item(KEY, 'kr-fixed-krw'));
    await create(h, KEY, item(KEY, 'us-fixed-10'));
    const before = h.sim.audit().accounts[KEY];
    h.sim.setAccount(OTHER, { currency: 'EUR', balance: '500.00' });
    await create(h, OTHER, item(OTHER, 'de-fixed-eur'));

    // Different defaults on the next start do not rewrite accounts that already exist.
    h = await restart({ defaultAccount: { currency: 'USD', balance: '5.00' } });
    const hidden = h.sim.audit().accounts;
    expect(Object.keys(hidden).sort()).toEqual([hiddenKeyLabel(KEY), hiddenKeyLabel(OTHER)].sort());
    expect(hidden[hiddenKeyLabel(KEY)]?.balance).toEqual(before?.balance);
    await present(h, KEY, OTHER);
    const after = h.sim.audit().accounts;
    expect(Object.keys(after).sort()).toEqual([KEY, OTHER].sort());
    expect(after[KEY]?.balance).toEqual(before?.balance);
    expect(after[KEY]?.chargedTotals).toEqual(before?.chargedTotals);
    expect(after[OTHER]?.balance).toEqual({ amount: '475.00', minor: 47500, currency: 'EUR' });
    // The remembered balance is what the next order is checked against.
    expect((await h.order(KEY, item(KEY, 'kr-fixed-krw'))).status).toBe(200);
  });

  it('orders stay with their key and keep that key\'s product ids after a restart', async () => {
    let h = await restart();
    const a = await create(h, KEY, item(KEY, 'us-fixed-50'));
    const b = await create(h, OTHER, item(OTHER, 'us-fixed-50'));
    expect(productIdFor(KEY, 'us-fixed-50')).not.toBe(productIdFor(OTHER, 'us-fixed-50'));

    h = await restart();
    const aAfter = await json(await h.get(KEY, `/v1/orders/${String(a['id'])}`));
    expect((aAfter['order_item'] as Record<string, unknown>)['product_id']).toBe(productIdFor(KEY, 'us-fixed-50'));
    const bAfter = await json(await h.get(OTHER, `/v1/orders/${String(b['id'])}`));
    expect((bAfter['order_item'] as Record<string, unknown>)['product_id']).toBe(productIdFor(OTHER, 'us-fixed-50'));
    expect((await h.get(OTHER, `/v1/orders/${String(a['id'])}`)).status).toBe(404);
  });

  it('accepted recipients and forced statuses survive a restart; item life cycle keeps following the clock', async () => {
    const clock = manualClock();
    let h = await restart({ now: clock.now });
    const accepted = await create(h, KEY, item(KEY, 'us-recipient-details'));
    const waiting = await create(h, KEY, item(KEY, 'us-recipient-details'));
    const cancelled = await create(h, KEY);
    const expired = await create(h, KEY);
    const normal = await create(h, KEY);
    h.sim.acceptRecipient(KEY, accepted['id'] as number);
    h.sim.forceStatus(KEY, cancelled['id'] as number, { orderStatus: 'CANCELLED' });
    h.sim.forceStatus(KEY, expired['id'] as number, { orderStatus: 'PAYMENT_EXPIRED' });
    h.sim.forceStatus(KEY, expired['id'] as number, { itemStatus: 'CANCELLED' });

    h = await restart({ now: clock.now });
    await present(h, KEY);
    const statuses = (): Record<number, [unknown, unknown]> => Object.fromEntries(
      (h.sim.audit().accounts[KEY]?.orders ?? []).map((o) => [o.id, [o.status, o.itemStatus]]),
    );
    expect(statuses()).toEqual({
      [accepted['id'] as number]: ['COMPLETED', 'COMPLETED'],
      [waiting['id'] as number]: ['COMPLETED', 'PENDING'],
      [cancelled['id'] as number]: ['CANCELLED', 'CANCELLED'],
      [expired['id'] as number]: ['PAYMENT_EXPIRED', 'CANCELLED'],
      [normal['id'] as number]: ['COMPLETED', 'PENDING'],
    });
    clock.advance(1000);
    h = await restart({ now: clock.now });
    await present(h, KEY);
    expect(statuses()[normal['id'] as number]).toEqual(['COMPLETED', 'COMPLETED']);
    expect(statuses()[waiting['id'] as number]).toEqual(['COMPLETED', 'PENDING']);
  });

  it('orders created after a restart get new ids, never one already used', async () => {
    let h = await restart();
    const before = [await create(h, KEY), await create(h, OTHER), await create(h, KEY)];
    h = await restart();
    const after = [await create(h, OTHER), await create(h, KEY)];
    h = await restart();
    await present(h, KEY);
    const all = [...before, ...after];
    const ids = all.map((o) => o['id'] as number);
    const itemIds = all.map((o) => (o['order_item'] as Record<string, unknown>)['id'] as number);
    expect(new Set(ids).size).toBe(5);
    expect(new Set(itemIds).size).toBe(5);
    expect(Math.min(...ids.slice(3))).toBeGreaterThan(Math.max(...ids.slice(0, 3)));
    const listed = h.sim.audit().accounts[KEY]?.orders.map((o) => o.id);
    expect(listed).toEqual([ids[0], ids[2], ids[4]]);
  });

  it('a torn last line is cut off with a warning, and the file stays appendable', async () => {
    let h = await restart();
    const kept = await create(h, KEY);
    await h.sim.stop();
    running = null;
    appendFileSync(stateFile, '{"v":2,"type":"order","account":"5f0c","id":9');

    h = await restart();
    expect(warnings().join('\n')).toMatch(/line 3: skipped, torn/);
    expect((await h.get(KEY, `/v1/orders/${String(kept['id'])}`)).status).toBe(200);
    const added = await create(h, KEY);

    logs = [];
    h = await restart();
    expect(warnings()).toEqual([]);
    await present(h, KEY);
    expect(h.sim.audit().accounts[KEY]?.orders.map((o) => o.id)).toEqual([kept['id'], added['id']]);
    expect(readFileSync(stateFile, 'utf8').endsWith('\n')).toBe(true);
  });

  it('lines from an unknown future version, or that do not parse, are skipped with a warning', async () => {
    let h = await restart();
    const kept = await create(h, KEY);
    await h.sim.stop();
    running = null;
    appendFileSync(stateFile, `${JSON.stringify({ v: 3, type: 'order', account: accountIdOf(KEY), id: 1 })}\n`);
    appendFileSync(stateFile, `${JSON.stringify({ v: 2, type: 'teleport', account: accountIdOf(KEY) })}\n`);
    appendFileSync(stateFile, 'not json at all\n');

    h = await restart();
    const text = warnings().join('\n');
    expect(text).toMatch(/line 3: skipped, written by another version of the simulator \(v=3/);
    expect(text).toMatch(/line 4: skipped/);
    expect(text).toMatch(/line 5: skipped, not valid JSON/);
    await present(h, KEY);
    expect(h.sim.audit().accounts[KEY]?.orders.map((o) => o.id)).toEqual([kept['id']]);
  });

  it('a control call before start() sees the file first, so the replay does not clobber it', async () => {
    let h = await restart();
    await create(h, KEY);
    await h.sim.stop();
    running = null;

    const { createSimulator } = await import('../../../electron/simulator/index.ts');
    const sim = createSimulator({ stateFile });
    sim.setAccount(KEY, { balance: '42.00' });
    expect(sim.audit().accounts[KEY]?.orders).toHaveLength(1);
    await sim.stop();

    h = await restart();
    await present(h, KEY);
    expect(h.sim.audit().accounts[KEY]?.balance.amount).toBe('42.00');
    expect(h.sim.audit().accounts[KEY]?.orders).toHaveLength(1);
  });

  it('replays 10,000 orders: every order, its key and the balance come back', async () => {
    let h = await restart();
    await create(h, KEY, { external_reference_id: 'bulk-0' });
    await h.sim.stop();
    running = null;
    const lines = readFileSync(stateFile, 'utf8').trimEnd().split('\n');
    const template = JSON.parse(lines[lines.length - 1] ?? '') as Record<string, unknown>;
    const more: string[] = [];
    for (let i = 1; i < 10_000; i++) {
      more.push(JSON.stringify({
        ...template,
        id: (template['id'] as number) + i,
        itemId: (template['itemId'] as number) + i,
        externalReferenceId: `bulk-${i}`,
        body: (template['body'] as string).replace('"bulk-0"', `"bulk-${i}"`),
      }));
    }
    appendFileSync(stateFile, `${more.join('\n')}\n`);

    h = await restart();
    await present(h, KEY);
    const account = h.sim.audit().accounts[KEY];
    expect(account?.orders).toHaveLength(10_000);
    expect(account?.balance.amount).toBe('750000.00'); // 1,000,000.00 − 10,000 × 25.00
    const last = await json(await h.get(KEY, '/v1/orders?page=0&element_size=500&external_reference_id=bulk-9999'));
    expect((last['orders'] as unknown[]).length).toBe(1);
    expect(warnings()).toEqual([]);
  });

  it('a state file must be an absolute path', async () => {
    await expect(startSimulator({ stateFile: 'relative/state.jsonl' })).rejects.toThrow(/absolute path/);
  });
});

describe('startEmbeddedSimulator', () => {
  it('serves on 127.0.0.1 without test endpoints, and keeps orders across stop and start', async () => {
    const first = await startEmbeddedSimulator({ stateFile, itemDelayMs: 0 });
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${first.url}/__audit`)).status).toBe(404);
    const headers = { 'SERVICE-API-KEY': KEY, 'content-type': 'application/json' };
    const created = await json(await fetch(`${first.url}/v1/orders`, { method: 'POST', headers, body: JSON.stringify(orderBody(KEY)) }));
    await first.stop();

    const second = await startEmbeddedSimulator({ stateFile, itemDelayMs: 0 });
    try {
      const res = await fetch(`${second.url}/v1/orders/${String(created['id'])}`, { headers });
      const again = await json(res);
      expect(again['id']).toBe(created['id']);
      expect(again['total_price_charged']).toEqual(created['total_price_charged']);
      expect((again['order_item'] as Record<string, unknown>)['status']).toBe('COMPLETED');
    } finally {
      await second.stop();
    }
  });

  it('refuses a state file it cannot create', async () => {
    writeFileSync(join(dir, 'a-file'), 'x');
    await expect(startEmbeddedSimulator({ stateFile: join(dir, 'a-file', 'state.jsonl') })).rejects.toThrow();
  });
});
