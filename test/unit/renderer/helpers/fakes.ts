// A fake of the contract (answers per call, recorded inputs, emitted events) and a manual clock
// with timers, for the renderer's store and transport tests.
import type { CallInput, CallName, CallOutput, CampaignSummary, EventName, EventPayload, GiftbatchApi, Result, RowDto } from '../../../../shared/contract.ts';
import type { Timers } from '../../../../renderer/src/api/event-socket.ts';
import type { Preflight } from '../../../../renderer/src/stores/wizard-store.ts';

type Handler<C extends CallName> = (input: CallInput<C>) => Result<CallOutput<C>> | Promise<Result<CallOutput<C>>>;
export type Handlers = { [C in CallName]?: Handler<C> };

export interface FakeApi {
  api: GiftbatchApi;
  calls: Array<{ name: CallName; input: unknown }>;
  callsOf<C extends CallName>(name: C): Array<CallInput<C>>;
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
}

export function fakeApi(handlers: Handlers): FakeApi {
  const calls: Array<{ name: CallName; input: unknown }> = [];
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const api = new Proxy({} as GiftbatchApi, {
    get(_target, prop: string) {
      if (prop === 'on') {
        return (event: string, listener: (p: unknown) => void) => {
          const set = listeners.get(event) ?? new Set();
          listeners.set(event, set);
          set.add(listener);
          return () => set.delete(listener);
        };
      }
      if (prop === 'then') return undefined;
      return async (input: unknown) => {
        calls.push({ name: prop as CallName, input });
        const handler = handlers[prop as CallName] as ((i: unknown) => unknown) | undefined;
        if (!handler) return { ok: false, error: { code: 'internal', message: `no fake for ${prop}` } };
        return handler(input);
      };
    },
  });
  return {
    api,
    calls,
    callsOf: <C extends CallName>(name: C) => calls.filter((c) => c.name === name).map((c) => c.input as CallInput<C>),
    emit: (event, payload) => {
      for (const l of listeners.get(event) ?? []) l(payload);
    },
  };
}

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

export class ManualClock implements Timers {
  time = 1_700_000_000_000;
  private seq = 0;
  private pending = new Map<number, { at: number; fn: () => void }>();

  now = (): number => this.time;

  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.pending.set(id, { at: this.time + ms, fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  get timerCount(): number {
    return this.pending.size;
  }

  /** Moves time forward, running each timer that falls due, in order. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const next = [...this.pending.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!next) break;
      this.pending.delete(next[0]);
      this.time = next[1].at;
      next[1].fn();
    }
    this.time = end;
  }
}

/** Lets pending promise callbacks run (the stores await the fake API). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
  await new Promise((r) => setTimeout(r, 0));
}

export function summary(overrides: Partial<CampaignSummary> = {}): CampaignSummary {
  return {
    id: 'c1',
    name: 'Gala',
    environment: 'simulator',
    serviceUrl: 'simulator://embedded',
    products: 1,
    productList: [{ productId: 7, name: 'Coffee $10' }],
    giftPerRow: false,
    productId: 7,
    productName: 'Coffee $10',
    currency: 'USD',
    sendState: 'sending',
    pausedReason: null,
    pausedDetail: null,
    running: true,
    counts: { invalid: 0, ready: 0, sending: 0, ordered: 0, delivered: 0, failed: 0, cancelled: 0, skipped: 0 },
    charged: [],
    chargedCancelled: [],
    chargedExpired: [],
    remaining: [],
    createdAt: 1_700_000_000_000,
    nextPollAt: null,
    lastPolledAt: null,
    acceptanceExpired: 0,
    flagged: 0,
    unchargedOrders: 0,
    heldRows: 0,
    // Every failed row can be retried unless told otherwise (none was taken by a follow-up).
    retryable: overrides.counts?.failed ?? 0,
    countryCode: 'US',
    defaultAmount: null,
    followUpRows: { failed: overrides.counts?.failed ?? 0, cancelled: overrides.counts?.cancelled ?? 0, expired: 0 },
    failedFollowedUp: [],
    expiredFollowedUp: [],
    failedReasons: [],
    ...overrides,
  };
}

export function row(id: number, overrides: Partial<RowDto> = {}): RowDto {
  return {
    id,
    line: id + 1,
    name: `Guest ${id}`,
    email: `guest${id}@example.net`,
    amount: { currency: 'USD', amount: '10.00' },
    amountText: null,
    message: null,
    sentMessage: null,
    cells: null,
    skippedBy: null,
    productId: 5,
    productName: 'Northwind Books Gift Card $25',
    state: 'ready',
    orderId: null,
    orderStatus: null,
    itemId: null,
    itemStatus: null,
    charged: null,
    issued: null,
    findings: [],
    exchangeRate: null,
    feeRate: null,
    externalReferenceId: `ref-${id}`,
    attempts: 0,
    lastError: null,
    errors: [],
    warnings: [],
    sentAt: null,
    deliveredAt: null,
    acceptanceExpiry: null,
    acceptanceExpired: false,
    heldAt: null,
    ...overrides,
  };
}

/** A pre-flight answer for `rowsToSend` USD 10.00 gifts; not `okay`: the supplier out of stock. */
export function preflight(rowsToSend: number, okay = true, problems = okay ? [] : ['The supplier reports product 7 out of stock.']): Preflight {
  return {
    ok: okay,
    problems,
    rowsToSend,
    totals: rowsToSend > 0 ? [{ currency: 'USD', amount: `${rowsToSend * 10}.00` }] : [],
    availability: null,
    repeatRecipients: { count: 0, lines: [] },
    accountChanged: null,
    repeatsInCampaign: { people: 0, rows: 0 },
    byProduct: [],
  };
}
