// campaigns:previewImport's `rows` choice and its `defaultMessage` figure, through the app service's
// dispatch, the import worker, a real SQLite file and the real simulator over HTTP: a preview asked
// with `rows: 'none'` (the window's) answers everything the full one does (layout, problems,
// totals, what each repeat choice sends, the default message's failing rows) without one row,
// and the figure counts exactly the rows that would send the default message and cannot.
import { describe, expect, it } from 'vitest';
import { startSimulator, tempDir } from '../../../support/index.ts';
import { csvBase64, recipientsCsv, startService, usdRangeProduct } from '../../../support/app-harness.ts';

// Lines 2, 5 and 6 have no message of their own (6 also a bad address); 3 and 7 have a good one of
// their own, 4 a bad one of its own; 7 repeats 3's address (a valid line); 8 has a cell too many (a file problem).
const FILE = csvBase64([
  'First name,Last name,Email,Amount,Team,Message',
  'Ann,Lee,ann@example.com,10,Speakers,',
  'Mary,Smith,mary@example.com,20,Crew,Thanks from the {Team}',
  'Bo,Kim,bo@example.com,15,Crew,Hi {nickname}',
  'Émile,Zola,emile@example.fr,10,Bénévoles,',
  'Cy,Young,cy@@example.com,10,Crew,',
  'Mary,Smith,mary@example.com,10,Crew,Again',
  'Dee,Ray,dee@example.com,10,Crew,Hello,extra',
]);

describe("campaigns:previewImport's rows choice and defaultMessage", () => {
  it('answers the same figures without rows, and counts the rows whose default message fails', async () => {
    const sim = await startSimulator({ latencyMs: 1 });
    const h = await startService(tempDir(), { simulatorUrl: sim.url });
    const productId = await usdRangeProduct(h);
    const input = { environment: 'simulator' as const, productId, country: 'US', fileName: 'speakers.csv', bytesBase64: FILE, message: 'Hi {Department}' };

    const unasked = await h.ok('campaigns:previewImport', input);
    const all = await h.ok('campaigns:previewImport', { ...input, rows: 'all' });
    const none = await h.ok('campaigns:previewImport', { ...input, rows: 'none' });

    // The default is every row, as before the choice existed (the CLI's validate reads them).
    expect(unasked).toEqual(all);
    expect(all.rows.map((r) => r.line)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(none.rows).toEqual([]);
    // Everything else is the same answer, and none of it is empty here.
    const { rows: _all, ...allButRows } = all;
    const { rows: _none, ...noneButRows } = none;
    expect(noneButRows).toEqual(allButRows);
    expect(none.totals).toMatchObject({ rows: 7, duplicateEmails: 1 });
    expect(none.totals.invalid).toBeGreaterThanOrEqual(4);
    expect(none.problems.map((p) => p.line)).toContain(8);
    const sends = (inCampaign: 'skip' | 'send') => none.totals.toSend.find((f) => f.repeats.inCampaign === inCampaign && f.repeats.earlier === 'send')?.rows;
    expect(sends('send')).toBe((sends('skip') ?? 0) + 1);

    // The figure: lines 2, 5 and 6 would send the default and cannot; 4's own message fails, which is not the default's.
    const failingDefault = all.rows.filter((r) => r.message === '' && r.errors.some((e) => e.field === 'message'));
    expect(failingDefault.map((r) => r.line)).toEqual([2, 5, 6]);
    expect(all.rows.find((r) => r.line === 4)?.errors.map((e) => e.field)).toContain('message');
    const reason = failingDefault[0]?.errors.find((e) => e.field === 'message')?.message.replace(/^Line 2: /, '');
    expect(reason).toMatch(/^the message uses \{Department\}, which is neither a column of the file nor a field/);
    expect(none.defaultMessage).toEqual({ rows: 3, firstLine: 2, reason });

    // A default the rows can send, or none at all: no figure, though line 4's own message still fails.
    const good = await h.ok('campaigns:previewImport', { ...input, message: 'Hi {first_name} of {Team}', rows: 'none' });
    expect(good.defaultMessage).toBeNull();
    expect(good.totals.invalid).toBeGreaterThanOrEqual(2);
    expect((await h.ok('campaigns:previewImport', { ...input, message: null, rows: 'none' })).defaultMessage).toBeNull();
  });

  it('answers a large file without rows with the full totals', async () => {
    const sim = await startSimulator({ latencyMs: 1 });
    const h = await startService(tempDir(), { simulatorUrl: sim.url });
    const productId = await usdRangeProduct(h);
    const input = { environment: 'simulator' as const, productId, country: 'US', defaultAmount: '25', fileName: 'big.csv', bytesBase64: recipientsCsv(5_000) };
    const all = await h.ok('campaigns:previewImport', input);
    const none = await h.ok('campaigns:previewImport', { ...input, rows: 'none' });
    expect(all.rows).toHaveLength(5_000);
    expect(none.rows).toEqual([]);
    expect(none.totals).toEqual(all.totals);
    expect(none.totals.rows).toBe(5_000);
  });

  it('refuses a rows choice it does not know', async () => {
    const h = await startService(tempDir());
    const result = await h.service.invoke('campaigns:previewImport', { environment: 'simulator', productId: 1, fileName: 'a.csv', bytesBase64: FILE, rows: 'some' } as never);
    expect(result).toEqual({
      ok: false,
      error: { code: 'invalid-input', message: 'The request for campaigns:previewImport is not valid: ✖ Invalid option: expected one of "all"|"none"\n  → at rows' },
    });
  });
});
