// The CLI says what a CLI user can do: the engine's and the shared domain's words name the window's
// controls (a Resume button, the mapping step, the "one gift per row" choice); a terminal has none of
// them, so the CLI names its own command or flag instead. The window's words stay as they are.
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { EXIT } from '../../../electron/cli/exit-codes.ts';
import { collect, json, runCli, spawnCli, startSimulatorProcess, tempDir, writeRecipients, type SimulatorProcess } from '../../support/cli.ts';

const KEY = 'cli-words-key-7c10';
const env = { GIFTBATCH_API_KEY: KEY };
let sim: SimulatorProcess;
let dir: string;
let product: string;

beforeAll(async () => {
  sim = await startSimulatorProcess(['--keys', KEY, '--log', 'problems']);
  dir = tempDir();
  product = String(productIdFor(KEY, 'us-fixed-10'));
});
afterAll(async () => {
  await sim?.stop();
});

describe('the CLI names its own commands and flags, not the window’s controls', () => {
  it('Ctrl-C during send: the pause says `giftbatch resume ID`, in send and in status; the stored words (the window’s) are kept', async () => {
    const dataDir = join(dir, 'ctrl-c');
    const common = ['--base-url', sim.url, '--data-dir', dataDir];
    const csv = writeRecipients(dir, 60, '10');
    const child = spawnCli(['send', csv, '--product', product, '--yes', '--rate', '4', ...common], env);
    const result = collect(child);
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    await expect.poll(() => /progress: [1-9]\d*\/60 sent/.test(stderr), { timeout: 30_000, interval: 20 }).toBe(true);
    child.kill('SIGINT');
    const ended = await result;
    expect(ended.code).toBe(EXIT.interrupted);
    const id = /Campaign id: (\S+)/.exec(ended.stdout)?.[1] ?? '';
    expect(id).toMatch(/^c_/);
    const said = `Sending was paused. Run \`giftbatch resume ${id}\` to send the rest.`;
    expect(ended.stderr.split('\n')).toContain(said);
    // One line says what to do next: the older 'Continue with: giftbatch resume ID' is not said again.
    expect(ended.stderr.split(`giftbatch resume ${id}`)).toHaveLength(2);
    expect(ended.stderr).not.toContain('Continue with');
    expect(ended.stdout).toContain(`${id}  `);
    // The pause's paragraph once on the screen: the status line below it names the reason only.
    expect(ended.stdout).toContain(' paused (user)\n');
    expect(`${ended.stdout}${ended.stderr}`.split(said)).toHaveLength(2);
    for (const text of [ended.stdout, ended.stderr]) expect(text).not.toMatch(/press Resume/i);

    const [statusText, statusJson] = await Promise.all([runCli(['status', id, ...common], env), runCli(['status', id, '--json', ...common], env)]);
    expect(statusText.code).toBe(0);
    expect(statusText.stdout).toContain(` paused (user: ${said})\n`);
    expect(statusText.stdout).not.toMatch(/press Resume|paused — paused/i);
    expect(json<{ paused_reason: string; paused_detail: string }>(statusJson.stdout)).toMatchObject({ paused_reason: 'user', paused_detail: said });

    // What the window shows is the stored detail, unchanged.
    const db = new Database(join(dataDir, 'giftbatch.sqlite'), { readonly: true });
    try {
      expect(db.prepare('SELECT paused_detail FROM campaigns WHERE id = ?').get(id)).toEqual({ paused_detail: 'Sending was paused. Press Resume to send the rest.' });
    } finally {
      db.close();
    }

    // resume, interrupted the same way, says it the same way: one line naming the command.
    const resumed = spawnCli(['resume', id, '--yes', '--rate', '4', ...common], env);
    const resumeResult = collect(resumed);
    let resumeErr = '';
    resumed.stderr?.on('data', (d: Buffer) => (resumeErr += d.toString()));
    await expect.poll(() => /progress: [1-9]\d*\/60 sent/.test(resumeErr), { timeout: 30_000, interval: 20 }).toBe(true);
    resumed.kill('SIGINT');
    const resumeEnded = await resumeResult;
    expect(resumeEnded.code).toBe(EXIT.interrupted);
    expect(resumeEnded.stderr.split('\n')).toContain(said);
    expect(resumeEnded.stderr.split(`giftbatch resume ${id}`)).toHaveLength(2);
    expect(`${resumeEnded.stdout}${resumeEnded.stderr}`.split(said)).toHaveLength(2);
    expect(resumeEnded.stdout).toContain(' paused (user)\n');
    expect(resumeEnded.stderr).not.toContain('Continue with');
  }, 120_000);

  it('Ctrl-C twice during send: the first pauses and says a second quits; the second quits at once (exit 130) with a line saying so; the file is whole, and resume finds the rows in flight by key, one order each', async () => {
    const dataDir = join(dir, 'ctrl-c-twice');
    const common = ['--base-url', sim.url, '--data-dir', dataDir];
    const csv = writeRecipients(dir, 6, '10');
    // Every order is made at once but answered late: the rows stay in flight for the two signals.
    await sim.setFaults({ slow: 1, slowMs: 2_500 });
    try {
      const child = spawnCli(['send', csv, '--product', product, '--yes', ...common], env);
      const result = collect(child);
      let stderr = '';
      child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      const sendingRows = (): number => {
        try {
          const db = new Database(join(dataDir, 'giftbatch.sqlite'), { readonly: true, fileMustExist: true });
          try {
            return (db.prepare("SELECT COUNT(*) AS n FROM recipients WHERE state = 'sending'").get() as { n: number }).n;
          } finally {
            db.close();
          }
        } catch {
          return 0;
        }
      };
      await expect.poll(sendingRows, { timeout: 30_000, interval: 20 }).toBeGreaterThan(0);
      child.kill('SIGINT');
      await expect.poll(() => stderr.includes('Press Ctrl-C again to quit now'), { timeout: 5_000, interval: 10 }).toBe(true);
      const secondAt = Date.now();
      child.kill('SIGINT');
      const ended = await result;
      // At once: before the answers held back by the service come in.
      expect(Date.now() - secondAt).toBeLessThan(2_000);
      expect(ended.code).toBe(EXIT.interrupted);
      expect(ended.stderr).toMatch(/Pausing: no new order is sent; .*rows being sent are then looked up by their key when you resume, never ordered twice\./);
      expect(ended.stderr).toMatch(/Quit at once\. Rows that were being sent stay marked as such: `giftbatch resume c_\w+` looks each one up by its key first, so none is ordered twice\.\n$/);

      const db = new Database(join(dataDir, 'giftbatch.sqlite'), { readonly: true });
      let id = '';
      let inFlight = 0;
      let keys: string[] = [];
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        id = (db.prepare('SELECT id FROM campaigns').get() as { id: string }).id;
        inFlight = (db.prepare("SELECT COUNT(*) AS n FROM recipients WHERE state = 'sending'").get() as { n: number }).n;
        keys = (db.prepare('SELECT external_reference_id AS k FROM recipients').all() as { k: string }[]).map((r) => r.k);
      } finally {
        db.close();
      }
      expect(inFlight).toBeGreaterThan(0);

      await sim.setFaults({ slow: 0 });
      const resumed = await runCli(['resume', id, '--yes', ...common], env);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toContain(`Looked up ${inFlight === 1 ? '1 row that was' : `${inFlight} rows that were`} being sent: ${inFlight} found ordered.`);
      // One order per row at the service: the rows quit mid-send were found, not ordered again.
      const audit = (await sim.audit()).accounts[KEY];
      expect(audit?.duplicates).toEqual([]);
      expect((audit?.orders ?? []).map((o) => o.externalReferenceId).filter((k) => k !== null && keys.includes(k)).sort()).toEqual([...keys].sort());
    } finally {
      await sim.setFaults({ slow: 0 });
    }
  }, 60_000);

  it('Ctrl-C while the service still runs its last pre-flight (before the run began): the run that then begins is paused, not sent whole', async () => {
    const dataDir = join(dir, 'ctrl-c-preflight');
    const common = ['--base-url', sim.url, '--data-dir', dataDir];
    const csv = writeRecipients(dir, 6, '10');
    // Every read (catalog, availability) answered late: campaigns:send's own pre-flight takes half a second or more.
    await sim.setFaults({ slow: 1, slowMs: 500, faultRoutes: 'reads' });
    try {
      const child = spawnCli(['send', csv, '--product', product, '--yes', ...common], env);
      const result = collect(child);
      let stderr = '';
      child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      // The first pre-flight's lines: the command now asks campaigns:send, which checks again (slow).
      await expect.poll(() => stderr.includes('To send: 6 orders'), { timeout: 30_000, interval: 10 }).toBe(true);
      await new Promise((r) => setTimeout(r, 150));
      expect(stderr).not.toMatch(/progress: \d+\/6 sent/);
      child.kill('SIGINT');
      const ended = await result;
      expect(ended.stderr).toContain('Pausing: no new order is sent');
      expect(ended.code, ended.stderr).toBe(EXIT.interrupted);
      expect(ended.stdout).toContain(' paused (user)');
      // At most the run's first order, which goes alone, was on its way when the pause came; never all six.
      const db = new Database(join(dataDir, 'giftbatch.sqlite'), { readonly: true });
      try {
        const ready = (db.prepare("SELECT COUNT(*) AS n FROM recipients WHERE state = 'ready'").get() as { n: number }).n;
        expect(ready).toBeGreaterThanOrEqual(5);
      } finally {
        db.close();
      }
    } finally {
      await sim.setFaults({ slow: 0, faultRoutes: 'post' });
    }
  }, 60_000);

  it('validate, no e-mail or name column: refuses the file whole as send does (exit 2, the same facts; validate does not say "nothing was created"); --json still prints its document', async () => {
    const file = join(dir, 'no-columns.csv');
    writeFileSync(file, 'Who,Mail address\nAnn Lee,ann@example.com\n');
    const common = ['--product', product, '--base-url', sim.url, '--data-dir', join(dir, 'no-columns')];
    const [text, asJson, send] = await Promise.all([
      runCli(['validate', file, ...common], env),
      runCli(['validate', file, '--json', ...common], env),
      runCli(['send', file, '--yes', ...common], env),
    ]);
    const advice = 'Name those columns "Email" and "Name" (or "First name" and "Last name") in the file\'s header row, or choose them when you import the list in the app.\n';
    const what = 'giftbatch: "no-columns.csv" has no column for the e-mail address or for the recipient\'s name';
    for (const result of [send, text, asJson]) expect(result.code).toBe(EXIT.usage);
    expect(send.stderr).toBe(`${what}, so no row can be sent: nothing was created. ${advice}`);
    // validate creates nothing, ever: it says the facts without "nothing was created".
    for (const result of [text, asJson]) expect(result.stderr).toBe(`${what}, so no row of it can be sent. ${advice}`);
    expect(text.stdout).toBe('');
    // --json keeps its document, every key, for the scripts that read it; its file errors name the header to give.
    const email = 'The header (line 1) has no column recognised as the e-mail address: give its column the header "Email".';
    const name = 'The header (line 1) has no column recognised as the recipient name: give its column the header "Name" (or use two columns, "First name" and "Last name").';
    const doc = json<{ errors: { line: number; field: string; message: string }[] }>(asJson.stdout);
    expect(Object.keys(doc)).toEqual(['rows', 'valid', 'invalid', 'duplicate_emails', 'known_emails', 'encoding', 'delimiter', 'totals', 'errors', 'warnings']);
    expect(doc).toMatchObject({ rows: 1, valid: 0, invalid: 1 });
    expect(doc.errors.slice(0, 2)).toEqual([
      { line: 1, field: 'file', message: email },
      { line: 1, field: 'file', message: name },
    ]);
    expect(asJson.stdout).not.toContain('mapping step');
  }, 60_000);

  it('validate, only the name column missing: exit 2 naming just that column', async () => {
    const file = join(dir, 'no-name.csv');
    writeFileSync(file, 'Email,Amount\nann@example.com,10\n');
    const result = await runCli(['validate', file, '--product', product, '--base-url', sim.url, '--data-dir', join(dir, 'no-name')], env);
    expect(result.code).toBe(EXIT.usage);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'giftbatch: "no-name.csv" has no column for the recipient\'s name, so no row of it can be sent. ' +
        'Name that column "Name" (or "First name" and "Last name") in the file\'s header row, or choose it when you import the list in the app.\n',
    );
  }, 60_000);

  it('revalidate names `giftbatch resume ID` only when rows are ready to send', async () => {
    const [toDraft, toSend] = [join(dir, 'revalidate-draft.csv'), join(dir, 'revalidate-sent.csv')];
    writeFileSync(toDraft, 'Name,Email\nAnn Lee,ann.draft@example.com\nBob Roe,bob.draft@example.com\n');
    writeFileSync(toSend, 'Name,Email\nCy Poe,cy.sent@example.com\n');
    const common = ['--product', product, '--base-url', sim.url, '--data-dir', join(dir, 'revalidate')];
    const draft = await runCli(['send', toDraft, '--json', ...common], env);
    const sent = await runCli(['send', toSend, '--yes', '--json', ...common], env);
    expect(sent.code).toBe(EXIT.ok);
    const draftId = json<{ campaign_id: string }>(draft.stdout).campaign_id;
    const sentId = json<{ campaign_id: string }>(sent.stdout).campaign_id;
    const data = common.slice(2);
    const [ofDraft, ofSent, asJson] = await Promise.all([
      runCli(['revalidate', draftId, ...data], env),
      runCli(['revalidate', sentId, ...data], env),
      runCli(['revalidate', sentId, '--json', ...data], env),
    ]);
    expect(ofDraft.code).toBe(EXIT.ok);
    expect(ofDraft.stdout).toBe(`2 unsent rows checked again against the product as it is now: 2 ready to send, 0 need fixing. Send them with: giftbatch resume ${draftId}\n`);
    expect(ofSent.code).toBe(EXIT.ok);
    expect(ofSent.stdout).toBe('0 unsent rows checked again against the product as it is now: 0 ready to send, 0 need fixing.\n');
    expect(json(asJson.stdout)).toEqual({ campaign_id: sentId, checked: 0, ready: 0, invalid: 0 });
  }, 60_000);

  it('send, a repeated address: the skip names --gift-per-row', async () => {
    const file = join(dir, 'repeat.csv');
    writeFileSync(file, 'Name,Email\nAnn Lee,ann@example.com\nAnn L,ANN@example.com\n');
    const result = await runCli(['send', file, '--product', product, '--yes', '--base-url', sim.url, '--data-dir', join(dir, 'repeat')], env);
    expect(result.code).toBe(EXIT.ok);
    expect(result.stderr.split('\n')).toContain(
      '  Line 3 (ANN@example.com) skipped: its address repeats an earlier line of this campaign (one gift per person unless --gift-per-row).',
    );
    expect(result.stderr).not.toContain('"one gift per row" is chosen');
  }, 60_000);

  it('validate, a header and no row: says there are no recipient rows and exits 2, as send does', async () => {
    const file = join(dir, 'header-only.csv');
    writeFileSync(file, 'Name,Email,Amount\n');
    const common = ['--product', product, '--base-url', sim.url, '--data-dir', join(dir, 'header-only')];
    const [text, asJson, send] = await Promise.all([
      runCli(['validate', file, ...common], env),
      runCli(['validate', file, '--json', ...common], env),
      runCli(['send', file, '--yes', ...common], env),
    ]);
    expect(send.code).toBe(EXIT.usage);
    for (const result of [text, asJson]) {
      expect(result.code).toBe(EXIT.usage);
      expect(result.stderr).toBe('giftbatch: "header-only.csv" has no recipient rows: add one row per recipient under the header.\n');
    }
    expect(text.stdout).toBe('');
    // --json keeps its document, every key, for the scripts that read it.
    expect(json<Record<string, unknown>>(asJson.stdout)).toMatchObject({ rows: 0, valid: 0, invalid: 0, duplicate_emails: 0, known_emails: 0, totals: [], errors: [], warnings: [] });
  }, 60_000);

  it('validate and send, a file with only blank lines: says it has nothing in it (not a header missing above absent rows), exit 2', async () => {
    const file = join(dir, 'blank.csv');
    writeFileSync(file, '\n\n,,\n');
    const common = ['--product', product, '--base-url', sim.url, '--data-dir', join(dir, 'blank')];
    const [text, send] = await Promise.all([runCli(['validate', file, ...common], env), runCli(['send', file, '--yes', ...common], env)]);
    for (const result of [text, send]) expect(result.code).toBe(EXIT.usage);
    const what = '"blank.csv" has nothing in it: no header row naming the columns (Name, Email, …) and no recipient rows.';
    expect(text.stderr).toBe(`giftbatch: ${what} Check that it is the right file, with a header row and one row per recipient under it.\n`);
    expect(send.stderr).toBe(`giftbatch: ${what} Nothing was created.\n`);
  }, 60_000);

  it('send of an out-of-stock product: the pre-flight holds it; no progress line for a send that did not happen, exit 1', async () => {
    const common = ['--base-url', sim.url, '--data-dir', join(dir, 'out-of-stock')];
    const result = await runCli(['send', writeRecipients(dir, 3, ''), '--product', String(productIdFor(KEY, 'us-out-of-stock')), '--yes', ...common], env);
    expect(result.code).toBe(EXIT.rowsFailed);
    expect(result.stderr).toContain('Pre-flight: The supplier reports product');
    // What to do about it, since nothing can be fixed in the file: wait for stock, or another gift.
    expect(result.stderr).toContain('Send it when the supplier has stock again (every send checks again), or make a campaign with another gift.');
    expect(result.stderr).toMatch(/Nothing was sent\. Campaign c_\w+ stays as it is/);
    expect(result.stderr).not.toContain('progress:');
    // The service's stock words once: the pre-flight's line, not a 'Stock: out of stock' line as well.
    expect(result.stderr.split('the supplier has no stock').length - 1).toBe(1);
    expect(result.stderr).not.toContain('Stock:');
  }, 60_000);

  it("poll's lines add up: each round asks about the last one's waiting orders, delivered + cancelled + still waiting", async () => {
    const common = ['--base-url', sim.url, '--data-dir', join(dir, 'poll')];
    const sent = await runCli(['send', writeRecipients(dir, 5, '10'), '--product', product, '--yes', '--json', ...common], env);
    const id = json<{ campaign_id: string }>(sent.stdout).campaign_id;
    // The simulator completes an item 3 s after its order: the first round finds them all waiting.
    const polled = await runCli(['poll', id, '--until-settled', '--interval', '0.5', '--timeout', '30', ...common], env);
    expect(polled.code).toBe(EXIT.ok);
    const lines = polled.stdout.split('\n').filter((l) => l.startsWith('poll:'));
    expect(lines.length).toBeGreaterThan(1);
    const rounds = lines.map((line) => {
      const m = /^poll: asked about (\d+) undelivered orders?: (\d+) delivered, (\d+) cancelled, (\d+) still waiting, \d+ requests?$/.exec(line);
      expect(m, line).not.toBeNull();
      return { asked: Number(m?.[1]), settled: Number(m?.[2]) + Number(m?.[3]), waiting: Number(m?.[4]) };
    });
    expect(rounds[0]).toEqual({ asked: 5, settled: 0, waiting: 5 });
    for (const [i, r] of rounds.entries()) {
      expect(r.settled + r.waiting).toBe(r.asked);
      if (i > 0) expect(r.asked).toBe(rounds[i - 1]?.waiting);
    }
    expect(rounds.at(-1)?.waiting).toBe(0);
  }, 60_000);

  it('template --help lists only the options it uses; follow-up --help keeps its lines whole, each flag with its rows', async () => {
    const [template, followUp] = await Promise.all([runCli(['template', '--help']), runCli(['follow-up', '--help'])]);
    expect(template.code).toBe(EXIT.ok);
    expect(template.stdout).toContain('\nOptions:\n  --force  replace FILE if it exists\n  --json   print exactly one JSON document on stdout\n');
    expect(template.stdout).not.toMatch(/--env|--base-url|--data-dir|GIFTBATCH_API_KEY/);
    expect(followUp.code).toBe(EXIT.ok);
    expect(followUp.stdout.split('\n').slice(1, 6)).toEqual([
      "Makes a new draft campaign with the campaign's rows",
      '  --failed     that failed',
      '  --cancelled  whose order was cancelled',
      '  --expired    whose acceptance link expired',
      '(all of them when none is named), each with its data and a NEW key: it is a new gift. Cancelled and',
    ]);
    for (const line of [...template.stdout.split('\n'), ...followUp.stdout.split('\n')]) expect(line.length, line).toBeLessThanOrEqual(100);
  }, 60_000);
});
