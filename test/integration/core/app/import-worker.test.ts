// Issue 10: the app's imports run in the import worker, on its own connection to the data folder's
// SQLite file. What they give is what the synchronous import (the CLI's) gives; a worker that dies
// inside the storing transaction leaves nothing, and the call says so; the errors an import raises
// on purpose keep their code and message.
import { hostname } from 'node:os';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { previewDto } from '../../../../electron/core/app/import-jobs.ts';
import { campaignReport } from '../../../../electron/core/campaigns/report.ts';
import { createCampaignNow, previewNow } from '../../../support/engine-import.ts';
import type { ImportFault } from '../../../../electron/core/app/import-jobs.ts';
import { CSV_LIMITS, CsvLimitError } from '../../../../shared/domain/csv/index.ts';
import type { Recipient } from '../../../../electron/core/db/repos/recipients.ts';
import { createCampaign, discardUnfinishedImports, listCampaigns, type StoreInParts } from '../../../../electron/core/db/repos/campaigns.ts';
import { openEngine } from '../../../../electron/core/engine.ts';
import { createMemorySecretStore } from '../../../../electron/core/secrets/secret-store.ts';
import { campaignInput, person, T0 } from '../../../support/db-seed.ts';
import { allRows, expectTalliesMatchRows, tempDir } from '../../../support/index.ts';
import { csvBase64, recipientsCsv, startService, waitFor, type Harness, usdRangeProduct } from '../../../support/app-harness.ts';

// Quoted cells, a bad address, a duplicate, amounts with a sign and cents, an empty amount (the default), a short row.
const MIXED = [
  'Name,Email,Amount,Message',
  '"Smith, Ann",ann@example.com,$30,"Thanks, Ann — see you ""next"" year"',
  'Bob Jones,bob at example.com,25,',
  'Chloé Dubois,chloe@example.org,12.50,Merci',
  'Ann again,ANN@example.com,40,',
  'No Amount,noamount@example.net,,',
  'Too Cheap,cheap@example.com,1,',
  'Short Row',
  ...Array.from({ length: 3_000 }, (_, i) => `Guest ${i},guest${i}@example.com,${5 + (i % 90)},Row ${i}`),
];

/** A stored row without what differs between two imports of the same file (ids, keys, times). */
function comparable(r: Recipient): Partial<Recipient> {
  const { id: _id, campaignId: _campaign, externalReferenceId: _key, createdAt: _created, updatedAt: _updated, ...rest } = r;
  return rest;
}

function countsOf(db: Database.Database): { campaigns: number; recipients: number; events: number } {
  const count = (table: string) => Number(db.prepare(`SELECT count(*) FROM ${table}`).pluck().get());
  return { campaigns: count('campaigns'), recipients: count('recipients'), events: count('events') };
}

async function serviceWithFault(fault: ImportFault): Promise<Harness> {
  return startService(tempDir(), { service: { imports: { fault } } });
}

describe('imports in the import worker', () => {
  it('preview and create give what the synchronous import gives, and create stores the file once', async () => {
    const h = await startService(tempDir());
    const productId = await usdRangeProduct(h);
    const file = { fileName: 'mixed.csv', bytesBase64: csvBase64(MIXED) };
    const input = { ...file, environment: 'simulator' as const, productId, country: 'US', defaultAmount: '20' };

    const connection = await h.engine.connections.get('simulator');
    const product = await h.engine.findProduct(connection, productId, 'US');
    const bytes = new Uint8Array(Buffer.from(file.bytesBase64, 'base64'));
    const defaultAmount = { minor: 2000, currency: product.currency };

    const preview = await h.ok('campaigns:previewImport', input);
    const { product: checkedAgainst, ...checked } = preview;
    expect(checked).toEqual(previewDto(previewNow(h.engine, connection, bytes, product, { defaultAmount }), 'all'));
    expect(checkedAgainst).toMatchObject({ id: productId, currency: product.currency });
    expect(preview.totals).toMatchObject({ rows: 3_007, duplicateEmails: 1 });
    expect(preview.totals.invalid).toBeGreaterThanOrEqual(3);

    const created = await h.ok('campaigns:create', { ...input, name: 'Through the worker', senderName: 'Team', message: ' Thanks ' });
    const sync = createCampaignNow(h.engine, connection, { bytes, product, name: 'Through the worker', senderName: 'Team', message: 'Thanks', defaultAmount });

    expect(created.counts).toEqual(sync.counts);
    expect(created).toMatchObject({ name: 'Through the worker', sendState: 'draft', running: false, productId, product: { id: productId } });
    const stored = h.engine.campaign(created.id);
    const { id: _a, createdAt: _b, updatedAt: _c, ...campaign } = stored;
    const { id: _d, createdAt: _e, updatedAt: _f, ...syncCampaign } = sync.campaign;
    expect(campaign).toEqual(syncCampaign);
    expect(allRows(h.engine.db, created.id).map(comparable)).toEqual(allRows(h.engine.db, sync.campaign.id).map(comparable));
    const events = (id: string) => h.engine.db.prepare('SELECT kind, detail FROM events WHERE campaign_id = ? ORDER BY id').all(id);
    expect(events(created.id)).toEqual(events(sync.campaign.id));
    // Every row has a key of its own.
    const keys = new Set([...allRows(h.engine.db, created.id), ...allRows(h.engine.db, sync.campaign.id)].map((r) => r.externalReferenceId));
    expect(keys.size).toBe(2 * 3_007);

    // The report, written out in the worker, is the engine's report of the same rows.
    const report = await h.ok('campaigns:report', { campaignId: created.id });
    expect(report.csv).toBe(campaignReport(h.engine.db, created.id));
    expect(report.csv.split('\n').length).toBeGreaterThan(3_007);
    expect(report.rows).toBe(3_007);
  });

  it('a file without recipient rows creates nothing, and says why', async () => {
    const h = await startService(tempDir());
    const productId = await usdRangeProduct(h);
    const result = await h.service.invoke('campaigns:create', {
      fileName: 'header.csv', bytesBase64: csvBase64(['Name,Email']), environment: 'simulator', productId, name: 'Empty', senderName: 'Team',
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid-input', message: expect.stringMatching(/^"header\.csv" has no recipient rows.*Nothing was created\.$/) } });
    expect(countsOf(h.engine.db)).toEqual({ campaigns: 0, recipients: 0, events: 0 });
  });

  it('a list without a column for the e-mail address or the name creates nothing, and says which and how to fix it', async () => {
    const h = await startService(tempDir());
    const productId = await usdRangeProduct(h);
    const create = (fileName: string, lines: string[]) =>
      h.service.invoke('campaigns:create', { fileName, bytesBase64: csvBase64(lines), environment: 'simulator', productId, name: 'Unmapped', senderName: 'Team', defaultAmount: '10' });
    // A note picked instead of the list: its first line is taken for the header, and names neither column.
    const note = await create('notes.txt', ['Dear all,', 'please find the list attached.', 'Thanks, Ann']);
    expect(note).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(!note.ok && note.error.message).toBe(
      `"notes.txt" has no column for the e-mail address or for the recipient's name, so no row can be sent: nothing was created. Name those columns "Email" and "Name" (or "First name" and "Last name") in the file's header row, or choose them when you import the list in the app.`,
    );
    const noEmail = await create('names.csv', ['Name,Amount', 'Ann,10', 'Bob,12']);
    expect(!noEmail.ok && noEmail.error.message).toMatch(/^"names\.csv" has no column for the e-mail address, so no row can be sent: nothing was created\. Name that column "Email"/);
    const noName = await create('emails.csv', ['Email,Amount', 'ann@example.com,10']);
    expect(!noName.ok && noName.error.message).toMatch(/^"emails\.csv" has no column for the recipient's name, so no row can be sent/);
    expect(countsOf(h.engine.db)).toEqual({ campaigns: 0, recipients: 0, events: 0 });
    // First and last name columns are a name; the list is saved.
    const split = await h.ok('campaigns:create', { fileName: 'split.csv', bytesBase64: csvBase64(['First name,Last name,Email', 'Ann,Lee,ann@example.com']), environment: 'simulator', productId, name: 'Split', senderName: 'Team', defaultAmount: '10' });
    expect(split.counts.ready).toBe(1);
  });

  for (const action of ['exit', 'throw'] as const) {
    it(`a worker that fails inside the storing transaction (${action}) stores nothing, says so, and the next import works`, async () => {
      const h = await serviceWithFault({ afterRows: 1_500, action });
      const productId = await usdRangeProduct(h);
      const input = { fileName: 'big.csv', bytesBase64: recipientsCsv(4_000), environment: 'simulator' as const, productId, name: 'Big', senderName: 'Team', defaultAmount: '10' };

      const failed = await h.service.invoke('campaigns:create', input);
      expect(failed).toMatchObject({ ok: false, error: { code: 'internal' } });
      expect(!failed.ok && failed.error.message).toMatch(/^The import stopped before it finished; nothing was stored and no campaign was created\. Try again/);
      expect(countsOf(h.engine.db)).toEqual({ campaigns: 0, recipients: 0, events: 0 });
      expect((await h.ok('campaigns:list', {})).campaigns).toEqual([]);
      // What happened is in the log (the generic answer does not say it).
      expect(h.logs.join('\n')).toMatch(action === 'exit' ? /exited with code 70/ : /test fault: thrown after 1500 rows inserted/);

      // The engine's own connection writes at once (no lock left behind), and the next import stores every row.
      h.engine.db.exec('BEGIN IMMEDIATE; ROLLBACK');
      const created = await h.ok('campaigns:create', input);
      expect(created.counts.ready).toBe(4_000);
      expect(countsOf(h.engine.db)).toMatchObject({ campaigns: 1, recipients: 4_000 });
    });
  }

  it('a worker terminated inside the storing transaction (the app closing) stores nothing, and the call says so', async () => {
    const h = await serviceWithFault({ afterRows: 1_000, action: 'hang' });
    const productId = await usdRangeProduct(h);
    const pending = h.service.invoke('campaigns:create', {
      fileName: 'big.csv', bytesBase64: recipientsCsv(3_000), environment: 'simulator', productId, name: 'Big', senderName: 'Team', defaultAmount: '10',
    });
    // The worker holds the write lock once it is inside the transaction: the engine's connection cannot take it.
    await waitFor('the worker inside its transaction', () => {
      try {
        h.engine.db.pragma('busy_timeout = 0');
        h.engine.db.exec('BEGIN IMMEDIATE; ROLLBACK');
        return false;
      } catch (error) {
        return (error as { code?: string }).code === 'SQLITE_BUSY';
      } finally {
        h.engine.db.pragma('busy_timeout = 5000');
      }
    });
    await h.service.close();
    const answer = await pending;
    expect(answer).toMatchObject({ ok: false, error: { code: 'internal', message: expect.stringMatching(/^The import stopped before it finished; nothing was stored/) } });
    h.engine.db.exec('BEGIN IMMEDIATE; ROLLBACK');
    expect(countsOf(h.engine.db)).toEqual({ campaigns: 0, recipients: 0, events: 0 });
  });

  it('a file past a limit is refused whole with invalid-input and the limit named, as on the synchronous path', async () => {
    const h = await startService(tempDir());
    const productId = await usdRangeProduct(h);
    const lines = ['Email', ...Array.from({ length: CSV_LIMITS.rows + 1 }, (_, i) => `g${i}@e.co`)];
    const input = { fileName: 'huge.csv', bytesBase64: csvBase64(lines), environment: 'simulator' as const, productId, defaultAmount: '10' };

    const connection = await h.engine.connections.get('simulator');
    const product = await h.engine.findProduct(connection, productId, 'US');
    let expected = '';
    try {
      previewNow(h.engine, connection, new Uint8Array(Buffer.from(input.bytesBase64, 'base64')), product);
    } catch (error) {
      expect(error).toBeInstanceOf(CsvLimitError);
      expected = (error as Error).message;
    }
    expect(expected).toMatch(/more than 250,000 rows/);

    expect(await h.service.invoke('campaigns:previewImport', input)).toEqual({ ok: false, error: { code: 'invalid-input', message: expected } });
    expect(await h.service.invoke('campaigns:create', { ...input, name: 'Huge', senderName: 'Team' })).toEqual({ ok: false, error: { code: 'invalid-input', message: expected } });
    expect(countsOf(h.engine.db)).toEqual({ campaigns: 0, recipients: 0, events: 0 });
  });
});

describe('an import stored in parts', () => {
  const stopAfterParts = (parts: number, marker: string): StoreInParts => {
    let n = 0;
    return {
      marker,
      rowsPerPart: 10,
      between: () => {
        if (++n > parts) throw new Error('the importer died');
      },
    };
  };

  it('is never shown half-stored, and what a dead importer left is removed when the engine next opens', async () => {
    const dir = tempDir();
    const rows = Array.from({ length: 50 }, (_, i) => person(i));
    const first = await openEngine({ dataDir: dir, secrets: createMemorySecretStore(), env: {} });
    // One importer of a process that is gone (pid past any pid_max), one of this live process.
    expect(() => createCampaign(first.db, campaignInput, rows, T0, stopAfterParts(2, `${hostname()} 99999999 dead`))).toThrow(/died/);
    expect(() => createCampaign(first.db, campaignInput, rows, T0, stopAfterParts(1, `${hostname()} ${process.pid} alive`))).toThrow(/died/);
    expect(listCampaigns(first.db)).toEqual([]);
    expect(countsOf(first.db)).toEqual({ campaigns: 2, recipients: 30, events: 0 });
    // A whole one is shown, with every row and its one event.
    const whole = createCampaign(first.db, campaignInput, rows, T0, { marker: `${hostname()} ${process.pid} whole`, rowsPerPart: 10 });
    expect(whole.counts.ready).toBe(50);
    expect(listCampaigns(first.db).map((c) => c.id)).toEqual([whole.campaign.id]);
    await first.close();

    const next = await openEngine({ dataDir: dir, secrets: createMemorySecretStore(), env: {} });
    try {
      expect(countsOf(next.db)).toEqual({ campaigns: 2, recipients: 60, events: 1 });
      expect(next.db.prepare('SELECT importing FROM campaigns WHERE importing IS NOT NULL').pluck().all()).toEqual([`${hostname()} ${process.pid} alive`]);
      expect(discardUnfinishedImports(next.db, `${hostname()} ${process.pid} alive`)).toBe(1);
      expect(countsOf(next.db)).toEqual({ campaigns: 1, recipients: 50, events: 1 });
      expectTalliesMatchRows(next.db);
    } finally {
      await next.close();
    }
  });
});
