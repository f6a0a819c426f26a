import { describe, expect, it } from 'vitest';
import { systemClock, type Clock } from '../../../../electron/core/clock.ts';
import { createServiceClient } from '../../../../electron/core/service/client.ts';
import type { AttemptEvent } from '../../../../electron/core/service/http.ts';
import { createRateLimiter } from '../../../../electron/core/service/rate-limiter.ts';
import { MARKER_KEY, json, orderRow, serve } from '../../../support/http-servers.ts';

// A request stopped while it waits for its turn at the limiter (paused by a 429's Retry-After)
// answers at once as any cancelled request does, and is never sent.
describe('attempt: a stop while waiting for the limiter', () => {
  it('after a 429 with Retry-After 60 s, a lookup whose signal aborts answers "aborted" at once and reaches no server', async () => {
    const server = await serve((req, res) => {
      if (req.url === '/v1/orders/1') json(res, 429, { error: { code: 'RATE_LIMITED', message: 'slow down' } }, { 'retry-after': '60' });
      else json(res, 200, orderRow(2));
    });
    const limiter = createRateLimiter({ rate: 100, burst: 10, clock: systemClock });
    const events: AttemptEvent[] = [];
    const client = createServiceClient({ baseUrl: server.url, apiKey: MARKER_KEY, limiter, clock: systemClock, timeoutMs: 2_000, onAttempt: (e) => events.push(e) });
    expect((await client.getOrder(1)).kind).toBe('rate-limited');
    expect(limiter.stats().pausedUntil).not.toBeNull();

    const stop = new AbortController();
    const started = Date.now();
    const waiting = client.getOrder(2, { signal: stop.signal });
    setTimeout(() => stop.abort(), 50);
    const outcome = await waiting;
    expect(Date.now() - started).toBeLessThan(1_000); // the old limiter held it for the whole minute
    expect(outcome).toMatchObject({ kind: 'ambiguous', reason: 'aborted', endpoint: 'GET /v1/orders/2' });
    expect(server.requests.map((r) => r.url)).toEqual(['/v1/orders/1']);
    expect(limiter.stats()).toMatchObject({ waiting: 0, acquired: 1 });
    // Logged as every attempt is, with its outcome.
    expect(events.map((e) => [e.endpoint, e.kind, e.reason])).toEqual([
      ['/v1/orders/1', 'rate-limited', undefined],
      ['/v1/orders/2', 'ambiguous', 'aborted'],
    ]);
  });

  it('a wait that fails for another reason than the signal is not mistaken for a stop', async () => {
    const server = await serve((_req, res) => json(res, 200, orderRow(1)));
    const broken: Clock = { now: () => Date.now(), sleep: () => Promise.reject(new Error('clock broke')) };
    const limiter = createRateLimiter({ rate: 100, burst: 1, clock: broken });
    limiter.pause(1_000);
    const client = createServiceClient({ baseUrl: server.url, apiKey: MARKER_KEY, limiter, clock: systemClock, timeoutMs: 2_000 });
    await expect(client.getOrder(1, { signal: new AbortController().signal })).rejects.toThrow('clock broke');
    expect(server.requests).toEqual([]);
  });
});
