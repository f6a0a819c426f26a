import { connect } from 'node:net';
import { request } from 'node:http';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { errorCode, orderBody, startSimulator, type Harness } from '../../support/simulator-http.ts';

let h: Harness;
afterEach(async () => { await h.sim.stop(); });

describe('simulator robustness', () => {
  it('unknown routes are 404 JSON, with or without a key', async () => {
    h = await startSimulator();
    for (const [key, path] of [['k', '/v1/nothing'], ['k', '/v1/orders/1/items'], [null, '/favicon.ico']] as const) {
      const res = await h.get(key, path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(await errorCode(res)).toBe('NOT_FOUND');
    }
  });

  it('/v1 routes need the key before anything else is revealed', async () => {
    h = await startSimulator();
    expect((await h.get(null, '/v1/nothing')).status).toBe(401);
  });

  it('a wrong method on a known route is 405 with Allow', async () => {
    h = await startSimulator();
    const res = await fetch(`${h.url}/v1/products`, { method: 'DELETE', headers: { 'SERVICE-API-KEY': 'k' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    const cancel = await fetch(`${h.url}/v1/orders/900001`, { method: 'DELETE', headers: { 'SERVICE-API-KEY': 'k' } });
    expect(cancel.status).toBe(405);
  });

  it('never answers random JSON bodies with a 5xx or a non-JSON body', async () => {
    h = await startSimulator();
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue(), fc.record({ item: fc.jsonValue(), delivery: fc.jsonValue(), custom_amount: fc.jsonValue(), external_reference_id: fc.jsonValue() })), async (body) => {
        const res = await h.post('fuzz', '/v1/orders', JSON.stringify(body));
        expect(res.status).toBeLessThan(500);
        const parsed = (await res.json()) as Record<string, unknown>;
        expect(res.status === 200 ? 'id' in parsed : 'error' in parsed).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('survives a malformed HTTP request and keeps serving', async () => {
    h = await startSimulator();
    const { port } = new URL(h.url);
    const reply = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let data = '';
      socket.on('data', (d) => { data += String(d); });
      socket.on('close', () => resolve(data));
      socket.on('error', () => resolve(data));
    });
    expect(reply).toMatch(/400/);
    expect((await h.get('k', '/v1/products')).status).toBe(200);
  });

  it('stop() does not hang on keep-alive connections, idle or waiting for a response', async () => {
    h = await startSimulator({ faults: { slow: 1, slowMs: 60_000 } });
    const { port } = new URL(h.url);
    await new Promise<void>((resolve, reject) => {
      const req = request({ port, host: '127.0.0.1', path: '/v1/products', headers: { 'SERVICE-API-KEY': 'k', connection: 'keep-alive' }, agent: false }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end();
    });
    const pending = h.post('k', '/v1/orders', orderBody('k')).catch(() => 'aborted');
    await new Promise((r) => setTimeout(r, 50));
    const outcome = await Promise.race([
      h.sim.stop().then(() => 'stopped'),
      new Promise((r) => setTimeout(() => r('hung'), 2500)),
    ]);
    expect(outcome).toBe('stopped');
    expect(await pending).toBe('aborted');
    expect(h.sim.url).toBeNull();
  });

  it('latencyMs delays /v1 responses', async () => {
    h = await startSimulator({ latencyMs: 120 });
    const started = Date.now();
    expect((await h.get('k', '/v1/products')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
  });

  it('start() can be given a port and reports the URL', async () => {
    h = await startSimulator();
    const { port } = new URL(h.url);
    expect(h.url).toBe(`http://127.0.0.1:${port}`);
    await expect(h.sim.start()).rejects.toThrow(/already started/);
  });
});
