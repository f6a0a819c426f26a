// The dialect switch keyCheck: whether a retry's external_reference_id is looked up before or after
// the request, the product and the balance are checked (spec section 7: a retry "is not an error";
// its status codes are not shown).
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator } from '../../../electron/simulator/index.ts';
import { errorCode, json, orderBody, startSimulator, type Harness } from '../../support/simulator-http.ts';

let h: Harness;
afterEach(async () => { await h.sim.stop(); });

const ACCOUNT = { k: { currency: 'USD', balance: '30.00' } };

describe('dialect: keyCheck', () => {
  it("default 'first': a retry gets its order back though the balance no longer covers it", async () => {
    h = await startSimulator({ accounts: ACCOUNT });
    const body = orderBody('k', { external_reference_id: 'once' });
    const first = await json(await h.post('k', '/v1/orders', body));
    const retry = await h.post('k', '/v1/orders', body);
    expect(retry.status).toBe(200);
    expect((await json(retry))['id']).toBe(first['id']);
    expect(h.sim.audit().accounts['k']?.balance.amount).toBe('5.00');
  });

  it("'after-checks': the same retry is refused 402 (balance checked first); one order, charged once", async () => {
    h = await startSimulator({ accounts: ACCOUNT, dialect: { keyCheck: 'after-checks' } });
    const body = orderBody('k', { external_reference_id: 'once' });
    const first = await json(await h.post('k', '/v1/orders', body));
    const retry = await h.post('k', '/v1/orders', body);
    expect(retry.status).toBe(402);
    expect(await errorCode(retry)).toBe('INSUFFICIENT_BALANCE');
    const audit = h.sim.audit().accounts['k'];
    expect(audit?.orders.map((o) => o.id)).toEqual([first['id']]);
    expect(audit?.balance.amount).toBe('5.00');
    // With the balance topped up, the retry gets its order back.
    h.sim.setAccount('k', { balance: '100.00' });
    expect((await json(await h.post('k', '/v1/orders', body)))['id']).toBe(first['id']);
    expect(h.sim.audit().accounts['k']?.orders).toHaveLength(1);
  });

  it('refuses another value', () => {
    expect(() => createSimulator({ dialect: { keyCheck: 'last' as 'first' } })).toThrow(/keyCheck must be one of first, after-checks/);
    h = { sim: createSimulator() } as Harness;
  });
});
