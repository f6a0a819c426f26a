// The browser shell binds to 127.0.0.1 only (issue 5, Security). The shell test checks the
// machine's external addresses, which a CI box may not have; these addresses always exist on
// Linux: the rest of 127.0.0.0/8 and ::1 reach a server bound to any address, never one bound to
// 127.0.0.1 alone.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../support/index.ts';
import { rendererFixture, startShell } from '../../support/browser-shell.ts';

function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(2_000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

describe('browser shell address', () => {
  it.runIf(process.platform === 'linux')('answers on 127.0.0.1 and nowhere else: not 127.0.0.2, not ::1', async () => {
    const dir = tempDir();
    const shell = await startShell({ dataDir: `${dir}/data`, rendererDir: rendererFixture(dir) });
    expect(await reachable('127.0.0.1', shell.port)).toBe(true);
    expect(await reachable('127.0.0.2', shell.port)).toBe(false);
    expect(await reachable('::1', shell.port)).toBe(false);
    shell.child.kill('SIGTERM');
    await shell.exited;
  });
});
