// The browser shell's push channel: one WebSocket, reconnected with backoff whenever it drops.
// Messages are `{ "event": name, "payload": ... }`, parsed with the contract's event schemas;
// anything else is ignored rather than trusted.
import { events, type EventName, type EventPayload } from '../../../shared/contract.ts';
import { DEFAULT_BACKOFF, reconnectDelay, type BackoffPolicy } from './backoff.ts';

/** The part of the DOM WebSocket this module uses, so tests can hand in a fake. */
export interface SocketLike {
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  close(): void;
}

export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface EventSocketOptions {
  url: string;
  /** WebSocket subprotocols offered (the browser shell's carries the token: never in the URL). */
  protocols?: readonly string[];
  openSocket: (url: string, protocols: readonly string[]) => SocketLike;
  timers: Timers;
  random?: () => number;
  backoff?: BackoffPolicy;
}

type AnyListener = (payload: unknown) => void;

export interface EventSocket {
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  onConnectionChange(listener: (state: ConnectionState) => void): () => void;
  state(): ConnectionState;
  close(): void;
}

export function parseEventMessage(data: unknown): { event: EventName; payload: unknown } | null {
  if (typeof data !== 'string') return null;
  let message: unknown;
  try {
    message = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof message !== 'object' || message === null) return null;
  const { event, payload } = message as { event?: unknown; payload?: unknown };
  if (typeof event !== 'string' || !(event in events)) return null;
  const name = event as EventName;
  const parsed = events[name].safeParse(payload);
  return parsed.success ? { event: name, payload: parsed.data } : null;
}

export function createEventSocket(options: EventSocketOptions): EventSocket {
  const random = options.random ?? Math.random;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const listeners = new Map<EventName, Set<AnyListener>>();
  const connectionListeners = new Set<(state: ConnectionState) => void>();
  let socket: SocketLike | null = null;
  let current: ConnectionState = 'closed';
  let attempt = 0;
  let retryHandle: unknown = null;
  let closed = false;

  const setState = (next: ConnectionState): void => {
    if (next === current) return;
    current = next;
    for (const l of connectionListeners) l(next);
  };

  const connect = (): void => {
    if (closed || socket) return;
    setState(attempt === 0 ? 'connecting' : 'reconnecting');
    let ws: SocketLike;
    try {
      ws = options.openSocket(options.url, options.protocols ?? []);
    } catch {
      scheduleReconnect();
      return;
    }
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      setState('open');
    };
    ws.onmessage = (ev) => {
      const message = parseEventMessage(ev.data);
      if (!message) return;
      for (const l of listeners.get(message.event) ?? []) l(message.payload);
    };
    ws.onerror = () => {
      // onclose follows and schedules the reconnect.
    };
    ws.onclose = () => {
      if (socket === ws) socket = null;
      scheduleReconnect();
    };
  };

  const scheduleReconnect = (): void => {
    if (closed || retryHandle !== null) return;
    setState('reconnecting');
    const delay = reconnectDelay(attempt, random, backoff);
    attempt++;
    retryHandle = options.timers.setTimeout(() => {
      retryHandle = null;
      connect();
    }, delay);
  };

  return {
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) {
        set = new Set();
        listeners.set(event, set);
      }
      const l = listener as AnyListener;
      set.add(l);
      connect();
      return () => {
        set.delete(l);
      };
    },
    onConnectionChange(listener) {
      connectionListeners.add(listener);
      return () => {
        connectionListeners.delete(listener);
      };
    },
    state: () => current,
    close() {
      closed = true;
      if (retryHandle !== null) options.timers.clearTimeout(retryHandle);
      retryHandle = null;
      const ws = socket;
      socket = null;
      ws?.close();
      setState('closed');
    },
  };
}
