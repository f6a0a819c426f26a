import { afterEach, describe, expect, it } from 'vitest';
import { errorCode, orderBody, startSimulator, type Harness } from '../../support/simulator-http.ts';

let h: Harness;
afterEach(async () => { await h.sim.stop(); });

describe('simulator injected faults', () => {
  it('resetAfterCommit: fetch throws, yet the order exists and a retry with the same key returns it', async () => {
    h = await startSimulator({ faults: { resetAfterCommit: 1 } });
    const body = orderBody('k', { external_reference_id: 'reset-1' });
    await expect(h.post('k', '/v1/orders', body)).rejects.toThrow();
    const audit = h.sim.audit().accounts['k'];
    expect(audit?.orders.map((o) => o.externalReferenceId)).toEqual(['reset-1']);
    expect(audit?.faults.resetAfterCommit).toBe(1);
    h.sim.setFaults({ resetAfterCommit: 0 });
    const retry = await h.post('k', '/v1/orders', body);
    expect(retry.status).toBe(200);
    expect(((await retry.json()) as { id: number }).id).toBe(audit?.orders[0]?.id);
    expect(h.sim.audit().accounts['k']?.orders).toHaveLength(1);
    expect(h.sim.audit().accounts['k']?.duplicates).toEqual([]);
  });

  it('error500BeforeCommit: 500 INTERNAL and nothing is committed or charged', async () => {
    h = await startSimulator({ faults: { error500BeforeCommit: 1 } });
    const res = await h.order('k');
    expect(res.status).toBe(500);
    expect(await errorCode(res)).toBe('INTERNAL');
    const audit = h.sim.audit().accounts['k'];
    expect(audit?.orders).toEqual([]);
    expect(audit?.balance.amount).toBe('1000000.00');
    expect(audit?.faults.error500BeforeCommit).toBe(1);
  });

  it('error503: 503 UNAVAILABLE with Retry-After, nothing committed', async () => {
    h = await startSimulator({ faults: { error503: 1 }, retryAfter503Seconds: 3 });
    const res = await h.order('k');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('3');
    expect(await errorCode(res)).toBe('UNAVAILABLE');
    expect(h.sim.audit().accounts['k']?.orders).toEqual([]);
  });

  it('Retry-After can be sent as an HTTP-date', async () => {
    const now = Date.parse('2025-03-01T10:00:00Z');
    h = await startSimulator({ faults: { error503: 1 }, retryAfterFormat: 'http-date', now: () => now });
    const res = await h.order('k');
    expect(res.headers.get('retry-after')).toBe('Sat, 01 Mar 2025 10:00:01 GMT');
  });

  it('truncate: a 200 whose body is not valid JSON, yet the order exists', async () => {
    h = await startSimulator({ faults: { truncate: 1 } });
    const res = await h.order('k', { external_reference_id: 'cut' });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(() => JSON.parse(text) as unknown).toThrow();
    expect(text.startsWith('{"id":')).toBe(true);
    expect(h.sim.audit().accounts['k']?.orders.map((o) => o.externalReferenceId)).toEqual(['cut']);
  });

  it('slow: the response waits slowMs (past a client timeout) but the order is committed first', async () => {
    h = await startSimulator({ faults: { slow: 1, slowMs: 2000 } });
    await expect(
      fetch(`${h.url}/v1/orders`, {
        method: 'POST',
        headers: { 'SERVICE-API-KEY': 'k', 'content-type': 'application/json' },
        body: JSON.stringify(orderBody('k', { external_reference_id: 'slow' })),
        signal: AbortSignal.timeout(200),
      }),
    ).rejects.toThrow();
    expect(h.sim.audit().accounts['k']?.orders.map((o) => o.externalReferenceId)).toEqual(['slow']);
  });

  it('slow responses do eventually arrive', async () => {
    h = await startSimulator({ faults: { slow: 1, slowMs: 150 } });
    const started = Date.now();
    const res = await h.order('k');
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('by default faults hit only POST /v1/orders; faultRoutes all hits reads too', async () => {
    h = await startSimulator({ faults: { error503: 1 } });
    expect((await h.get('k', '/v1/products')).status).toBe(200);
    h.sim.setFaults({ faultRoutes: 'all' });
    expect((await h.get('k', '/v1/products')).status).toBe(503);
    expect((await h.get('k', '/v1/orders?page=0&element_size=1')).status).toBe(503);
  });

  it('seeded faults are deterministic: same seed, same sequence of outcomes', async () => {
    const outcomes = async (): Promise<string[]> => {
      h = await startSimulator({ faults: { seed: 1234, error500BeforeCommit: 0.3, error503: 0.3 } });
      const seen: string[] = [];
      for (let i = 0; i < 30; i++) seen.push(String((await h.order('k', { external_reference_id: `s${i}` })).status));
      await h.sim.stop();
      return seen;
    };
    const first = await outcomes();
    expect(await outcomes()).toEqual(first);
    expect(new Set(first)).toEqual(new Set(['200', '500', '503']));
    h = await startSimulator(); // for afterEach to stop

  });

  it('turning faults off at run time lets a campaign finish', async () => {
    h = await startSimulator({ faults: { error503: 1 } });
    expect((await h.order('k', { external_reference_id: 'late' })).status).toBe(503);
    h.sim.setFaults({ error503: 0 });
    expect((await h.order('k', { external_reference_id: 'late' })).status).toBe(200);
    expect(h.sim.audit().accounts['k']?.faults.error503).toBe(1);
  });
});

describe('simulator rate limit', () => {
  it('429 RATE_LIMITED with Retry-After once the burst is spent, per key', async () => {
    let t = Date.parse('2025-03-01T10:00:00Z');
    h = await startSimulator({ rateLimit: 1, rateBurst: 2, now: () => t });
    expect((await h.get('k', '/v1/products')).status).toBe(200);
    expect((await h.get('k', '/v1/products')).status).toBe(200);
    const limited = await h.get('k', '/v1/products');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(await errorCode(limited)).toBe('RATE_LIMITED');
    expect((await h.get('other', '/v1/products')).status).toBe(200);
    t += 1000;
    expect((await h.get('k', '/v1/products')).status).toBe(200);
    expect(h.sim.audit().accounts['k']?.requests['GET /v1/products']).toEqual({ '200': 3, '429': 1 });
  });

  it('a rate-limited POST commits nothing', async () => {
    h = await startSimulator({ rateLimit: 1, rateBurst: 1, now: () => 0 });
    expect((await h.order('k')).status).toBe(200);
    expect((await h.order('k')).status).toBe(429);
    expect(h.sim.audit().accounts['k']?.orders).toHaveLength(1);
  });
});
