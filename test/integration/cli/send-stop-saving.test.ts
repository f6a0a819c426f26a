// giftbatch send, Ctrl-C while the draft is being saved: the create is stopped (campaigns:stopCreate),
// nothing is left in the data folder (no campaign, hidden or shown, no row, no write-ahead log), nothing
// is sent, and the command says so and exits 130. Before, the process died on the signal and left
// the rows stored so far behind a hidden campaign until the folder was next opened.
import Database from 'better-sqlite3';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { EXIT } from '../../../electron/cli/exit-codes.ts';
import { collect, json, runCli, spawnCli, startSimulatorProcess, tempDir, writeRecipients, type SimulatorProcess } from '../../support/cli.ts';

const KEY = 'stop-saving-key-5e21';
let sim: SimulatorProcess;
beforeAll(async () => {
  sim = await startSimulatorProcess(['--log', 'problems']);
});
afterAll(async () => {
  await sim?.stop();
});

describe('giftbatch send: Ctrl-C while the draft is being saved', () => {
  it('stops the save: exit 130, a clear message, nothing stored or sent, the folder clean', async () => {
    const dir = tempDir();
    const dataDir = join(dir, 'data');
    const common = ['--base-url', sim.url, '--data-dir', dataDir];
    // 60,000 rows: saving takes seconds, and stderr (not a terminal) tells how far every 2 s at most.
    const csv = writeRecipients(dir, 60_000, '10');
    const child = spawnCli(['send', csv, '--product', String(productIdFor(KEY, 'us-fixed-10')), '--yes', '--json', ...common], { GIFTBATCH_API_KEY: KEY });
    const result = collect(child);
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    // Ctrl-C once the first part of the draft is stored (the import worker stores it in parts behind a
    // hidden campaign), not at the first progress line: that one comes 2 s into the save, when a fast
    // moment of the machine may have stored nearly all of it and the stop is rightly too late.
    const storedRows = (): number => {
      try {
        const db = new Database(join(dataDir, 'giftbatch.sqlite'), { readonly: true, fileMustExist: true });
        try {
          return (db.prepare('SELECT COUNT(*) AS n FROM recipients').get() as { n: number }).n;
        } finally {
          db.close();
        }
      } catch {
        return 0; // not created yet, or its schema not yet there
      }
    };
    await expect.poll(() => storedRows() > 0, { timeout: 30_000, interval: 20 }).toBe(true);
    child.kill('SIGINT');

    const ended = await result;
    expect(ended.signal).toBeNull();
    expect(ended.code).toBe(EXIT.interrupted);
    expect(ended.stdout).toBe('');
    expect(ended.stderr).toMatch(/Stopping: nothing of this draft will be saved/);
    expect(ended.stderr).toMatch(/Saving the draft was stopped: nothing was saved and no campaign was created\. Nothing was sent\.\n$/);

    // The engine closed cleanly: no write-ahead log left, and nothing in the file, hidden or shown.
    expect(readdirSync(dataDir)).toEqual(['giftbatch.sqlite']);
    const db = new Database(join(dataDir, 'giftbatch.sqlite'), { readonly: true });
    try {
      expect(db.prepare('SELECT COUNT(*) AS n FROM campaigns').get()).toEqual({ n: 0 });
      expect(db.prepare('SELECT COUNT(*) AS n FROM recipients').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
    expect((await sim.audit()).accounts[KEY]?.orders ?? []).toEqual([]);
    const status = await runCli(['status', '--json', ...common], { GIFTBATCH_API_KEY: KEY });
    expect(json<unknown[]>(status.stdout)).toEqual([]);
  });
});
