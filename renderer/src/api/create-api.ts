// One typed client for both shells: the preload's window.giftbatch on the desktop, the same
// contract over HTTP and a WebSocket in the browser shell.
import type { GiftbatchApi } from '../../../shared/contract.ts';
import type { SocketLike } from './event-socket.ts';
import { createHttpApi, type ConnectionAware } from './http-api.ts';
import { takeTokenFromAddressBar } from './token.ts';

export type ClientApi = GiftbatchApi & Partial<ConnectionAware>;

declare global {
  interface Window {
    giftbatch?: GiftbatchApi;
  }
}

export class MissingTokenError extends Error {
  override readonly name = 'MissingTokenError';
}

function hasContract(value: unknown): value is GiftbatchApi {
  return typeof value === 'object' && value !== null && typeof (value as { 'app:info'?: unknown })['app:info'] === 'function';
}

function openBrowserSocket(url: string, protocols: readonly string[]): SocketLike {
  const ws = new WebSocket(url, [...protocols]);
  const socket: SocketLike = { onopen: null, onclose: null, onerror: null, onmessage: null, close: () => ws.close() };
  ws.onopen = (ev) => socket.onopen?.(ev);
  ws.onclose = (ev) => socket.onclose?.(ev);
  ws.onerror = (ev) => socket.onerror?.(ev);
  ws.onmessage = (ev: MessageEvent) => socket.onmessage?.({ data: ev.data });
  return socket;
}

function safeSessionStorage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

export function createApi(): ClientApi {
  if (hasContract(window.giftbatch)) return window.giftbatch;
  const token = takeTokenFromAddressBar(window.location, window.history, safeSessionStorage());
  if (token === null) {
    throw new MissingTokenError(
      'This page was opened without its access token. Open the full address that `npm start` (or `npm run web`) printed (it ends with #token=…).',
    );
  }
  return createHttpApi({
    origin: window.location.origin,
    token,
    fetch: (url, init) => window.fetch(url, init),
    openSocket: openBrowserSocket,
    timers: { setTimeout: (fn, ms) => window.setTimeout(fn, ms), clearTimeout: (h) => window.clearTimeout(h as number) },
  });
}
