// The contract over HTTP and a WebSocket, for the browser shell: `POST /api/<call>` with the input
// as JSON and the per-launch token in a header; the answer is a `Result`. Outputs are parsed with
// the contract's schemas, so a mismatch between renderer and server shows as an error, not as a
// half-drawn screen.
import { contract, errorCodes, EVENTS_PROTOCOL, PROGRESS_ID_HEADER, TOKEN_PROTOCOL_PREFIX, type CallInput, type CallName, type CallOutput, type ErrorCode, type GiftbatchApi, type Result } from '../../../shared/contract.ts';
import { createEventSocket, type ConnectionState, type SocketLike, type Timers } from './event-socket.ts';
import { DIFFERENT_BUILDS, RESTART_BROWSER_SHELL } from './different-builds.ts';

export type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; body: string }) => Promise<{
  status: number;
  text(): Promise<string>;
}>;

export interface HttpApiOptions {
  /** The page's origin, e.g. http://127.0.0.1:5123 */
  origin: string;
  token: string;
  fetch: FetchLike;
  openSocket: (url: string, protocols: readonly string[]) => SocketLike;
  timers: Timers;
  random?: () => number;
}

export interface ConnectionAware {
  onConnectionChange(listener: (state: ConnectionState) => void): () => void;
  close(): void;
}

export type HttpApi = GiftbatchApi & ConnectionAware;

const SERVER_GONE =
  "Giftbatch's local server did not answer. Check that the terminal running `npm start` (or `npm run web`) is still open, restart it if needed, then open the address it prints.";

function fail(code: ErrorCode, message: string): { ok: false; error: { code: ErrorCode; message: string } } {
  return { ok: false, error: { code, message } };
}

function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (errorCodes as readonly string[]).includes(value);
}

/** Reads a server answer into a Result, checking the value against the call's output schema. */
export function readResult<C extends CallName>(name: C, status: number, text: string): Result<CallOutput<C>> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    if (status === 401 || status === 403) {
      return fail('forbidden', 'The server refused this page\'s access token. Open the address `npm start` (or `npm run web`) printed last (it holds a fresh token).');
    }
    return fail('internal', `The server answered ${name} with HTTP ${status} and no readable result. Reload the page; if it persists, restart \`npm start\` (or \`npm run web\`).`);
  }
  if (typeof body !== 'object' || body === null || !('ok' in body)) {
    return fail('internal', `The server answered ${name} with something that is not a result (HTTP ${status}).`);
  }
  const envelope = body as { ok: unknown; value?: unknown; error?: unknown };
  if (envelope.ok === true) {
    const parsed = contract[name].output.safeParse(envelope.value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
      return fail(
        'contract-mismatch',
        `${DIFFERENT_BUILDS} ${RESTART_BROWSER_SHELL} (Its answer to ${name} is not what this window reads${where}: ${issue?.message ?? 'unknown difference'}.)`,
      );
    }
    return { ok: true, value: parsed.data as CallOutput<C> };
  }
  const error = envelope.error as { code?: unknown; message?: unknown } | undefined;
  const message = typeof error?.message === 'string' && error.message !== '' ? error.message : `${name} failed (HTTP ${status}).`;
  return fail(isErrorCode(error?.code) ? error.code : 'internal', message);
}

/**
 * A create's progressId in a header too: the server reads it before the body (the whole file), so a
 * Stop pressed while that body is still uploading is held for this create, not answered 'not-running'.
 */
export function progressHeader(name: CallName, input: unknown): Record<string, string> {
  if (name !== 'campaigns:create' || typeof input !== 'object' || input === null) return {};
  const id = (input as { progressId?: unknown }).progressId;
  return typeof id === 'string' && id !== '' ? { [PROGRESS_ID_HEADER]: encodeURIComponent(id) } : {};
}

export function createHttpApi(options: HttpApiOptions): HttpApi {
  const wsOrigin = options.origin.replace(/^http/, 'ws');
  const socket = createEventSocket({
    // The token goes as a subprotocol, never in the request line (see the server's EVENTS_PROTOCOL).
    url: `${wsOrigin}/api/events`,
    protocols: [EVENTS_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${options.token}`],
    openSocket: options.openSocket,
    timers: options.timers,
    random: options.random,
  });

  async function call<C extends CallName>(name: C, input: CallInput<C>): Promise<Result<CallOutput<C>>> {
    let status: number;
    let text: string;
    try {
      const response = await options.fetch(`${options.origin}/api/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-giftbatch-token': options.token, ...progressHeader(name, input) },
        body: JSON.stringify(input),
      });
      status = response.status;
      text = await response.text();
    } catch {
      return fail('internal', SERVER_GONE);
    }
    return readResult(name, status, text);
  }

  const calls = Object.fromEntries(
    (Object.keys(contract) as CallName[]).map((name) => [name, (input: CallInput<typeof name>) => call(name, input)]),
  ) as { [C in CallName]: GiftbatchApi[C] };

  return {
    ...calls,
    on: (event, listener) => socket.on(event, listener),
    onConnectionChange: (listener) => socket.onConnectionChange(listener),
    close: () => socket.close(),
  };
}
