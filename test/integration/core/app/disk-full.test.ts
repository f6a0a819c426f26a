// Issue 12: a full disk gets a message that says what happened, that nothing was lost, and what to do.
import { describe, expect, it } from 'vitest';
import { startSimulator, tempDir } from '../../../support/index.ts';
import { recipientsCsv, startService } from '../../../support/app-harness.ts';

describe('a full disk', () => {
  it('an import that does not fit says so, stores nothing of it, and what was there stays', async () => {
    const { url } = await startSimulator();
    const h = await startService(tempDir(), { simulatorUrl: url });
    const { products } = await h.ok('products:list', { environment: 'simulator', country: 'US' });
    const productId = products.find((p) => p.name === 'Northwind Books Gift Card $25')?.id ?? 0;
    const small = await h.ok('campaigns:create', { fileName: 'a.csv', bytesBase64: recipientsCsv(3), environment: 'simulator', productId, name: 'Small', senderName: 'Team' });
    // The file may grow by a few pages only: as good as a full disk to SQLite.
    const pages = Number(h.engine.db.pragma('page_count', { simple: true }));
    h.engine.db.pragma(`max_page_count = ${pages + 2}`);
    const full = await h.service.invoke('campaigns:create', { fileName: 'b.csv', bytesBase64: recipientsCsv(5_000), environment: 'simulator', productId, name: 'Big', senderName: 'Team' });
    expect(full).toMatchObject({ ok: false, error: { code: 'configuration', message: expect.stringMatching(/disk that holds the data folder is full: the last change was not saved, and nothing saved before it was lost.*Free some space/) } });
    const { campaigns } = await h.ok('campaigns:list', {});
    expect(campaigns.map((c) => c.id)).toEqual([small.id]);
  });
});
