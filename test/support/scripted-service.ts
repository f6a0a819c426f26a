// A fake gift service for the model-based test of the row state machine: idempotent by
// external_reference_id like the service, and scripted — each POST attempt takes the next outcome
// from a list (an answer, a fault, or a crash of the client), each lookup the next from another.
// Only the two calls the send queue and reconciliation make are implemented.
import type { Order } from '../../electron/core/service/types.ts';
import type { Outcome, ServiceClient, OrderLookup } from '../../electron/core/service/index.ts';

export const POST_OUTCOMES = ['ok', 'reset-after-commit', '500-before-commit', 'timeout-after-commit', '429', '4xx'] as const;
export type PostOutcome = (typeof POST_OUTCOMES)[number];
/** Where the client dies: before its POST leaves, after it left (applied), after the answer came (applied). */
export const CRASHES = ['after-intent-commit', 'after-post-sent', 'after-response'] as const;
export type Crash = (typeof CRASHES)[number];

/**
 * `pause`: the person pauses here. `remotePause`: another process asks this one to pause (through
 * the send lease). `edit`: the person edits a row that is still waiting to be sent.
 */
export type PostStep = { outcome: PostOutcome } | { crash: Crash } | { pause: true } | { remotePause: true } | { edit: true };
export type LookupStep = 'ok' | 'ambiguous' | '429';

export class SimulatedCrash extends Error {
  override readonly name = 'SimulatedCrash';
}

export interface ScriptedService {
  readonly client: ServiceClient;
  /** Every order created, in order (more than one per key would be a double charge). */
  readonly orders: Order[];
  /** Every POST body received, per key. */
  readonly bodies: Map<string, string[]>;
  ordersFor(key: string): Order[];
  /** Set by a `crash` step; the test then drops the queue and reopens the database. */
  crashed: Crash | null;
}

const POST = 'POST /v1/orders';
const LOOKUP = 'GET /v1/orders';

export function scriptedService(
  script: { posts: readonly PostStep[]; lookups: readonly LookupStep[] },
  hooks: { onCrash(): void; onPause(): void; onRemotePause(): void; onEdit(): void },
): ScriptedService {
  const posts = [...script.posts];
  const lookups = [...script.lookups];
  const orders: Order[] = [];
  const bodies = new Map<string, string[]>();
  let nextId = 9001;

  const ordersFor = (key: string) => orders.filter((o) => o.externalReferenceId === key);
  // The service's de-duplication rule: the same key returns the existing order, never a second one.
  const createOrReturn = (key: string): Order => {
    const existing = ordersFor(key)[0];
    if (existing) return existing;
    const id = nextId++;
    const order: Order = {
      id,
      status: 'COMPLETED',
      externalReferenceId: key,
      createdAt: undefined,
      item: { id: id + 50_000, status: 'PENDING', productId: undefined, price: { text: '25', currency: 'USD', money: { minor: 2500, currency: 'USD' } }, transactionFeeRate: 0 },
      charged: { amount: { minor: 2500, currency: 'USD' }, text: '25', rate: 1, from: 'USD', to: 'USD' },
      acceptanceExpiresAt: undefined,
      recipientEmail: undefined,
      anomalies: [],
      raw: {},
    };
    orders.push(order);
    return order;
  };
  // Each answer comes back on a later turn of the event loop, so attempts in flight interleave.
  const later = <T>(value: T): Promise<T> => new Promise((resolve) => setImmediate(() => resolve(value)));
  const ambiguous = (reason: 'connection' | 'server-error' | 'timeout', status: number | undefined, endpoint: string) =>
    ({ kind: 'ambiguous', reason, status, endpoint, message: `${endpoint}: ${reason}` }) as const;

  const service: ScriptedService = {
    orders,
    bodies,
    ordersFor,
    crashed: null,
    client: {
      async createOrder(request): Promise<Outcome<Order>> {
        if (service.crashed) throw new SimulatedCrash('the process is gone');
        if (typeof request !== 'string') throw new Error('the queue always posts the frozen bytes');
        const key = (JSON.parse(request) as { external_reference_id: string }).external_reference_id;
        const step = posts.shift() ?? { outcome: 'ok' };
        if ('crash' in step) {
          if (step.crash !== 'after-intent-commit') {
            bodies.set(key, [...(bodies.get(key) ?? []), request]);
            createOrReturn(key);
          }
          service.crashed = step.crash;
          hooks.onCrash();
          throw new SimulatedCrash(`crashed at ${step.crash}`);
        }
        bodies.set(key, [...(bodies.get(key) ?? []), request]);
        if ('pause' in step || 'remotePause' in step || 'edit' in step) {
          if ('pause' in step) hooks.onPause();
          else if ('remotePause' in step) hooks.onRemotePause();
          else hooks.onEdit();
          return later({ kind: 'ok', value: createOrReturn(key), status: 200, endpoint: POST });
        }
        switch (step.outcome) {
          case 'ok':
            return later({ kind: 'ok', value: createOrReturn(key), status: 200, endpoint: POST });
          case 'reset-after-commit':
            createOrReturn(key);
            return later(ambiguous('connection', undefined, POST));
          case 'timeout-after-commit':
            createOrReturn(key);
            return later(ambiguous('timeout', undefined, POST));
          case '500-before-commit':
            return later(ambiguous('server-error', 500, POST));
          case '429':
            return later({ kind: 'rate-limited', status: 429, retryAfterMs: 1_000, endpoint: POST, message: 'too many requests' });
          case '4xx':
            return later({ kind: 'rejected', status: 422, code: 'INVALID', message: 'refused', body: '{}', endpoint: POST });
        }
      },
      async findOrderByReference(key): Promise<Outcome<OrderLookup>> {
        if (service.crashed) throw new SimulatedCrash('the process is gone');
        const step = lookups.shift() ?? 'ok';
        if (step === 'ambiguous') return later(ambiguous('timeout', undefined, LOOKUP));
        if (step === '429') return later({ kind: 'rate-limited', status: 429, retryAfterMs: 500, endpoint: LOOKUP, message: 'too many requests' });
        const [order = null, ...duplicates] = ordersFor(key);
        return later({ kind: 'ok', value: { order, duplicates }, status: 200, endpoint: LOOKUP });
      },
      listProducts: unused,
      listAllProducts: unused,
      getAvailability: unused,
      getOrder: unused,
      listOrders: unused,
      orderPages: unusedGenerator,
      listAllOrders: unused,
    },
  };
  return service;
}

async function unused(): Promise<never> {
  throw new Error('not part of sending');
}

// eslint-disable-next-line require-yield
async function* unusedGenerator(): AsyncGenerator<never> {
  throw new Error('not part of sending');
}
