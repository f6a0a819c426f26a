// For the simulator's own tests: a real simulator on a free port, talked to with plain fetch (the
// wire as a client sees it; test/support/simulator.ts gives the engine's service client instead).

import { createSimulator, productIdFor, type Simulator, type SimulatorOptions } from '../../electron/simulator/index.ts';

export interface Harness {
  sim: Simulator;
  url: string;
  get(key: string | null, path: string): Promise<Response>;
  post(key: string | null, path: string, body: unknown): Promise<Response>;
  order(key: string, overrides?: Record<string, unknown>): Promise<Response>;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Harness> {
  const sim = createSimulator(options);
  const { url } = await sim.start(0);
  const headers = (key: string | null): Record<string, string> => ({
    accept: 'application/json',
    'content-type': 'application/json',
    ...(key === null ? {} : { 'SERVICE-API-KEY': key }),
  });
  const get = (key: string | null, path: string): Promise<Response> => fetch(url + path, { headers: headers(key) });
  const post = (key: string | null, path: string, body: unknown): Promise<Response> =>
    fetch(url + path, { method: 'POST', headers: headers(key), body: typeof body === 'string' ? body : JSON.stringify(body) });
  return {
    sim,
    url,
    get,
    post,
    order: (key, overrides = {}) => post(key, '/v1/orders', orderBody(key, overrides)),
  };
}

/** A valid order for us-fixed-25 unless overridden (shallow). */
export function orderBody(key: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    item: { id: productIdFor(key, 'us-fixed-25') },
    delivery: { method: 'EMAIL', recipient: { name: 'Ada Lovelace', email: 'ada@example.com' }, sender: { name: 'Events Team' } },
    message: 'Thank you for coming!',
    external_reference_id: `ref-${Math.random().toString(36).slice(2)}`,
    ...overrides,
  };
}

export function item(key: string, slug: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { item: { id: productIdFor(key, slug), ...extra } };
}

export async function json(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}

export async function errorCode(res: Response): Promise<string> {
  const body = (await res.json()) as { error?: { code?: string; message?: string } };
  return body.error?.code ?? '(no code)';
}

/** A clock tests move by hand. */
export function manualClock(start = Date.parse('2025-03-01T10:00:00Z')): { now: () => number; advance: (ms: number) => void; set: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => { t += ms; }, set: (ms) => { t = ms; } };
}
