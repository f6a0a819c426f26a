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
      [['bogus'], /^giftbatch: Unknown command "bogus"\.\n\nUsage: giftbatch <command>/],
      // A typo of a command says which one it was likely meant to be (exit 2 all the same).
      [['sned'], /^giftbatch: Unknown command "sned"\. Did you mean "send"\?\n\nUsage: giftbatch <command>/],
      [['products', '--env', 'staging', ...base], /--env must be one of simulator, sandbox, production/],
      [['products', ...base], /--country takes a two-letter country code/],
      [['products', '--country', 'US', '--colour', 'red', ...base], /Unknown option '--colour'/],
      // products takes no positional argument: said, not ignored (was: ignored, or "--country ... is required").
      [['products', 'us', ...base], /^giftbatch: products takes no argument; name the country with --country US \(got "us"\)\.\n\nUsage: giftbatch products /],
      [['products', '--country', 'US', 'books', 'toys', ...base], /^giftbatch: products takes no argument; name the country with --country CC \(got "books"\)\./],
      // Node's advice on positionals starting with '-' is not said of an unknown option.
      [['retry', 'c_nosuchthing', '--cancelled', ...base], /^giftbatch: Unknown option '--cancelled'\.\n\nUsage: giftbatch retry /],
      // validate's and send's --country is checked as products checks it (was the contract's raw pattern error).
      [['validate', csv, '--product', product, '--country', 'usa', ...base], /^giftbatch: --country takes a two-letter country code \(got "usa"\)\.\n\nUsage: giftbatch validate /],
      [['send', csv, '--product', product, '--country', 'Germany', ...base], /^giftbatch: --country takes a two-letter country code: DE for Germany \(got "Germany"\)\./],
      // No digit at all, read as an amount cell is (was: '--amount abc: "" is not a decimal amount').
      [['validate', csv, '--product', product, '--amount', 'abc', ...base], /^giftbatch: --amount abc: "abc" is not an amount\.\n$/],
      // Another currency's sign is refused, not dropped (was: read as USD 10).
      [['validate', csv, '--product', product, '--amount', '€10', ...base], /^giftbatch: --amount €10: "€10" .*EUR.*\n$/],
      [['validate', join(dir, 'missing.csv'), '--product', product, ...base], /Cannot read .*missing\.csv: no such file/],
      [['validate', csv, ...base], /--product ID is required/],
      [['validate', csv, '--product', 'abc', ...base], /--product takes a positive whole number/],
      [['validate', csv, '--product', '1', ...base], /Product 1 is not in the catalog of the simulator service at http:\/\/127\.0\.0\.1:\d+/],
      [['validate', csv, '--product', product, '--amount', '10.001', ...base], /--amount 10\.001: .*more decimals than USD allows/],
      [['report', 'c_nosuchthing', '--out', join(dir, 'r.csv'), ...base], /There is no campaign "c_nosuchthing" in .*data/],
      [['report', 'c_nosuchthing', ...base], /--out FILE\.csv is required/],
      // A file as the data folder (was exit 1, "EEXIST: file already exists, mkdir").
      [['status', '--data-dir', csv], /^giftbatch: --data-dir .*recipients-3\.csv is a file, not a folder: name the folder that keeps the campaigns/],
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

  it('a second file or campaign id is refused (exit 2), not ignored: an unquoted path with a space sends nothing', async () => {
    const first = writeRecipients(dir, 2);
    const second = join(dir, 'second.csv');
    writeFileSync(second, 'Name,Email\nZoe,zoe@example.com\n');
    const product = String(productIdFor(KEY, 'us-fixed-10'));
    const data = join(dir, 'two-args');
    const common = ['--base-url', sim.url, '--data-dir', data];
    const [validate, send, status] = await Promise.all([
      runCli(['validate', first, second, '--product', product, ...common], env),
      runCli(['send', join(dir, 'My'), 'List.csv', '--product', product, '--yes', ...common], env),
      runCli(['status', 'c_one', 'c_two', ...common], env),
    ]);
    expect(validate.code).toBe(2);
    expect(validate.stdout).toBe('');
    expect(validate.stderr).toMatch(/^giftbatch: ".*second\.csv" is one argument too many after ".*recipients-2\.csv": name one file or campaign per command, and put a path that holds spaces in quotes\.\n\nUsage: giftbatch validate /);
    expect(send.code).toBe(2);
    expect(send.stderr).toContain(`giftbatch: "List.csv" is one argument too many after ${JSON.stringify(join(dir, 'My'))}`);
    expect(status.code).toBe(2);
    expect(status.stderr).toMatch(/^giftbatch: "c_two" is one argument too many after "c_one"/);
    const listed = await runCli(['status', '--json', ...common], env);
    expect(json<unknown[]>(listed.stdout)).toEqual([]);
    expect((await sim.audit()).accounts[KEY]?.orders ?? []).toHaveLength(0);
  }, 60_000);

  it('report --out naming a missing folder or a folder exits 2 saying so, as template does (was exit 1 with ENOENT/EISDIR)', async () => {
    const csv = writeRecipients(dir, 1);
    const data = join(dir, 'report-out');
    const common = ['--base-url', sim.url, '--data-dir', data];
    const draft = await runCli(['send', csv, '--product', String(productIdFor(KEY, 'us-fixed-10')), '--json', ...common], env);
    const id = json<{ campaign_id: string }>(draft.stdout).campaign_id;
    expect(id).toMatch(/^c_/);
    const missing = join(dir, 'no-such-folder', 'report.csv');
    const [noFolder, aFolder, written] = await Promise.all([
      runCli(['report', id, '--out', missing, ...common], env),
      runCli(['report', id, '--out', dir, ...common], env),
      runCli(['report', id, '--out', join(dir, 'report.csv'), '--json', ...common], env),
    ]);
    expect(noFolder.code).toBe(2);
    expect(noFolder.stderr).toBe(`giftbatch: Cannot write ${missing}: its folder does not exist.\n`);
    expect(aFolder.code).toBe(2);
    expect(aFolder.stderr).toBe(`giftbatch: Cannot write ${dir}: it is a folder; name the file to write in it.\n`);
    expect(written.code).toBe(0);
    expect(json<{ rows: number }>(written.stdout)).toMatchObject({ campaign_id: id, rows: 1 });
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
    // Each names the request once and says once what to check (they said both twice).
    const times = (text: string, part: string): number => text.split(part).length - 1;
    for (const { stderr } of [rejected, unreachable]) expect(times(stderr, 'GET /v1/products')).toBe(1);
    expect(times(rejected.stderr, 'Check the key')).toBe(1);
    expect(times(unreachable.stderr, 'Check the network')).toBe(1);
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
