// An app service on a real engine (temp data folder, real SQLite, memory key store) talking to the
// real simulator over HTTP through the Simulator environment's address setting.
import { afterEach } from 'vitest';
import type { CallInput, CallName, CallOutput, EventName, EventPayload } from '../../shared/contract.ts';
import { createAppService, type AppService, type AppServiceOptions } from '../../electron/core/app/index.ts';
import { openEngine, type Engine } from '../../electron/core/engine.ts';
import { createMemorySecretStore, type SecretStore } from '../../electron/core/secrets/secret-store.ts';

export interface Harness {
  engine: Engine;
  service: AppService;
  logs: string[];
  /** The campaign events (`campaign:*`); a test of `campaigns:createProgress` listens to it itself. */
  events: { name: CampaignEventName; at: number; payload: EventPayload<CampaignEventName> }[];
  /** Calls and expects success; throws the error message otherwise. */
  ok<C extends CallName>(name: C, input: CallInput<C>): Promise<CallOutput<C>>;
  close(): Promise<void>;
}

type CampaignEventName = Extract<EventName, `campaign:${string}`>;

const open: Harness[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});

export async function startService(
  dataDir: string,
  opts: { secrets?: SecretStore; simulatorUrl?: string; service?: Partial<AppServiceOptions> } = {},
): Promise<Harness> {
  const engine = await openEngine({ dataDir, secrets: opts.secrets ?? createMemorySecretStore('no keychain in tests'), env: {} });
  const logs: string[] = [];
  const service = createAppService({
    engine,
    shell: 'browser',
    env: {},
    log: (level, message) => logs.push(`${level}: ${message}`),
    polling: { delayMs: () => 150, startDelayMs: 50, retryDelayMs: 500 },
    ...opts.service,
  });
  const events: Harness['events'] = [];
  service.on('campaign:progress', (payload) => events.push({ name: 'campaign:progress', at: performance.now(), payload }));
  service.on('campaign:finished', (payload) => events.push({ name: 'campaign:finished', at: performance.now(), payload }));
  let closed = false;
  const harness: Harness = {
    engine,
    service,
    logs,
    events,
    async ok(name, input) {
      const result = await service.invoke(name, input);
      if (!result.ok) throw new Error(`${name} failed: ${result.error.code}: ${result.error.message}`);
      return result.value;
    },
    async close() {
      if (closed) return;
      closed = true;
      await service.close();
      await engine.close();
    },
  };
  open.push(harness);
  if (opts.simulatorUrl) await harness.ok('environments:update', { environment: 'simulator', baseUrl: opts.simulatorUrl });
  return harness;
}

export async function waitFor<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The id of an orderable USD range product of the simulator's US catalog. */
export async function usdRangeProduct(h: Harness): Promise<number> {
  const { products } = await h.ok('products:list', { environment: 'simulator', country: 'US' });
  const found = products.find((p) => p.price.kind === 'range' && p.price.min.currency === 'USD' && p.unorderableReason === null);
  if (!found) throw new Error('the simulator has no orderable USD range product');
  return found.id;
}

export function csvBase64(lines: string[]): string {
  return Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8').toString('base64');
}

export function recipientsCsv(n: number, from = 0): string {
  return csvBase64(['Name,Email', ...Array.from({ length: n }, (_, i) => `Guest ${from + i},guest${from + i}@example.com`)]);
}
