// The import worker's code may fail to load where this machine cannot look (the packaged app loads
// it from app.asar). Without a fallback every import would then fail for good ('The import stopped
// before it finished… Try again'). A worker that never said it was ready got no job, so its jobs,
// and every later one, run on the engine's thread instead, said once in the log; a worker that dies
// after it started still fails its job as before. Real SQLite file, real simulator over HTTP.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { allRows, tempDir } from '../../../support/index.ts';
import { csvBase64, startService, usdRangeProduct } from '../../../support/app-harness.ts';

const LINES = ['Name,Email,Amount', 'Ann Lee,ann@example.com,30', 'Bob Ray,bob at example.com,25', ...Array.from({ length: 200 }, (_, i) => `Guest ${i},guest${i}@example.com,${5 + (i % 40)}`)];

async function importThrough(workerUrl: URL | undefined) {
  const h = await startService(tempDir(), workerUrl ? { service: { imports: { workerUrl } } } : {});
  const productId = await usdRangeProduct(h);
  const input = { fileName: 'guests.csv', bytesBase64: csvBase64(LINES), environment: 'simulator' as const, productId, country: 'US' };
  const preview = await h.ok('campaigns:previewImport', input);
  const created = await h.ok('campaigns:create', { ...input, name: 'Guests', senderName: 'Team', message: 'Thanks' });
  const rows = allRows(h.engine.db, created.id).map((r) => [r.line, r.email, r.amountMinor, r.state, r.errors]);
  const report = await h.service.invoke('campaigns:report', { campaignId: created.id });
  return { h, preview, created, rows, report };
}

describe('an import worker that cannot start', () => {
  it('whose code is missing: preview, create and report still answer, as the worker would, and the log says why once', async () => {
    const missing = pathToFileURL(join(tempDir(), 'no-such-import-worker.mjs'));
    const here = await importThrough(missing);
    const worker = await importThrough(undefined);
    try {
      expect(here.preview.totals).toEqual(worker.preview.totals);
      expect(here.preview.totals).toMatchObject({ rows: 202, invalid: 1 });
      expect(here.created.counts).toEqual(worker.created.counts);
      expect(here.rows).toEqual(worker.rows);
      expect(here.report.ok).toBe(true);
      const warnings = here.h.logs.filter((l) => l.includes('import worker could not start'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^warn: .*no-such-import-worker/);
      expect(worker.h.logs.filter((l) => l.includes('import worker could not start'))).toEqual([]);
    } finally {
      await here.h.close();
      await worker.h.close();
    }
  }, 60_000);

  it('whose code throws as it loads: the same (a worker that never became ready got no job)', async () => {
    const broken = join(tempDir(), 'broken-import-worker.mjs');
    writeFileSync(broken, "throw new Error('cannot load: a module is missing from the package');\n");
    const { h, created, rows } = await importThrough(pathToFileURL(broken));
    try {
      expect(created.counts).toMatchObject({ ready: 201, invalid: 1 });
      expect(rows).toHaveLength(202);
      expect(h.logs.filter((l) => l.includes('a module is missing from the package'))).toHaveLength(1);
    } finally {
      await h.close();
    }
  }, 60_000);
});
