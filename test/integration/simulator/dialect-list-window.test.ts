// The dialect switch listWindowMs ("Parameter names of the date range: not shown", spec section 4):
// a service whose order list shows only recent orders unless given a date range.
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator } from '../../../electron/simulator/index.ts';
import { json, manualClock, orderBody, startSimulator, type Harness } from '../../support/simulator-http.ts';

let h: Harness;
afterEach(async () => { await h.sim.stop(); });

const ids = async (query: string): Promise<number[]> =>
  ((await json(await h.get('k', `/v1/orders?page=0&element_size=10${query}`)))['orders'] as { id: number }[]).map((o) => o.id);

describe('dialect: listWindowMs', () => {
  it('default null: the list reaches back to the first order', async () => {
    const clock = manualClock();
    h = await startSimulator({ now: clock.now });
    const old = await json(await h.post('k', '/v1/orders', orderBody('k', { external_reference_id: 'old' })));
    clock.advance(365 * 24 * 3_600_000);
    expect(await ids('&external_reference_id=old')).toEqual([old['id']]);
  });

  it('N ms: without a date range, an order older than N is missing from every list, by key too; its own record and a date range still find it', async () => {
    const clock = manualClock();
    h = await startSimulator({ now: clock.now, dialect: { listWindowMs: 3_600_000 } });
    const old = await json(await h.post('k', '/v1/orders', orderBody('k', { external_reference_id: 'old' })));
    clock.advance(3_600_000);
    const recent = await json(await h.post('k', '/v1/orders', orderBody('k', { external_reference_id: 'recent' })));
    expect(await ids('')).toEqual([old['id'], recent['id']]);
    clock.advance(1);
    expect(await ids('')).toEqual([recent['id']]);
    expect(await ids('&external_reference_id=old')).toEqual([]);
    expect(await ids('&order_item_status=PENDING')).toEqual([recent['id']]);
    expect((await json(await h.get('k', `/v1/orders/${String(old['id'])}`)))['id']).toBe(old['id']);
    expect(await ids('&external_reference_id=old&created_from=2000-01-01T00:00:00Z')).toEqual([old['id']]);
    // A retry under the key still gets the order back: the window is the list's, not the key's.
    expect((await json(await h.post('k', '/v1/orders', orderBody('k', { external_reference_id: 'old' }))))['id']).toBe(old['id']);
  });

  it('refuses a value that is not null or a positive number', () => {
    expect(() => createSimulator({ dialect: { listWindowMs: -1 } })).toThrow(/listWindowMs must be null or a positive number/);
  });
});
