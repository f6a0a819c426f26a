// engine_rss_mb_100k: resident memory of an engine process holding a 100,000-row campaign. This
// process is that engine and nothing else: it opens the engine on a temp data folder, imports the
// generated 100,000-row CSV as a campaign (engine.createCampaign: the same path as the app), reads
// its status and the first page of rows (what the campaign screen asks for), then reports its RSS
// after a garbage collection, and its peak RSS over the whole run (the import's high-water mark).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countByState, pageRecipients } from '../../../electron/core/db/repos/recipients.ts';
import { openEngine } from '../../../electron/core/engine.ts';
import { createMemorySecretStore } from '../../../electron/core/secrets/secret-store.ts';
import { createCampaignNow } from '../../support/engine-import.ts';
import { recipientsCsv } from '../csv-data.ts';
import { emit, gc, log, scenario } from '../harness.ts';
import { benchProduct, DEFAULT_AMOUNT } from '../product.ts';

const ROWS = 100_000;
const MB = 1024 * 1024;

scenario(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'giftbatch-bench-rss-'));
  const engine = await openEngine({ dataDir: dir, secrets: createMemorySecretStore(), env: {} });
  try {
    const rssOpen = process.memoryUsage().rss;
    // An address of our own: no simulator is started, and createCampaign makes no request.
    const connection = await engine.connections.get('simulator', { baseUrl: 'http://127.0.0.1:9' });
    let bytes: Uint8Array | null = recipientsCsv(ROWS);
    const { campaign } = createCampaignNow(engine, connection, { bytes, product: benchProduct, name: 'Bench memory', senderName: 'Bench team', defaultAmount: DEFAULT_AMOUNT });
    bytes = null;
    const counts = countByState(engine.db, campaign.id);
    const page = pageRecipients(engine.db, campaign.id, { offset: 0, limit: 100 });
    if (page.total !== ROWS || counts.ready + counts.invalid !== ROWS) throw new Error('the campaign does not hold every row');
    gc();
    await new Promise((resolve) => setTimeout(resolve, 200));
    gc();
    const usage = process.memoryUsage();
    const peakMb = process.resourceUsage().maxRSS / 1024;
    log(`rss: ${(usage.rss / MB).toFixed(0)} MB holding the campaign (heap ${(usage.heapUsed / MB).toFixed(0)} MB), peak ${peakMb.toFixed(0)} MB, ${(rssOpen / MB).toFixed(0)} MB after open`);
    emit({
      engine_rss_mb_100k: usage.rss / MB,
      engine_rss_peak_mb_100k: peakMb,
      engine_heap_used_mb_100k: usage.heapUsed / MB,
      engine_rss_mb_open: rssOpen / MB,
    });
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
