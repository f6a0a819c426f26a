// Issue 13, "Done when", through the real CLI and a simulator process: `validate FILE.xlsx
// --product ID [--sheet NAME] --json` gives the CSV's JSON shape, with the counts right for a
// workbook whose first sheet is not the recipients, with a title row above the header, typed
// (currency-formatted) amounts and a formula; without --sheet it exits 2 listing the sheets with
// their rows; `send` of the workbook orders one gift per valid row, no more.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { json, runCli, startSimulatorProcess, tempDir, writeRecipients, type SimulatorProcess } from '../../support/cli.ts';
import { ods, xlsx, type XCell } from '../../support/workbook-files.ts';

const KEY = 'cli-workbook-key';
let sim: SimulatorProcess;
beforeAll(async () => {
  sim = await startSimulatorProcess(['--log', 'problems']);
});
afterAll(async () => {
  await sim?.stop();
});

/** Title, a blank row, the header on row 3; rows 4..51: 48 speakers, one with a bad address, one with a formula amount. */
function speakerRows(): XCell[][] {
  const rows: XCell[][] = [['Conference 2024: speakers'], [], ['Full name', 'E-mail address', 'Gift value']];
  for (let i = 1; i <= 48; i++) {
    const amount: XCell = i === 7 ? { f: '20+5', v: '25' } : { n: i % 2 ? 50 : 25, style: 1 };
    rows.push([`Speaker ${i}`, i === 10 ? 'speaker10-at-example.com' : `speaker${i}@example.com`, amount]);
  }
  return rows;
}

interface ValidateJson {
  rows: number;
  valid: number;
  invalid: number;
  duplicate_emails: number;
  known_emails: number;
  encoding: string;
  delimiter: string;
  totals: { currency: string; amount: string }[];
  errors: { line: number; field: string; message: string }[];
  warnings: unknown[];
}

describe('giftbatch validate / send with a workbook', () => {
  const dir = tempDir();
  const env = { GIFTBATCH_API_KEY: KEY };
  const book = join(dir, 'speakers.xlsx');
  writeFileSync(
    book,
    xlsx([
      { name: 'Notes', rows: [['Budget'], ['Cards', { n: 1800 }], ['Fees', { f: 'B2*0.02', v: '36' }]] },
      { name: 'Speakers', rows: speakerRows() },
    ]),
  );
  const args = () => ['--base-url', sim.url, '--data-dir', join(dir, 'data')];
  const range = () => String(productIdFor(KEY, 'us-range'));

  it('without --sheet exits 2 listing the sheets with their filled rows (the window\'s words; "rows" is the recipient count); nothing else is printed on stdout', async () => {
    const result = await runCli(['validate', book, '--product', range(), '--json', ...args()], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Sheets: Notes (3 filled rows, header included), Speakers (50 filled rows, header included). Choose one with --sheet NAME.');
    expect(result.stdout).toBe('');
  }, 30_000);

  it('with --sheet gives the CSV JSON shape with the workbook counts, line numbers the sheet rows', async () => {
    const result = await runCli(['validate', book, '--product', range(), '--sheet', 'Speakers', '--json', ...args()], env);
    expect(result.code, result.stderr).toBe(1);
    const report = json<ValidateJson>(result.stdout);
    expect(report).toMatchObject({ rows: 48, valid: 47, invalid: 1, duplicate_emails: 0, known_emails: 0, encoding: 'xlsx', delimiter: '', warnings: [] });
    // Odd speakers at 50, even at 25; speaker 7's formula counts its cached 25, speaker 10 (25) is invalid: 23 x 50 + 24 x 25.
    expect(report.totals).toEqual([{ currency: 'USD', amount: '1750.00' }]);
    expect(report.errors).toEqual([{ line: 13, field: 'email', message: expect.stringMatching(/^Line 13: .*speaker10-at-example\.com/) }]);

    // Exactly the keys a CSV's validate gives, in the same order.
    const csv = await runCli(['validate', writeRecipients(dir, 2, '10'), '--product', range(), '--json', ...args()], env);
    expect(csv.code, csv.stderr).toBe(0);
    expect(Object.keys(report)).toEqual(Object.keys(json<ValidateJson>(csv.stdout)));
  }, 30_000);

  it('an unknown sheet, or an empty --sheet, exits 2 saying so; a name in another case reads its sheet', async () => {
    const unknown = await runCli(['validate', book, '--product', range(), '--sheet', 'Guests', ...args()], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no sheet named "Guests"\. Its sheets: "Notes" \(3 rows\), "Speakers" \(50 rows\)/);
    // A name typed in another case reads the one sheet it matches (S13-E: it said there was no such sheet).
    const lower = await runCli(['validate', book, '--product', range(), '--sheet', 'speakers', ...args()], env);
    expect(lower.stdout).toMatch(/^48 rows: 47 ready to send, 1 need fixing, 0 repeated e-mails \(xlsx workbook, sheet "Speakers"\)$/m);
    const empty = await runCli(['validate', book, '--product', range(), '--sheet', ' ', ...args()], env);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/--sheet takes the name of a sheet/);
  }, 30_000);

  it('says in words how it read the workbook', async () => {
    const result = await runCli(['validate', book, '--product', range(), '--sheet', 'Speakers', ...args()], env);
    expect(result.stdout).toMatch(/^48 rows: 47 ready to send, 1 need fixing, 0 repeated e-mails \(xlsx workbook, sheet "Speakers"\)$/m);
  }, 30_000);

  it('reads a one-sheet .ods without --sheet', async () => {
    const file = join(dir, 'list.ods');
    writeFileSync(file, ods([{ name: 'List', rows: [['Guests'], ['Name', 'Email', 'Amount'], ['Ann', 'ann@example.com', { float: '25', type: 'currency', shown: '$25.00' }]] }]));
    const result = await runCli(['validate', file, '--product', range(), '--json', ...args()], env);
    expect(result.code, result.stderr).toBe(0);
    expect(json<ValidateJson>(result.stdout)).toMatchObject({ rows: 1, valid: 1, encoding: 'ods', delimiter: '', totals: [{ currency: 'USD', amount: '25.00' }] });
  }, 30_000);

  it('send without --sheet exits 2 with the list and orders nothing; with it, one order per valid row', async () => {
    const refused = await runCli(['send', book, '--product', range(), '--yes', '--json', ...args()], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Sheets: Notes (3 filled rows, header included), Speakers (50 filled rows, header included). Choose one with --sheet NAME.');
    expect((await sim.audit()).accounts[KEY]?.orders ?? []).toHaveLength(0);

    const sent = await runCli(['send', book, '--product', range(), '--sheet', 'Speakers', '--yes', '--json', ...args()], env);
    // One row is invalid: the campaign sends the 47 others and exits 1 for the invalid one.
    expect(sent.code, sent.stderr).toBe(1);
    const { counts } = json<{ counts: Record<string, number> }>(sent.stdout);
    expect([(counts.ordered ?? 0) + (counts.delivered ?? 0), counts.invalid]).toEqual([47, 1]);
    const account = (await sim.audit()).accounts[KEY];
    expect(account?.orders).toHaveLength(47);
    expect(account?.duplicates).toEqual([]);
    expect(account?.withoutExternalReferenceId).toEqual([]);
    const requested = account!.orders.map((o) => o.requestedAmount).sort();
    expect(requested.filter((a) => Number(a) === 50)).toHaveLength(23);
    expect(requested.filter((a) => Number(a) === 25)).toHaveLength(24);
  }, 90_000);
});
