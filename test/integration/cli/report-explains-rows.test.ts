// Issue 13, "a report that explains every row": the app's campaigns:report and `giftbatch report`
// write the same report from the same code (campaigns/report.ts), and in it every row that was not
// sent says why in last_error: its validation errors, who skipped it, the service's refusal, that it
// still waits. The totals section is there even when nothing was ordered.
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
    const lines = ['Name,Email', ',nobody@', 'Skip Me,skip@example.com', ...Array.from({ length: 5 }, (_, i) => `Guest ${i},guest${i}@example.com`)];
    const file = { fileName: 'guests.csv', bytesBase64: csvBase64(lines) };
    const created = await h.ok('campaigns:create', { ...file, environment: 'simulator', productId, name: 'Gala', senderName: 'Gala team' });

    // A draft, nothing ordered yet: the totals are there anyway, at zero.
    const draft = records((await h.ok('campaigns:report', { campaignId: created.id })).csv);
    expect(draft.filter((r) => r.name?.startsWith('TOTAL')).map((r) => [r.name, r.amount, r.currency])).toEqual([
      ['TOTAL ordered (0 orders)', '0.00', 'USD'],
      ['TOTAL charged', '0', ''],
    ]);

    const { rows } = await h.ok('campaigns:rows', { campaignId: created.id });
    const skipped = rows.find((r) => r.email === 'skip@example.com');
    await h.ok('rows:skip', { rowId: skipped?.id ?? 0 });
    await h.ok('campaigns:send', { campaignId: created.id, confirmed: true });
    await waitFor('the run to end', () => h.events.find((e) => e.name === 'campaign:finished'));
    const summary = await h.ok('campaigns:get', { campaignId: created.id });
    expect(summary.counts).toMatchObject({ invalid: 1, skipped: 1, ordered: 1, failed: 3, ready: 1 });

    const fromApp = (await h.ok('campaigns:report', { campaignId: created.id })).csv;
    await h.close();
    const out = join(tempDir(), 'report.csv');
    const cli = await runCli(['report', created.id, '--out', out, '--data-dir', dataDir]);
    expect(cli.code, cli.stderr).toBe(0);
    const fromCli = readFileSync(out, 'utf8');

    for (const csv of [fromApp, fromCli]) {
      const all = records(csv);
      const byLine = new Map(all.filter((r) => !r.name?.startsWith('TOTAL')).map((r) => [Number(r.source_line), r]));
      expect(byLine.size).toBe(7);
      expect(byLine.get(2)?.state).toBe('invalid');
      expect(byLine.get(2)?.last_error).toBe('Not valid: the recipient name is missing; "nobody@" is not a valid e-mail address');
      expect(byLine.get(3)).toMatchObject({ state: 'skipped', last_error: 'Skipped by the organiser' });
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
      ]);
    }
    // One code writes both: the same rows, the same words, the same totals.
    expect(fromCli).toBe(fromApp);
  }, 60_000);
});
