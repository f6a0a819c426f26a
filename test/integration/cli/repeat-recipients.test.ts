import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { json, runCli, startSimulatorProcess, tempDir, writeRecipients, type SimulatorProcess } from '../../support/cli.ts';

// Issue 13, repeated recipients decided on purpose, through the CLI: a row whose address repeats an
// earlier line is skipped unless --gift-per-row; a recipient who already has a gift ordered from
// this environment is skipped unless --send-repeats (--yes alone is not it). Skipped rows are listed
// and the report says why. validate --json keeps its keys: valid counts rows that pass validation,
// repeated or not; duplicate_emails counts the repeats.
const KEY = 'cli-repeats-key';
let sim: SimulatorProcess;
beforeAll(async () => {
  sim = await startSimulatorProcess(['--log', 'problems']);
});
afterAll(async () => {
  await sim?.stop();
});

const orders = async () => (await sim.audit()).accounts[KEY]?.orders ?? [];

describe('repeated recipients', () => {
  it('a second campaign to the same people skips them by default, lists them, and sends them with --send-repeats', async () => {
    const dir = tempDir();
    const env = { GIFTBATCH_API_KEY: KEY };
    const common = ['--base-url', sim.url, '--data-dir', join(dir, 'data')];
    const csv = writeRecipients(dir, 3);
    const product = String(productIdFor(KEY, 'us-fixed-10'));
    expect((await runCli(['send', csv, '--product', product, '--yes', '--json', ...common], env)).code).toBe(0);
    const before = (await orders()).length;

    const again = await runCli(['send', csv, '--product', product, '--yes', '--json', ...common], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('0 rows ready to send, 0 need fixing, 3 skipped');
    expect(again.stderr).toMatch(/Line 2 \(recipient1@example\.com\) skipped: its recipient already has a gift ordered from this environment/);
    expect(again.stderr).toContain('Nothing left to send.');
    expect(json<{ counts: Record<string, number> }>(again.stdout).counts).toMatchObject({ skipped: 3, ready: 0, ordered: 0 });
    expect(await orders()).toHaveLength(before);

    const report = join(dir, 'again.csv');
    const id = json<{ campaign_id: string }>(again.stdout).campaign_id;
    expect((await runCli(['report', id, '--out', report, ...common], env)).code).toBe(0);
    expect(readFileSync(report, 'utf8').match(/Skipped by policy: its recipient already has a gift ordered from this environment/g)).toHaveLength(3);

    const sent = await runCli(['send', csv, '--product', product, '--send-repeats', '--yes', '--json', ...common], env);
    expect(sent.code, sent.stderr).toBe(0);
    expect(json<{ counts: Record<string, number> }>(sent.stdout).counts).toMatchObject({ ordered: 3, skipped: 0 });
    expect(await orders()).toHaveLength(before + 3);
  }, 90_000);

  it('a repeated line is skipped by default; --gift-per-row sends it and says who gets more than one gift; validate counts both', async () => {
    const dir = tempDir();
    const env = { GIFTBATCH_API_KEY: 'cli-repeats-in-file' };
    const common = ['--base-url', sim.url, '--data-dir', join(dir, 'data')];
    const csv = join(dir, 'twice.csv');
    writeFileSync(csv, 'Name,Email\nAda,ada@example.com\nBo,bo@example.com\nAda again,ADA@example.com\n');
    const product = String(productIdFor('cli-repeats-in-file', 'us-fixed-10'));

    const validated = json<Record<string, unknown>>((await runCli(['validate', csv, '--product', product, '--json', ...common], env)).stdout);
    expect(validated).toMatchObject({ rows: 3, valid: 3, invalid: 0, duplicate_emails: 1 });

    const once = await runCli(['send', csv, '--product', product, '--yes', '--json', ...common], env);
    expect(once.code, once.stderr).toBe(0);
    expect(once.stderr).toMatch(/Line 4 \(ADA@example\.com\) skipped: its address repeats an earlier line of this campaign/);
    expect(json<{ counts: Record<string, number> }>(once.stdout).counts).toMatchObject({ ordered: 2, skipped: 1 });

    const perRow = await runCli(['send', csv, '--product', product, '--gift-per-row', '--send-repeats', '--yes', '--json', ...common], env);
    expect(perRow.code, perRow.stderr).toBe(0);
    expect(perRow.stderr).toContain('1 person gets more than one gift from this campaign (1 gift beyond the first), as chosen.');
    expect(json<{ counts: Record<string, number> }>(perRow.stdout).counts).toMatchObject({ ordered: 3, skipped: 0 });
  }, 90_000);
});
