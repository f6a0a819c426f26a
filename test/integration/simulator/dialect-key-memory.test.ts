// The dialect switch keyMemoryMs ("Scope and duration of external_reference_id uniqueness … not
// shown", spec section 8), and the fault routes 'reads' (every /v1 route but POST /v1/orders).
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator } from '../../../electron/simulator/index.ts';
import { json, manualClock, orderBody, startSimulator, type Harness } from '../../support/simulator-http.ts';

let h: Harness;
afterEach(async () => { await h.sim.stop(); });

const ids = async (query: string): Promise<number[]> =>
  ((await json(await h.get('k', `/v1/orders?page=0&element_size=10${query}`)))['orders'] as { id: number }[]).map((o) => o.id);

describe('dialect: keyMemoryMs', () => {
  it('default null: a key is remembered for ever', async () => {
    const clock = manualClock();
    h = await startSimulator({ now: clock.now });
    const body = orderBody('k', { external_reference_id: 'kept' });
    const first = await json(await h.post('k', '/v1/orders', body));
    clock.advance(365 * 24 * 3_600_000);
    expect((await json(await h.post('k', '/v1/orders', body)))['id']).toBe(first['id']);
    expect(h.sim.audit().accounts['k']?.orders).toHaveLength(1);
  });

  it('N ms: a retry within N gets the order back; one after N is a second order, charged, and both are listed under the key', async () => {
    const clock = manualClock();
    h = await startSimulator({ now: clock.now, dialect: { keyMemoryMs: 60_000 } });
    const body = orderBody('k', { external_reference_id: 'forgotten' });
    const first = await json(await h.post('k', '/v1/orders', body));
    clock.advance(59_999);
    expect((await json(await h.post('k', '/v1/orders', body)))['id']).toBe(first['id']);
    clock.advance(1);
    const second = await json(await h.post('k', '/v1/orders', body));
    expect(second['id']).not.toBe(first['id']);
    expect(second['external_reference_id']).toBe('forgotten');
    const audit = h.sim.audit().accounts['k'];
    expect(audit?.orders).toHaveLength(2);
    expect(audit?.duplicates).toEqual(['forgotten']);
    expect(audit?.balance.amount).toBe('999950.00');
    expect(await ids('&external_reference_id=forgotten')).toEqual([first['id'], second['id']]);
    // Remembered again from the second order on.
    expect((await json(await h.post('k', '/v1/orders', body)))['id']).toBe(second['id']);
  });

  it('refuses a value that is not null or a positive number', () => {
    expect(() => createSimulator({ dialect: { keyMemoryMs: 0 } })).toThrow(/keyMemoryMs must be null or a positive number/);
    h = { sim: createSimulator() } as Harness;
  });
});

describe("faults on the 'reads' routes", () => {
  it('every /v1 read may fail, and POST /v1/orders never does', async () => {
    h = await startSimulator({ faults: { error503: 1, faultRoutes: 'reads' } });
    expect((await h.order('k')).status).toBe(200);
    expect((await h.get('k', '/v1/orders?page=0&element_size=10')).status).toBe(503);
    expect((await h.get('k', '/v1/products?country_code=US')).status).toBe(503);
    expect(() => h.sim.setFaults({ faultRoutes: 'gets' as 'reads' })).toThrow(/faultRoutes must be 'post', 'all' or 'reads'/);
  });
});
