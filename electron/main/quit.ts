// How the desktop app quits, with no 'electron' import so it is tested with plain objects. The first
// quit is held back while the app service pauses its sends (they are marked interrupted) and the
// engine closes the database; then the app quits for real. Every further quit while that runs is
// held back too (a second Cmd+Q must not cut the close short), and the close ALWAYS ends in a quit:
// a close that throws or never settles is logged and the app exits anyway, since a process left
// running without a window would keep the single-instance lock and the app could not be opened again.
// Exiting mid-close is no worse than a crash, which the send rules survive (DESIGN.md: intent is
// committed before each POST, and every `sending` row is reconciled on the next start).

export interface QuitEventLike {
  preventDefault(): void;
}

export interface QuitGateOptions {
  /** Pauses the sends and closes the engine; nothing to close yet (the engine never opened) is fine. */
  readonly close: () => Promise<void>;
  /** Quits for real (app.quit()): the gate lets the quit it causes through. */
  readonly quit: () => void;
  /** Ends the process at once when the close failed or hung (app.exit). */
  readonly exit: (code: number) => void;
  readonly log: (message: string) => void;
  /** How long the close may take before the app exits anyway; the send runs give up after 15 s. */
  readonly timeoutMs?: number;
}

export const QUIT_TIMEOUT_MS = 30_000;

/** The app's `before-quit` listener. */
export function createQuitGate(options: QuitGateOptions): (event: QuitEventLike) => void {
  let state: 'open' | 'closing' | 'closed' = 'open';
  const timeoutMs = options.timeoutMs ?? QUIT_TIMEOUT_MS;
  return (event) => {
    if (state === 'closed') return;
    event.preventDefault();
    if (state === 'closing') return;
    state = 'closing';
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    void Promise.race([options.close().then(() => 'closed' as const), deadline])
      .then(
        (outcome) => {
          if (outcome === 'closed') return 0;
          options.log(`closing took longer than ${Math.round(timeoutMs / 1000)} s; quitting anyway (an unfinished send is checked on the next start)`);
          return 1;
        },
        (error: unknown) => {
          options.log(`closing failed, quitting anyway: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
          return 1;
        },
      )
      .then((code) => {
        clearTimeout(timer);
        state = 'closed';
        if (code === 0) options.quit();
        else options.exit(code);
      });
  };
}
