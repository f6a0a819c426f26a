// The dialect switch racyKeyCheckMs: what a service does with a POST arriving while the first POST
// under its external_reference_id is still being processed (the spec does not say). Real time,
// a few hundred milliseconds.
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator } from '../../../electron/simulator/index.ts';
import { json, orderBody, startSimulator, type Harness } from '../../support/simulator-http.ts';

let h: Harness;
afterEach(async () => { await h.sim.stop(); });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const listed = async (ref: string): Promise<number[]> =>
  ((await json(await h.get('k', `/v1/orders?page=0&element_size=10&external_reference_id=${ref}`)))['orders'] as { id: number }[]).map((o) => o.id);

describe('dialect: racyKeyCheckMs', () => {
  it('default null: two POSTs under one key at once make one order', async () => {
    h = await startSimulator();
    const body = orderBody('k', { external_reference_id: 'together' });
    const [a, b] = await Promise.all([h.post('k', '/v1/orders', body), h.post('k', '/v1/orders', body)]);
    expect((await json(a))['id']).toBe((await json(b))['id']);
    expect(h.sim.audit().accounts['k']?.orders).toHaveLength(1);
  });

  it('N ms: a POST arriving while the first is processed is a second order; nothing is listed before the commit; one arriving after gets the order back', async () => {
    h = await startSimulator({ dialect: { racyKeyCheckMs: 300 } });
    const body = orderBody('k', { external_reference_id: 'raced' });
    const started = Date.now();
    const first = h.post('k', '/v1/orders', body);
    await sleep(100);
    // The first is still being processed: not listed, and its key is not recognised.
    expect(await listed('raced')).toEqual([]);
    const second = h.post('k', '/v1/orders', body);
    const [a, b] = [await json(await first), await json(await second)];
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    expect(a['id']).not.toBe(b['id']);
    expect(b['external_reference_id']).toBe('raced');
    const audit = h.sim.audit().accounts['k'];
    expect(audit?.orders).toHaveLength(2);
    expect(audit?.duplicates).toEqual(['raced']);
    expect(audit?.balance.amount).toBe('999950.00');
    expect(await listed('raced')).toEqual([a['id'], b['id']]);
    // Committed: a retry now is recognised at once (the newest order under the key).
    const at = Date.now();
    expect((await json(await h.post('k', '/v1/orders', body)))['id']).toBe(b['id']);
    expect(Date.now() - at).toBeLessThan(250);
    expect(h.sim.audit().accounts['k']?.orders).toHaveLength(2);
  });

  it('refuses a value that is not null or a positive number', () => {
    expect(() => createSimulator({ dialect: { racyKeyCheckMs: -1 } })).toThrow(/racyKeyCheckMs must be null or a positive number/);
    h = { sim: createSimulator() } as Harness;
  });
});
