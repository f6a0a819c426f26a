// Spawns the browser shell (`electron/cli/web.ts`) as `npm run web` would, with a tiny renderer
// folder and a temp data folder, and reads its one stdout line.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

export interface Shell {
  child: ChildProcess;
  url: string;
  port: number;
  token: string;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  call(name: string, input: unknown, headers?: Record<string, string>): Promise<{ status: number; body: unknown; headers: Headers }>;
}

export function rendererFixture(dir: string): string {
  const out = join(dir, 'renderer');
  mkdirSync(join(out, 'assets'), { recursive: true });
  writeFileSync(join(out, 'index.html'), '<!doctype html><html><head><script type="module" src="./assets/app.js"></script></head><body>fixture</body></html>');
  writeFileSync(join(out, 'assets', 'app.js'), 'console.log("fixture");\n');
  return out;
}

export async function startShell(opts: { dataDir: string; rendererDir: string; args?: string[] }): Promise<Shell> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'electron', 'cli', 'web.ts'), '--data-dir', opts.dataDir, '--renderer-dir', opts.rendererDir, ...(opts.args ?? [])],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, GIFTBATCH_API_KEY: '' } },
  );
  children.push(child);
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const deadline = Date.now() + 30_000;
  while (!out.includes('\n')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the shell did not start: ${err}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const match = /^GIFTBATCH_URL=(http:\/\/127\.0\.0\.1:(\d+)\/#token=([A-Za-z0-9_-]+))\n/.exec(out);
  if (!match) throw new Error(`unexpected stdout: ${JSON.stringify(out)}`);
  const [, url = '', port = '0', token = ''] = match;
  return {
    child,
    url,
    port: Number(port),
    token,
    stdout: () => out,
    stderr: () => err,
    exited,
    async call(name, input, headers = {}) {
      const response = await fetch(`http://127.0.0.1:${port}/api/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-giftbatch-token': token, ...headers },
        body: JSON.stringify(input),
      });
      return { status: response.status, body: (await response.json()) as unknown, headers: response.headers };
    },
  };
}
