// The real simulator on a free port, with a service client (and its rate limiter) pointed at it.
// Stopped after each test.

import { afterEach } from 'vitest';
import { systemClock, type Clock } from '../../electron/core/clock.ts';
import { createRateLimiter, createServiceClient, type RateLimiter, type ServiceClient } from '../../electron/core/service/index.ts';
import type { AttemptEvent } from '../../electron/core/service/index.ts';
import { createSimulator, type AuditAccount, type Simulator, type SimulatorOptions } from '../../electron/simulator/index.ts';

import { TEST_KEY } from './keys.ts';

export { TEST_KEY };

const running: Simulator[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((sim) => sim.stop()));
});

export interface ClientOptions {
  readonly key?: string;
  readonly baseUrl?: string;
  readonly timeoutMs?: number;
  /** Requests per second of the client's own limiter (default 1000: the limiter stays out of the way). */
  readonly rate?: number;
  readonly burst?: number;
  readonly tickMs?: number;
  readonly minRate?: number;
  readonly clock?: Clock;
  readonly onAttempt?: (event: AttemptEvent) => void;
}

export interface TestService {
  readonly sim: Simulator;
  readonly url: string;
  readonly key: string;
  readonly client: ServiceClient;
  readonly limiter: RateLimiter;
  /** Another client with its own limiter (another key, another timeout…). */
  makeClient(opts?: ClientOptions): { client: ServiceClient; limiter: RateLimiter };
  /** The simulator's record for the test key (or another). */
  account(key?: string): AuditAccount;
}

/**
 * Starts a simulator (items settle after a minute unless told otherwise, no latency) and a client
 * for `client.key` (default TEST_KEY).
 */
export async function startSimulator(options: SimulatorOptions = {}, client: ClientOptions = {}): Promise<TestService> {
  const sim = createSimulator({ itemDelayMs: 60_000, ...options });
  running.push(sim);
  const { url } = await sim.start(0);
  const key = client.key ?? TEST_KEY;
  const makeClient = (opts: ClientOptions = {}) => {
    const clock = opts.clock ?? systemClock;
    const limiter = createRateLimiter({
      rate: opts.rate ?? 1000,
      burst: opts.burst ?? Math.max(1, Math.ceil(opts.rate ?? 1000)),
      clock,
      ...(opts.tickMs !== undefined ? { tickMs: opts.tickMs } : {}),
      ...(opts.minRate !== undefined ? { minRate: opts.minRate } : {}),
    });
    const service = createServiceClient({
      baseUrl: opts.baseUrl ?? url,
      apiKey: opts.key ?? key,
      limiter,
      clock,
      timeoutMs: opts.timeoutMs ?? 5_000,
      ...(opts.onAttempt ? { onAttempt: opts.onAttempt } : {}),
    });
    return { client: service, limiter };
  };
  const main = makeClient(client);
  return {
    sim,
    url,
    key,
    client: main.client,
    limiter: main.limiter,
    makeClient,
    account(which = key) {
      const account = sim.audit().accounts[which];
      if (!account) throw new Error(`the simulator has no account for ${which}: nothing was requested with it`);
      return account;
    },
  };
}
