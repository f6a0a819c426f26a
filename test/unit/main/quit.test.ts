// The desktop app's before-quit listener (electron/main/quit.ts): the close runs once, every quit
// meanwhile waits for it, and it always ends the process, even when the close throws or hangs.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQuitGate, QUIT_TIMEOUT_MS } from '../../../electron/main/quit.ts';

function harness(close: () => Promise<void>, timeoutMs?: number) {
  const calls: string[] = [];
  const logged: string[] = [];
  const gate = createQuitGate({
    close: async () => {
      calls.push('close');
      await close();
    },
    quit: () => calls.push('quit'),
    exit: (code) => calls.push(`exit ${code}`),
    log: (message) => logged.push(message),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
  const quitEvent = () => {
    const event = { prevented: false, preventDefault: () => (event.prevented = true) };
    gate(event);
    return event.prevented;
  };
  return { calls, logged, quitEvent };
}

function deferred() {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('quitting the desktop app', () => {
  it('holds the first quit until the close is done, then quits once; the quit it causes goes through', async () => {
    const closing = deferred();
    const { calls, logged, quitEvent } = harness(() => closing.promise);
    expect(quitEvent()).toBe(true);
    await Promise.resolve();
    expect(calls).toEqual(['close']);
    closing.resolve();
    await vi.waitFor(() => expect(calls).toEqual(['close', 'quit']));
    // app.quit() emits before-quit again: this time it is let through.
    expect(quitEvent()).toBe(false);
    expect(calls).toEqual(['close', 'quit']);
    expect(logged).toEqual([]);
  });

  it('holds a second quit while closing instead of letting it cut the close short, and closes only once', async () => {
    const closing = deferred();
    const { calls, quitEvent } = harness(() => closing.promise);
    expect(quitEvent()).toBe(true);
    expect(quitEvent()).toBe(true);
    expect(quitEvent()).toBe(true);
    closing.resolve();
    await vi.waitFor(() => expect(calls).toEqual(['close', 'quit']));
  });

  it('a close that throws is logged and the app exits anyway (a process left running would keep the single-instance lock)', async () => {
    const { calls, logged, quitEvent } = harness(() => Promise.reject(new Error('database is locked')));
    expect(quitEvent()).toBe(true);
    await vi.waitFor(() => expect(calls).toEqual(['close', 'exit 1']));
    expect(logged).toEqual([expect.stringMatching(/^closing failed, quitting anyway: Error: database is locked/)]);
    expect(quitEvent()).toBe(false);
  });

  it('a close that never settles is given up after the timeout, logged, and the app exits', async () => {
    vi.useFakeTimers();
    const { calls, logged, quitEvent } = harness(() => new Promise<void>(() => undefined));
    expect(quitEvent()).toBe(true);
    await vi.advanceTimersByTimeAsync(QUIT_TIMEOUT_MS - 1);
    expect(calls).toEqual(['close']);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual(['close', 'exit 1']);
    expect(logged).toEqual(['closing took longer than 30 s; quitting anyway (an unfinished send is checked on the next start)']);
  });

  it('outlasts the send runs, which give up waiting after 15 s', () => {
    expect(QUIT_TIMEOUT_MS).toBeGreaterThan(15_000);
  });
});
