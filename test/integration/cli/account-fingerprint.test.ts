import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { json, runCli, startSimulatorProcess, tempDir, writeRecipients, type SimulatorProcess } from '../../support/cli.ts';

// Issue 11, item 5: a campaign records a non-reversible fingerprint of the account (key) it was
// sent under; resuming it under another key is refused, nothing sent or looked up, unless the
// person confirms that the new key is the same account. The fingerprint never gives the key away.
const KEY_A = 'account-a-key-7f3e91';
const KEY_B = 'account-b-key-02cd5a';
let sim: SimulatorProcess;
beforeAll(async () => {
  sim = await startSimulatorProcess(['--latency', '100', '--log', 'problems']);
});
afterAll(async () => {
  await sim?.stop();
});

describe('the account a campaign was sent under', () => {
  it('another key is refused before anything is sent or looked up; the same key resumes; --same-account lets a person vouch', async () => {
    const dir = tempDir();
    const dataDir = join(dir, 'data');
    const common = ['--base-url', sim.url, '--data-dir', dataDir];
    const csv = writeRecipients(dir, 5);
    // Killed while its first POST is on the wire: one row is left sending, its order maybe made.
    const crashed = await runCli(['send', csv, '--product', String(productIdFor(KEY_A, 'us-fixed-25')), '--yes', '--json', ...common], {
      GIFTBATCH_API_KEY: KEY_A,
      GIFTBATCH_CRASH_AT: 'after-post-sent',
    });
    expect(crashed.signal).toBe('SIGKILL');
    const [campaign] = json<{ id: string; counts: Record<string, number> }[]>((await runCli(['status', '--json', ...common], { GIFTBATCH_API_KEY: KEY_A })).stdout);
    expect(campaign?.counts.sending).toBe(1);
    const id = campaign!.id;

    const other = await runCli(['resume', id, '--yes', '--json', ...common], { GIFTBATCH_API_KEY: KEY_B });
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/was sent under another API key than the one set now.*Nothing was sent or looked up.*--same-account/);
    expect((await sim.audit()).accounts[KEY_B]).toBeUndefined();

    // The person vouches for the new key: it is let through (here it is really another account,
    // whose catalog has no such product, so the pre-flight stops it and only looks the row up).
    const vouched = await runCli(['resume', id, '--same-account', '--yes', '--json', ...common], { GIFTBATCH_API_KEY: KEY_B });
    expect(vouched.stderr).not.toMatch(/another API key/);
    expect(vouched.stderr).toMatch(/no longer in the catalog/);
    expect((await sim.audit()).accounts[KEY_B]?.orders ?? []).toHaveLength(0);

    // The fingerprint on record is now B's; A is refused in turn, then vouched for, and finishes.
    const back = await runCli(['resume', id, '--yes', '--json', ...common], { GIFTBATCH_API_KEY: KEY_A });
    expect(back.code).toBe(1);
    const done = await runCli(['resume', id, '--same-account', '--yes', '--json', ...common], { GIFTBATCH_API_KEY: KEY_A });
    expect(done.code, done.stderr).toBe(0);
    expect(json<{ counts: Record<string, number> }>(done.stdout).counts).toMatchObject({ ordered: 5, sending: 0 });
    const orders = (await sim.audit()).accounts[KEY_A]?.orders ?? [];
    expect(orders).toHaveLength(5);

    // Neither key is anywhere in the data folder, fingerprint or not.
    for (const file of readdirSync(dataDir)) {
      const bytes = readFileSync(join(dataDir, file)).toString('latin1');
      expect(bytes.includes(KEY_A) || bytes.includes(KEY_B), file).toBe(false);
    }
  }, 90_000);
});
