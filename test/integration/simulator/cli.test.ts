import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./fixtures/run-simulator-cli.ts', import.meta.url));
const root = fileURLToPath(new URL('../../..', import.meta.url));

interface Run {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

function run(args: string[]): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: root });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => { out += String(d); });
  child.stderr.on('data', (d) => { err += String(d); });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exit };
}

async function waitForUrl(r: Run): Promise<string> {
  for (;;) {
    const match = /^SIMULATOR_URL=(\S+)\n/m.exec(r.stdout());
    if (match?.[1]) return match[1];
    const early = await Promise.race([r.exit.then(() => true), new Promise((res) => setTimeout(() => res(false), 50))]);
    if (early) throw new Error(`simulator exited before listening: ${r.stderr()}`);
  }
}

describe('runSimulatorCli', () => {
  it('prints exactly one SIMULATOR_URL line, serves, and exits 0 on SIGTERM', async () => {
    const r = run(['--item-delay', '0', '--keys', 'cli-key']);
    const url = await waitForUrl(r);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const ok = await fetch(`${url}/v1/products`, { headers: { 'SERVICE-API-KEY': 'cli-key' } });
    expect(ok.status).toBe(200);
    const refused = await fetch(`${url}/v1/products`, { headers: { 'SERVICE-API-KEY': 'other' } });
    expect(refused.status).toBe(401);
    r.child.kill('SIGTERM');
    expect(await r.exit).toBe(0);
    expect(r.stdout()).toBe(`SIMULATOR_URL=${url}\n`);
    expect(r.stderr()).toMatch(/listening/);
    expect(r.stderr()).toMatch(/GET \/v1\/products 200/);
  });

  it('applies fault flags (a 503 on every POST), logs no request with --log problems, and exits 0 on SIGINT', async () => {
    const r = run(['--fault-503', '1', '--log', 'problems']);
    const url = await waitForUrl(r);
    const res = await fetch(`${url}/v1/orders`, { method: 'POST', headers: { 'SERVICE-API-KEY': 'k', 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(503);
    r.child.kill('SIGINT');
    expect(await r.exit).toBe(0);
    // --log problems: no line per request (the benchmarks' engine must not pay for reading them).
    expect(r.stderr()).not.toMatch(/POST \/v1\/orders/);
  });

  it('a bad flag exits 2 with the reason on stderr and nothing on stdout', async () => {
    const r = run(['--fault-500', 'lots']);
    expect(await r.exit).toBe(2);
    expect(r.stdout()).toBe('');
    expect(r.stderr()).toMatch(/--fault-500 must be a number, got "lots"/);
  });
});
