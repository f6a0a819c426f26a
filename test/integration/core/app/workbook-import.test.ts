// A workbook through the app's calls, the import worker, a real SQLite file and the real simulator:
// the preview answers (not fails) when the sheet must be chosen, listing the sheets with their rows;
// the chosen sheet is previewed and created; a create without it, or with a sheet the workbook
// lacks, is 'invalid-input' naming the sheets, and nothing is stored.
import { describe, expect, it } from 'vitest';
import { startSimulator, tempDir } from '../../../support/index.ts';
import { csvBase64, startService, usdRangeProduct } from '../../../support/app-harness.ts';
import { xlsx, type XCell } from '../../../support/workbook-files.ts';

function speakers(n: number): XCell[][] {
  const rows: XCell[][] = [['Speakers 2024'], [], ['Name', 'Email', 'Amount']];
  for (let i = 1; i <= n; i++) rows.push([`Speaker ${i}`, `speaker${i}@example.com`, { n: i % 2 ? 50 : 25, style: 1 }]);
  return rows;
}

const BOOK = Buffer.from(
  xlsx([
    { name: 'Notes', rows: [['Budget'], ['Cards', { n: 1000 }], ['Fees', { f: 'B2*0.02', v: '20' }]] },
    { name: 'Speakers', rows: speakers(48) },
  ]),
).toString('base64');

describe('a workbook through the app', () => {
  it('asks for the sheet, previews and creates the chosen one, and refuses a create without it', async () => {
    const sim = await startSimulator({ latencyMs: 1 });
    const h = await startService(tempDir(), { simulatorUrl: sim.url });
    const productId = await usdRangeProduct(h);
    const input = { environment: 'simulator' as const, productId, fileName: 'speakers.xlsx', bytesBase64: BOOK };

    const ask = await h.ok('campaigns:previewImport', input);
    expect(ask).toMatchObject({
      format: 'xlsx',
      encoding: 'xlsx',
      delimiter: '',
      workbook: { sheets: [{ name: 'Notes', rows: 3 }, { name: 'Speakers', rows: 50 }], sheet: null },
      headers: [],
      rows: [],
      totals: { rows: 0, valid: 0, invalid: 0 },
    });

    const chosen = await h.ok('campaigns:previewImport', { ...input, sheet: 'Speakers' });
    expect(chosen.workbook).toEqual({ sheets: [{ name: 'Notes', rows: 3 }, { name: 'Speakers', rows: 50 }], sheet: 'Speakers' });
    expect(chosen.totals).toMatchObject({ rows: 48, valid: 48, invalid: 0, amounts: [{ currency: 'USD', amount: '1800.00' }] });
    expect(chosen.rows[0]?.line).toBe(4);

    const base = { ...input, name: 'Speakers', senderName: 'The team' };
    const without = await h.service.invoke('campaigns:create', base);
    expect(without).toEqual({ ok: false, error: { code: 'invalid-input', message: expect.stringMatching(/"Notes" \(3 rows\), "Speakers" \(50 rows\)/) } });
    const unknown = await h.service.invoke('campaigns:create', { ...base, sheet: 'Guests' });
    expect(unknown).toEqual({ ok: false, error: { code: 'invalid-input', message: expect.stringMatching(/no sheet named "Guests"/) } });
    expect((await h.ok('campaigns:list', {})).campaigns).toEqual([]);

    const created = await h.ok('campaigns:create', { ...base, sheet: 'Speakers' });
    expect(created.counts).toMatchObject({ ready: 48, invalid: 0 });
  }, 60_000);

  it('a CSV says so: format csv, no workbook; a sheet given for a CSV is ignored', async () => {
    const sim = await startSimulator({ latencyMs: 1 });
    const h = await startService(tempDir(), { simulatorUrl: sim.url });
    const productId = await usdRangeProduct(h);
    const preview = await h.ok('campaigns:previewImport', {
      environment: 'simulator',
      productId,
      fileName: 'list.csv',
      bytesBase64: csvBase64(['Name,Email,Amount', 'Ann,ann@example.com,10']),
      sheet: 'Speakers',
    });
    expect(preview).toMatchObject({ format: 'csv', workbook: null, encoding: 'utf-8', delimiter: ',', totals: { rows: 1, valid: 1 } });
  }, 30_000);

  it('an empty file says what to choose', async () => {
    const h = await startService(tempDir());
    const result = await h.service.invoke('campaigns:previewImport', { environment: 'simulator', productId: await usdRangeProduct(h), fileName: 'list.xlsx', bytesBase64: '' });
    expect(result).toEqual({ ok: false, error: { code: 'invalid-input', message: '"list.xlsx" is empty. Choose your list of recipients: a CSV file or an .xlsx or .ods workbook.' } });
  }, 30_000);

  it('refuses an empty sheet name as malformed input', async () => {
    const h = await startService(tempDir());
    const result = await h.service.invoke('campaigns:previewImport', { environment: 'simulator', productId: 1, fileName: 'a.xlsx', bytesBase64: BOOK, sheet: '' });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
  });
});
