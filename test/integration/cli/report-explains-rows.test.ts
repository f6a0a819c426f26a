// Issue 13, "a report that explains every row": the app's campaigns:report and `giftbatch report`
// write the same report from the same code (campaigns/report.ts), and in it every row that was not
// sent says why in last_error: its validation errors, who skipped it, the service's refusal, that it
// still waits, and an amount that was refused reads as the file wrote it. The totals section is there
// even when nothing was ordered, counts the rows in each state and names where the orders went.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { SIMULATOR_LOCAL_KEY } from '../../../electron/core/connections.ts';
import { csvBase64, startService, waitFor } from '../../support/app-harness.ts';
import { runCli } from '../../support/cli.ts';
import { startSimulator, tempDir } from '../../support/index.ts';

type Record = { [column: string]: string };

function records(csv: string): Record[] {
  return Papa.parse<Record>(csv.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;
}

describe('the delivery report explains every row that was not sent', () => {
  it('the same way from the app and from giftbatch report', async () => {
    // Room for one $25 gift: the next orders are refused for the balance, three in a row pause the campaign.
    const { url } = await startSimulator({ itemDelayMs: 60_000, accounts: { [SIMULATOR_LOCAL_KEY]: { currency: 'USD', balance: '25.00' } } });
    const dataDir = tempDir();
    const h = await startService(dataDir, { simulatorUrl: url, service: { queue: { concurrency: 1 } } });
    const { products } = await h.ok('products:list', { environment: 'simulator', country: 'US' });
    const productId = products.find((p) => p.name === 'Northwind Books Gift Card $25')?.id ?? 0;
    // Line 4 asks $30 of the $25 card: refused, its amount kept as the file wrote it.
    const lines = ['Name,Email,Amount', ',nobody@,', 'Skip Me,skip@example.com,', 'Too Much,much@example.com,30', ...Array.from({ length: 5 }, (_, i) => `Guest ${i},guest${i}@example.com,`)];
    const file = { fileName: 'guests.csv', bytesBase64: csvBase64(lines) };
    const created = await h.ok('campaigns:create', { ...file, environment: 'simulator', productId, name: 'Gala', senderName: 'Gala team' });

    // A draft, nothing ordered yet: the totals are there anyway, at zero.
    const draft = records((await h.ok('campaigns:report', { campaignId: created.id })).csv);
    // Every line of the totals section starts with TOTAL: a reader that tells rows from totals by it keeps working.
    expect(draft.filter((r) => r.name?.startsWith('TOTAL')).map((r) => [r.name, r.amount, r.currency])).toEqual([
      ['TOTAL ordered (0 orders)', '0.00', 'USD'],
      ['TOTAL charged', '0', ''],
      ['TOTAL delivered (0 rows)', '', ''],
      ['TOTAL awaiting delivery (0 rows, state ordered)', '', ''],
      ['TOTAL not sent yet (6 rows, state ready)', '', ''],
      ['TOTAL sending (0 rows)', '', ''],
      ['TOTAL failed (0 rows)', '', ''],
      ['TOTAL cancelled (0 rows)', '', ''],
      ['TOTAL needs fixing (2 rows, state invalid)', '', ''],
      ['TOTAL skipped (0 rows)', '', ''],
      [`TOTALS from Simulator (${url}): TEST ONLY, no real gift was sent and no money was charged`, '', ''],
    ]);
    expect(draft.filter((r) => !r.name?.startsWith('TOTAL'))).toHaveLength(8);

    const { rows } = await h.ok('campaigns:rows', { campaignId: created.id });
    const skipped = rows.find((r) => r.email === 'skip@example.com');
    await h.ok('rows:skip', { rowId: skipped?.id ?? 0 });
    await h.ok('campaigns:send', { campaignId: created.id, confirmed: true });
    await waitFor('the run to end', () => h.events.find((e) => e.name === 'campaign:finished'));
    const summary = await h.ok('campaigns:get', { campaignId: created.id });
    expect(summary.counts).toMatchObject({ invalid: 2, skipped: 1, ordered: 1, failed: 3, ready: 1 });

    const fromApp = (await h.ok('campaigns:report', { campaignId: created.id })).csv;
    await h.close();
    const out = join(tempDir(), 'report.csv');
    const cli = await runCli(['report', created.id, '--out', out, '--data-dir', dataDir]);
    expect(cli.code, cli.stderr).toBe(0);
    const fromCli = readFileSync(out, 'utf8');

    for (const csv of [fromApp, fromCli]) {
      const all = records(csv);
      const byLine = new Map(all.filter((r) => !r.name?.startsWith('TOTAL')).map((r) => [Number(r.source_line), r]));
      expect(byLine.size).toBe(8);
      expect(byLine.get(2)?.state).toBe('invalid');
      expect(byLine.get(2)?.last_error).toBe('Not valid: the recipient name is missing; "nobody@" is not a valid e-mail address');
      expect(byLine.get(3)).toMatchObject({ state: 'skipped', last_error: 'Skipped by the organiser' });
      // The refused amount reads as the file wrote it, in the product's currency, beside its reason.
      expect(byLine.get(4)).toMatchObject({ state: 'invalid', amount: '30', currency: 'USD' });
      expect(byLine.get(4)?.last_error).toMatch(/^Not valid: the amount USD 30\.00 differs from the product's fixed price of USD 25\.00/);
      // What the service issued, in the form of the amount beside it; its own text at the end.
      const ordered = [...byLine.values()].find((r) => r.state === 'ordered');
      expect(ordered).toMatchObject({ amount: '25.00', issued_amount: '25.00', issued_currency: 'USD' });
      expect(ordered?.issued_amount_as_stated).toMatch(/^25(\.0+)?$/);
      const failed = [...byLine.values()].filter((r) => r.state === 'failed');
      expect(failed).toHaveLength(3);
      for (const r of failed) expect(r.last_error).toMatch(/balance.*HTTP 402 INSUFFICIENT_BALANCE/);
      expect([...byLine.values()].find((r) => r.state === 'ready')?.last_error).toMatch(/^Not sent yet/);
      // Every row without a standing order says why; the ordered one has nothing to explain.
      for (const r of byLine.values()) {
        if (r.state === 'ordered') expect(r.last_error).toBe('');
        else expect(r.last_error, `line ${r.source_line}`).not.toBe('');
      }
      expect(all.filter((r) => r.name?.startsWith('TOTAL')).map((r) => [r.name, r.amount, r.currency])).toEqual([
        ['TOTAL ordered (1 orders)', '25.00', 'USD'],
        ['TOTAL charged', '25.00', 'USD'],
        ['TOTAL delivered (0 rows)', '', ''],
        ['TOTAL awaiting delivery (1 row, state ordered)', '', ''],
        ['TOTAL not sent yet (1 row, state ready)', '', ''],
        ['TOTAL sending (0 rows)', '', ''],
        ['TOTAL failed (3 rows)', '', ''],
        ['TOTAL cancelled (0 rows)', '', ''],
        ['TOTAL needs fixing (2 rows, state invalid)', '', ''],
        ['TOTAL skipped (1 row)', '', ''],
        [expect.stringMatching(/^TOTALS from Simulator \(.+\): TEST ONLY, no real gift was sent/), '', ''],
      ]);
    }
    // One code writes both: the same rows, the same words, the same totals.
    expect(fromCli).toBe(fromApp);
  }, 60_000);
});
