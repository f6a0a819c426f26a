// What every store needs from the outside world, injected so tests run with a fake API and clock.
import type { ClientApi } from '../api/create-api.ts';
import type { Timers } from '../api/event-socket.ts';
import type { ErrorCode, Result } from '../../../shared/contract.ts';

export interface StoreDeps {
  api: ClientApi;
  timers: Timers;
  now: () => number;
}

export interface UiError {
  code: ErrorCode;
  message: string;
}

/** Turns a thrown transport failure into the same error-as-data shape the contract uses. */
export async function settle<T>(call: Promise<Result<T>>): Promise<Result<T>> {
  try {
    return await call;
  } catch (error) {
    return { ok: false, error: { code: 'internal', message: error instanceof Error ? error.message : String(error) } };
  }
}
