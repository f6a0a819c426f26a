// A simulator process killed with SIGKILL in the middle of a burst of orders, then started again on
// the same state file: every order a client got a 200 for must be there, once.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditReport } from '../../../electron/simulator/index.ts';
import { orderBody } from '../../support/simulator-http.ts';

const script = fileURLToPath(new URL('./fixtures/run-simulator-cli.ts', import.meta.url));
const root = fileURLToPath(new URL('../../..', import.meta.url));
const KEY = 'kill-key';
const HEADERS = { 'SERVICE-API-KEY': KEY, 'content-type': 'application/json', accept: 'application/json' };

interface Proc {
  child: ChildProcessWithoutNullStreams;
  url: string;
  exit: Promise<NodeJS.Signals | number | null>;
  stderr: () => string;
}

let dir: string;
let stateFile: string;
const children: ChildProcessWithoutNullStreams[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sim-kill-'));
  stateFile = join(dir, 'simulator-state.jsonl');
});

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function startProcess(): Promise<Proc> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, '--state-file', stateFile, '--item-delay', '0'], { cwd: root });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => { out += String(d); });
  child.stderr.on('data', (d) => { err += String(d); });
  const exit = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
  for (;;) {
    const match = /^SIMULATOR_URL=(\S+)\n/m.exec(out);
    if (match?.[1]) return { child, url: match[1], exit, stderr: () => err };
    const ended = await Promise.race([exit.then(() => true), new Promise((r) => setTimeout(() => r(false), 50))]);
    if (ended) throw new Error(`simulator exited before listening: ${err}`);
  }
}

describe('simulator state file under SIGKILL', () => {
  it('a simulator killed with SIGKILL mid-burst loses no order it acknowledged, and creates none twice', async () => {
    const first = await startProcess();
    const bodies = Array.from({ length: 300 }, (_, i) => orderBody(KEY, { external_reference_id: `kill-${i}` }));
    const acknowledged = new Map<string, Record<string, unknown>>();
    let next = 0;
    let killed = false;
    const worker = async (): Promise<void> => {
      while (!killed && next < bodies.length) {
        const body = bodies[next++];
        try {
          const res = await fetch(`${first.url}/v1/orders`, { method: 'POST', headers: HEADERS, body: JSON.stringify(body) });
          const order = (await res.json()) as Record<string, unknown>;
          if (res.status === 200) acknowledged.set(body?.['external_reference_id'] as string, order);
        } catch {
          // The kill: no answer, so the client does not know (and the test asserts nothing about it).
        }
        // Kill while other workers still have requests in flight.
        if (!killed && acknowledged.size >= 60) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(await first.exit).toBe('SIGKILL');
    expect(acknowledged.size).toBeGreaterThanOrEqual(60);

    const second = await startProcess();
    for (const [ref, order] of acknowledged) {
      const res = await fetch(`${second.url}/v1/orders/${String(order['id'])}`, { headers: HEADERS });
      expect(res.status, `order ${String(order['id'])} (${ref}) after the restart`).toBe(200);
      const after = (await res.json()) as Record<string, unknown>;
      expect(after['external_reference_id']).toBe(ref);
      expect(after['total_price_charged']).toEqual(order['total_price_charged']);
    }
    // Retrying every request, answered or not, gives back the acknowledged order and never a second one.
    for (const body of bodies.slice(0, next)) {
      const res = await fetch(`${second.url}/v1/orders`, { method: 'POST', headers: HEADERS, body: JSON.stringify(body) });
      expect(res.status).toBe(200);
      const order = (await res.json()) as Record<string, unknown>;
      const before = acknowledged.get(body['external_reference_id'] as string);
      if (before) expect(order['id']).toBe(before['id']);
    }
    const audit = (await (await fetch(`${second.url}/__audit`)).json()) as AuditReport;
    const account = audit.accounts[KEY];
    expect(account?.duplicates).toEqual([]);
    expect(account?.orders).toHaveLength(next);
    expect(account?.conflictingRetries).toEqual([]);
    second.child.kill('SIGTERM');
    expect(await second.exit).toBe(0);
  });
});
