import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { json, runCli, startSimulatorProcess, tempDir, writeRecipients, type SimulatorProcess } from '../../support/cli.ts';

// What a new organiser types wrong in the first hour, and what the CLI answers: options before the
// command, a folder for the file, a PDF or a Word document picked instead of the list. Each exits 2
// with one line that says what is wrong and what to do, and stores nothing.
const KEY = 'newcomer-key';
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

describe('a new organiser at the giftbatch CLI', () => {
  it('options before the command: says the command comes first and gives the line to run, quoted for the shell', async () => {
    const [status, spaced, unknown] = await Promise.all([
      runCli(['--data-dir', join(dir, 'data'), 'status', '--json'], env),
      runCli(['--data-dir', '/tmp/My Lists', '--name', "Ann's", 'send', 'people.csv'], env),
      runCli(['--data-dir', join(dir, 'data')], env),
    ]);
    expect(status.code).toBe(2);
    expect(status.stderr).toBe(`giftbatch: The command comes first, then its options: giftbatch status --data-dir ${join(dir, 'data')} --json\n`);
    expect(spaced.code).toBe(2);
    expect(spaced.stderr).toBe(`giftbatch: The command comes first, then its options: giftbatch send --data-dir '/tmp/My Lists' --name 'Ann'\\''s' people.csv\n`);
    // No command at all after the options: the usage, as before.
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^giftbatch: Unknown command "--data-dir"\.\n\nUsage: giftbatch <command>/);
  }, 60_000);

  it('`giftbatch help send` prints send --help (it printed the list of commands); `help bogus` says the command is unknown', async () => {
    const [helpSend, sendHelp, bogus, top] = await Promise.all([runCli(['help', 'send']), runCli(['send', '--help']), runCli(['help', 'bogus']), runCli(['--help'])]);
    expect(helpSend.code).toBe(0);
    // The list of commands names send's --name, as send --help does (S15-J: it left it out).
    expect(top.stdout).toMatch(/^ {2}send +import a CSV .*send FILE\.csv\|\.xlsx\|\.ods --product ID \[--name NAME\] /m);
    expect(helpSend.stdout).toMatch(/^Usage: giftbatch send FILE\.csv/);
    expect(helpSend.stdout).toBe(sendHelp.stdout);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toMatch(/^giftbatch: Unknown command "bogus"\./);
  }, 60_000);

  it('send of a file with no e-mail or name column refuses it whole, saying which columns to name, and stores nothing', async () => {
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'Dear all,\nplease find the list attached.\nThanks, Ann\n');
    const data = join(dir, 'notes-data');
    const common = ['--data-dir', data, '--base-url', sim.url];
    const sent = await runCli(['send', file, '--product', String(productIdFor(KEY, 'us-fixed-10')), '--country', 'US', '--yes', ...common], env);
    expect(sent.code).toBe(2);
    expect(sent.stderr).toContain(`"notes.txt" has no column for the e-mail address or for the recipient's name, so no row can be sent: nothing was created.`);
    expect(sent.stderr).toContain(`Name those columns "Email" and "Name" (or "First name" and "Last name") in the file's header row`);
    expect(sent.stdout).toBe('');
    const status = await runCli(['status', '--json', ...common], env);
    expect(json<unknown[]>(status.stdout)).toEqual([]);
  }, 60_000);

  it('a letter picked instead of the list (sentences, no separator, no address) is said to be no list, not a list of one column to fix', async () => {
    const file = join(dir, 'letter.txt');
    writeFileSync(file, 'We are delighted to welcome you to the conference this year.\nPlease find the schedule attached.\nBest regards from the events team.\n');
    const data = join(dir, 'letter-data');
    const common = ['--product', String(productIdFor(KEY, 'us-fixed-10')), '--data-dir', data, '--base-url', sim.url];
    const [checked, sent] = await Promise.all([runCli(['validate', file, ...common], env), runCli(['send', file, '--yes', ...common], env)]);
    const says = 'giftbatch: "letter.txt" does not look like a list of recipients (no columns found): every line is one piece of text, with no comma, semicolon or tab between columns and no e-mail address';
    expect(checked.code).toBe(2);
    expect(checked.stderr.startsWith(`${says}. Choose the file that lists the recipients`), checked.stderr).toBe(true);
    expect(checked.stdout).toBe('');
    expect(sent.code).toBe(2);
    expect(sent.stderr).toContain(`${says}, so nothing was created.`);
    const status = await runCli(['status', '--json', '--data-dir', data], env);
    expect(json<unknown[]>(status.stdout)).toEqual([]);
  }, 60_000);

  it('a folder named as the recipients file says it is a folder', async () => {
    const folder = join(dir, 'lists');
    mkdirSync(folder, { recursive: true });
    const result = await runCli(['validate', folder, '--product', String(productIdFor(KEY, 'us-fixed-10')), ...base], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`giftbatch: Cannot read ${folder}: it is a folder; name the recipients file in it.\n`);
  }, 60_000);

  it("validate's text says what send would do with a repeated address, in the singular for one; --json unchanged", async () => {
    const file = join(dir, 'repeats.csv');
    writeFileSync(file, 'Name,Email,Amount\nAnn Lee,ann@example.com,10\nBob Roe,bob@example.com,10\nAnn L,ANN@example.com,10\n');
    const args = ['validate', file, '--product', String(productIdFor(KEY, 'us-fixed-10')), '--data-dir', join(dir, 'repeats-data'), '--base-url', sim.url];
    const [text, asJson] = await Promise.all([runCli(args, env), runCli([...args, '--json'], env)]);
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')).toEqual([
      // The import step's words and figures: Ready to send (the repeat left out, as send does), Need fixing, Cost of the ready rows (S15-J).
      '3 rows: 2 ready to send (1 repeated row left out), 0 need fixing, 1 repeated e-mail (utf-8, delimiter ",")',
      'Cost of the ready rows: USD 20.00',
      'warning: Line 4: "ANN@example.com" also appears on line 2',
      'note: send would order 2 rows (USD 20.00) and skip 1 repeated recipient unless --gift-per-row.',
      '',
    ]);
    expect(asJson.code).toBe(0);
    expect(json<Record<string, unknown>>(asJson.stdout)).toMatchObject({ rows: 3, valid: 3, duplicate_emails: 1, totals: [{ currency: 'USD', amount: '30.00' }] });
    expect(Object.keys(json<Record<string, unknown>>(asJson.stdout))).toEqual(['rows', 'valid', 'invalid', 'duplicate_emails', 'known_emails', 'encoding', 'delimiter', 'totals', 'errors', 'warnings']);
  }, 60_000);

  it('a PDF or a Word document is refused saying what it is; send stores no campaign for it', async () => {
    const product = String(productIdFor(KEY, 'us-fixed-10'));
    const pdf = join(dir, 'guests.pdf');
    writeFileSync(pdf, '%PDF-1.4\n1 0 obj <<>> endobj\nName,Email\nAnn,ann@example.com\ntrailer <<>>\n%%EOF\n');
    const docx = join(dir, 'guests.csv'); // named .csv: the bytes decide, not the name
    const { zipParts } = await import('../../support/workbook-files.ts');
    writeFileSync(docx, zipParts({ '[Content_Types].xml': '<Types/>', 'word/document.xml': '<w:document/>' }));
    const [validatePdf, sendPdf, validateDocx] = await Promise.all([
      runCli(['validate', pdf, '--product', product, ...base], env),
      runCli(['send', pdf, '--product', product, '--yes', ...base], env),
      runCli(['validate', docx, '--product', product, '--json', ...base], env),
    ]);
    for (const [result, what] of [[validatePdf, 'a PDF document'], [sendPdf, 'a PDF document'], [validateDocx, 'a Word document']] as const) {
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(new RegExp(`(^|\\n)giftbatch: The file is ${what}, not a list of recipients\\. Choose the spreadsheet itself: a CSV file or an \\.xlsx or \\.ods workbook`));
    }
    const status = await runCli(['status', '--json', ...base], env);
    expect(json<unknown[]>(status.stdout)).toEqual([]);
    // A real list in the same folder still goes through.
    const ok = await runCli(['validate', writeRecipients(dir, 2), '--product', product, ...base], env);
    expect(ok.code).toBe(0);
  }, 60_000);
});
