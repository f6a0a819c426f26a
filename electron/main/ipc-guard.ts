// Every IPC call passes here before the engine sees it (as VS Code's validatedIpcMain does): the
// sender must be our main window's main frame, showing our own page; then the app service parses
// the input with the contract's schema and answers as data. No 'electron' import, so the guard is
// tested with plain objects.
import { pathToFileURL } from 'node:url';
import type { Result } from '../../shared/contract.ts';

export interface FrameLike {
  readonly url: string;
}

export interface IpcEventLike {
  readonly senderFrame: FrameLike | null;
}

/** Where our page comes from: the dev server's origin, or the packaged index.html. */
export interface AppLocation {
  readonly devServerUrl?: string | undefined;
  readonly indexFile: string;
}

export function isAppUrl(url: string, location: AppLocation): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (location.devServerUrl) {
    try {
      return parsed.origin === new URL(location.devServerUrl).origin;
    } catch {
      return false;
    }
  }
  const expected = new URL(pathToFileURL(location.indexFile).href);
  return parsed.protocol === 'file:' && parsed.pathname === expected.pathname;
}

export function isTrustedSender(event: IpcEventLike, mainFrame: FrameLike | null | undefined, location: AppLocation): boolean {
  const frame = event.senderFrame;
  return frame !== null && mainFrame != null && frame === mainFrame && isAppUrl(frame.url, location);
}

export const FORBIDDEN: Result<never> = {
  ok: false,
  error: { code: 'forbidden', message: 'This request did not come from the Giftbatch window, so it was refused.' },
};

/** The handler ipcMain.handle registers for one call name. */
export function guardedHandler(
  name: string,
  deps: { mainFrame: () => FrameLike | null | undefined; location: AppLocation; call: (name: string, input: unknown) => Promise<Result<unknown>> },
): (event: IpcEventLike, input: unknown) => Promise<Result<unknown>> {
  return async (event, input) => {
    if (!isTrustedSender(event, deps.mainFrame(), deps.location)) return FORBIDDEN;
    return deps.call(name, input);
  };
}
