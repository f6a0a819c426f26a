// A data folder that cannot be created ends any command at once: exit 2, naming the folder and why.
// Under /proc, Node 20's mkdirSync(dir, { recursive: true }) never returned (status spun at full
// CPU for ever); a folder under a file was exit 1 with Node's raw ENOTDIR.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect, ROOT, spawnCli, tempDir, type CliResult } from '../../support/cli.ts';

/** Long enough for a slow start; the old code never ended, so the test stops it and fails. */
const DEADLINE_MS = 20_000;

async function ended(child: ReturnType<typeof spawnCli>): Promise<CliResult & { ms: number }> {
  const started = Date.now();
  const timer = setTimeout(() => child.kill('SIGKILL'), DEADLINE_MS);
  const result = await collect(child);
  clearTimeout(timer);
  return { ...result, ms: Date.now() - started };
}

const runWithin = (args: string[], env: NodeJS.ProcessEnv = {}) => ended(spawnCli(args, env));
const HINT = ": name the folder that keeps the campaigns (or leave --data-dir out for the app's).\n";

describe('a data folder that cannot be created', () => {
  it.skipIf(!existsSync('/proc'))('under /proc: status and validate exit 2 at once, naming the folder and why (was: for ever at full CPU)', async () => {
    const csv = join(tempDir(), 'list.csv');
    writeFileSync(csv, 'Name,Email\nAnn Lee,ann@example.com\n');
    const [status, deeper, validate] = await Promise.all([
      runWithin(['status', '--data-dir', '/proc/giftbatch-nope']),
      runWithin(['status', '--json', '--data-dir', '/proc/giftbatch-nope/deeper']),
      runWithin(['validate', csv, '--product', '1', '--data-dir', '/proc/giftbatch-nope']),
    ]);
    for (const result of [status, deeper, validate]) {
      expect(result.signal).toBeNull();
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
    }
    expect(status.stderr).toBe(`giftbatch: --data-dir /proc/giftbatch-nope cannot be created (/proc does not take new folders)${HINT}`);
    expect(deeper.stderr).toBe(`giftbatch: --data-dir /proc/giftbatch-nope/deeper cannot be created (/proc does not take new folders)${HINT}`);
    expect(validate.stderr).toBe(status.stderr);
  }, 60_000);

  it.skipIf(!existsSync('/proc'))('the app\'s own folder (GIFTBATCH_DATA_DIR) under /proc: exit 2, said without --data-dir', async () => {
    const result = await runWithin(['status'], { GIFTBATCH_DATA_DIR: '/proc/giftbatch-nope' });
    expect(result.signal).toBeNull();
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'giftbatch: The data folder /proc/giftbatch-nope cannot be created (/proc does not take new folders): name the folder that keeps the campaigns with --data-dir (or GIFTBATCH_DATA_DIR).\n',
    );
  }, 60_000);

  it.skipIf(!existsSync('/proc'))('the browser shell under /proc: exit 2 with the same facts (it opens the folder the same way)', async () => {
    const dir = tempDir();
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'electron', 'cli', 'web.ts'), '--data-dir', '/proc/giftbatch-nope', '--renderer-dir', dir], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const result = await ended(child);
    expect(result.signal).toBeNull();
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'giftbatch web: The data folder /proc/giftbatch-nope cannot be created (/proc does not take new folders). Name the folder that keeps the campaigns with --data-dir.\n',
    );
  }, 60_000);

  it('under a file: exit 2 naming the file in the way (was exit 1, ENOTDIR), nothing created', async () => {
    const dir = tempDir();
    const file = join(dir, 'recipients.csv');
    writeFileSync(file, 'Name,Email\n');
    const result = await runWithin(['status', '--data-dir', join(file, 'data')]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`giftbatch: --data-dir ${join(file, 'data')} cannot be created (${file} is a file, not a folder)${HINT}`);
    expect(statSync(file).isFile()).toBe(true);
  }, 60_000);

  // Root may write in any folder, so the permission is only refused to another user.
  it.skipIf(process.getuid?.() === 0)('in a read-only folder: exit 2 saying so', async () => {
    const parent = join(tempDir(), 'read-only');
    mkdirSync(parent, { mode: 0o500 });
    try {
      const result = await runWithin(['status', '--data-dir', join(parent, 'data', 'deeper')]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`giftbatch: --data-dir ${join(parent, 'data', 'deeper')} cannot be created (no permission to make a folder in ${parent})${HINT}`);
      expect(existsSync(join(parent, 'data'))).toBe(false);
    } finally {
      chmodSync(parent, 0o700);
    }
  }, 60_000);

  it('a missing folder, several levels deep, is still created (private to its owner) and used', async () => {
    const data = join(tempDir(), 'a', 'b', 'data');
    const result = await runWithin(['status', '--json', '--data-dir', data]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([]);
    expect(statSync(data).mode & 0o777).toBe(0o700);
  }, 60_000);
});
