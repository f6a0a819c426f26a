import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { json, runCli, startSimulatorProcess, tempDir, writeRecipients, type SimulatorProcess } from '../../support/cli.ts';

// Every bad input to the CLI gets a clear message on stderr and the documented exit code:
// 1 rows invalid or failed, 2 usage error, 3 service unreachable or key rejected.
const KEY = 'cli-errors-key';
let sim: SimulatorProcess;
let dir: string;
let base: string[];
const env = { GIFTBATCH_API_KEY: KEY };

beforeAll(async () => {
  sim = await startSimulatorProcess(['--keys', KEY]);
  dir = tempDir();
  base = ['--base-url', sim.url, '--data-dir', join(dir, 'data')];
});
afterAll(async () => {
  await sim?.stop();
});

describe('the giftbatch CLI on bad input', () => {
  it('usage errors exit 2 and say what is wrong', async () => {
    const csv = writeRecipients(dir, 3);
    const product = String(productIdFor(KEY, 'us-fixed-10'));
    const cases: [string[], RegExp][] = [
      [['bogus'], /Unknown command "bogus"/],
      [['products', '--env', 'staging', ...base], /--env must be one of simulator, sandbox, production/],
      [['products', ...base], /--country takes a two-letter country code/],
      [['products', '--country', 'US', '--colour', 'red', ...base], /Unknown option '--colour'/],
      [['validate', join(dir, 'missing.csv'), '--product', product, ...base], /Cannot read .*missing\.csv: no such file/],
      [['validate', csv, ...base], /--product ID is required/],
      [['validate', csv, '--product', 'abc', ...base], /--product takes a positive whole number/],
      [['validate', csv, '--product', '1', ...base], /Product 1 is not in the catalog of the simulator service at http:\/\/127\.0\.0\.1:\d+/],
      [['validate', csv, '--product', product, '--amount', '10.001', ...base], /--amount 10\.001: .*more decimals than USD allows/],
      [['report', 'c_nosuchthing', '--out', join(dir, 'r.csv'), ...base], /There is no campaign "c_nosuchthing" in .*data/],
      [['report', 'c_nosuchthing', ...base], /--out FILE\.csv is required/],
      [['send', csv, '--product', product, '--rate', '0', ...base], /--rate takes a positive number/],
      [['products', '--country', 'US', '--env', 'sandbox', '--data-dir', join(dir, 'data')], /No service address is set for sandbox/],
      // Not on this machine (nothing is asked of it: the check comes first).
      [['poll', '--until-settled', '--interval', '1', '--env', 'sandbox', '--base-url', 'https://gifts.example.invalid', '--data-dir', join(dir, 'data')], /--interval 1: the sandbox service is polled at most every 10 s/],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli(args, env)));
    results.forEach((result, i) => {
      const [args, message] = cases[i]!;
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
    });
  }, 60_000);

  it('a rejected key or an unreachable service exits 3 with a message that says which', async () => {
    const [rejected, unreachable] = await Promise.all([
      runCli(['products', '--country', 'US', ...base], { GIFTBATCH_API_KEY: 'not-the-key' }),
      runCli(['products', '--country', 'US', '--base-url', 'http://127.0.0.1:9', '--data-dir', join(dir, 'data')], env),
    ]);
    expect(rejected.code).toBe(3);
    expect(rejected.stderr).toMatch(/refused the API key/);
    expect(rejected.stderr).not.toContain('not-the-key');
    expect(unreachable.code).toBe(3);
    expect(unreachable.stderr).toMatch(/could not be reached/);
  }, 60_000);

  it('invalid rows make validate exit 1 with each error on its line, in the documented JSON shape', async () => {
    const file = join(dir, 'bad.csv');
    writeFileSync(file, 'Name,Email\nAda,ada@example.com\n,bob@example.com\nCy,cy@example\nAda again,ADA@example.com\n');
    const result = await runCli(['validate', file, '--product', String(productIdFor(KEY, 'us-fixed-10')), '--json', ...base], env);
    expect(result.code).toBe(1);
    const report = json<{ rows: number; valid: number; invalid: number; duplicate_emails: number; encoding: string; delimiter: string; errors: { line: number; field: string }[] }>(result.stdout);
    expect(report).toMatchObject({ rows: 4, valid: 2, invalid: 2, duplicate_emails: 1, encoding: 'utf-8', delimiter: ',' });
    expect(report.errors.map((e) => [e.line, e.field])).toEqual([[3, 'name'], [4, 'email']]);
  }, 60_000);

  it('send without a confirmation sends nothing, keeps the campaign as a draft and says how to go on (exit 2)', async () => {
    const csv = writeRecipients(dir, 2);
    const result = await runCli(['send', csv, '--product', String(productIdFor(KEY, 'us-fixed-10')), '--json', ...base], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Orders are final, so sending needs a confirmation: run `giftbatch resume c_\w+ --yes`/);
    expect(json<{ counts: Record<string, number>; send_state: string }>(result.stdout)).toMatchObject({ send_state: 'draft', counts: { ready: 2, ordered: 0 } });
    expect((await sim.audit()).accounts[KEY]?.orders ?? []).toHaveLength(0);
  }, 60_000);
});
