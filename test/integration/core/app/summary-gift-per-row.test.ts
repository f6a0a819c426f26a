// Whether a campaign chooses a gift per row (the summary's giftPerRow) is kept with the campaign when
// it is made (schema 8), not guessed from its rows: a file whose Product column names only the
// campaign's own product chooses one as much as a tiered file does, and says so after the app is
// closed and opened again, which is what a reopened draft's review reads to show its Gift column. A
// file without the column, or with it unmapped, does not; a row given another gift makes a campaign
// choose one; a follow-up of a campaign that chooses one does too. Real SQLite, the simulator over HTTP.
import { describe, expect, it } from 'vitest';
import { SIMULATOR_LOCAL_KEY } from '../../../../electron/core/connections.ts';
import { startSimulator, tempDir } from '../../../support/index.ts';
import { csvBase64, startService, waitFor } from '../../../support/app-harness.ts';

const BOOKS = 'Northwind Books Gift Card $25';
const FIFTY = 'Pinecrest Outfitters $50';

/** Every row names the campaign's own product, or nothing: no row is of another product. */
const ONLY_OWN_PRODUCT = [
  'Name,Email,Product',
  `Ada Helper,ada@example.com,${BOOKS}`,
  'Grace Helper,grace@example.com,',
  `Linus Helper,linus@example.com,${BOOKS}`,
];
const NO_PRODUCT_COLUMN = ['Name,Email', 'Ada Helper,ada@example.com', 'Grace Helper,grace@example.com'];

async function setUp(opts: { balance?: string } = {}) {
  const dataDir = tempDir();
  const { sim, url } = await startSimulator({
    itemDelayMs: 60_000,
    ...(opts.balance ? { accounts: { [SIMULATOR_LOCAL_KEY]: { currency: 'USD', balance: opts.balance } } } : {}),
  });
  const h = await startService(dataDir, { simulatorUrl: url, service: { queue: { concurrency: 1 } } });
  const { products } = await h.ok('products:list', { environment: 'simulator', country: 'US' });
  const idOf = (name: string) => {
    const found = products.find((p) => p.name === name);
    if (!found) throw new Error(`the simulator lists no "${name}"`);
    return found.id;
  };
  const create = (name: string, lines: string[], csv?: { mapping: { product: null } }) =>
    h.ok('campaigns:create', {
      fileName: 'helpers.csv',
      bytesBase64: csvBase64(lines),
      environment: 'simulator',
      productId: idOf(BOOKS),
      country: 'US',
      name,
      senderName: 'Events team',
      ...(csv ? { csv } : {}),
    });
  return { dataDir, sim, h, idOf, create };
}

describe('the campaign keeps whether it chooses a gift per row', () => {
  it('is true for a file whose Product column names only its own product, in create, get and list, and after the app is opened again', async () => {
    const { dataDir, h, create, idOf } = await setUp();
    const own = await create('Only our product', ONLY_OWN_PRODUCT);
    const plain = await create('No product column', NO_PRODUCT_COLUMN);
    const unmapped = await create('Product column unmapped', ONLY_OWN_PRODUCT, { mapping: { product: null } });

    // Every row of the first is of the campaign's own product: only the stored fact tells it apart.
    expect(own).toMatchObject({ giftPerRow: true, products: 1, productId: idOf(BOOKS), counts: { ready: 3, invalid: 0 } });
    const { rows } = await h.ok('campaigns:rows', { campaignId: own.id, offset: 0, limit: 10 });
    expect(rows.map((r) => r.productId)).toEqual([idOf(BOOKS), idOf(BOOKS), idOf(BOOKS)]);
    expect(plain).toMatchObject({ giftPerRow: false, products: 1 });
    expect(unmapped).toMatchObject({ giftPerRow: false, products: 1 });
    expect((await h.ok('campaigns:get', { campaignId: own.id })).giftPerRow).toBe(true);

    // A draft reopened later reads it from the database: close everything, open the folder again.
    await h.close();
    const again = await startService(dataDir);
    const { campaigns } = await again.ok('campaigns:list', {});
    expect(Object.fromEntries(campaigns.map((c) => [c.name, c.giftPerRow]))).toEqual({
      'Only our product': true,
      'No product column': false,
      'Product column unmapped': false,
    });
    expect((await again.ok('campaigns:get', { campaignId: own.id })).giftPerRow).toBe(true);
    expect(again.engine.db.prepare('SELECT name, gift_per_row FROM campaigns ORDER BY name').all()).toEqual([
      { name: 'No product column', gift_per_row: 0 },
      { name: 'Only our product', gift_per_row: 1 },
      { name: 'Product column unmapped', gift_per_row: 0 },
    ]);
  });

  it('stays true when every row is moved back to the campaign\'s product, and becomes true when a row of a campaign without the column is given another gift', async () => {
    const { h, create, idOf } = await setUp();
    const own = await create('Only our product', ONLY_OWN_PRODUCT);
    const { rows } = await h.ok('campaigns:rows', { campaignId: own.id, offset: 0, limit: 10 });
    const ada = rows.find((r) => r.line === 2);
    if (!ada) throw new Error('line 2 is missing');
    const edit = { rowId: ada.id, name: ada.name ?? '', email: ada.email ?? '', amount: null, message: null };
    // To the $50 gift and back: two products, then one again; it still chooses a gift per row.
    expect(await h.ok('rows:edit', { ...edit, product: String(idOf(FIFTY)) })).toMatchObject({ state: 'ready', productId: idOf(FIFTY) });
    expect(await h.ok('campaigns:get', { campaignId: own.id })).toMatchObject({ giftPerRow: true, products: 2 });
    expect(await h.ok('rows:edit', { ...edit, product: String(idOf(BOOKS)) })).toMatchObject({ state: 'ready', productId: idOf(BOOKS) });
    expect(await h.ok('campaigns:get', { campaignId: own.id })).toMatchObject({ giftPerRow: true, products: 1 });

    // Every row to the $50 gift: the products its rows use are that one only, not its own as well
    // (S15-J: a follow-up whose rows were all another gift said '2 products' and 'by default Books').
    for (const row of rows) {
      await h.ok('rows:edit', { rowId: row.id, name: row.name ?? '', email: row.email ?? '', amount: null, message: null, product: String(idOf(FIFTY)) });
    }
    const moved = await h.ok('campaigns:get', { campaignId: own.id });
    expect(moved).toMatchObject({ giftPerRow: true, products: 1, productList: [{ productId: idOf(FIFTY), name: FIFTY }], productId: idOf(BOOKS) });
    expect((await h.ok('campaigns:list', {})).campaigns.find((c) => c.id === own.id)?.productList).toEqual([{ productId: idOf(FIFTY), name: FIFTY }]);

    const plain = await create('No product column', NO_PRODUCT_COLUMN);
    expect(plain.giftPerRow).toBe(false);
    const first = (await h.ok('campaigns:rows', { campaignId: plain.id, offset: 0, limit: 10 })).rows[0];
    if (!first) throw new Error('the plain campaign has no row');
    await h.ok('rows:edit', { rowId: first.id, name: first.name ?? '', email: first.email ?? '', amount: null, message: null, product: String(idOf(FIFTY)) });
    expect(await h.ok('campaigns:get', { campaignId: plain.id })).toMatchObject({ giftPerRow: true, products: 2 });
  });

  it('is carried by a follow-up of a campaign that chooses a gift per row, even when every row it takes is of the campaign\'s product', async () => {
    // Room for two $25 gifts out of five: the other three are refused (failed), and followed up.
    const { sim, h, create } = await setUp({ balance: '50.00' });
    const lines = ['Name,Email,Product', ...[0, 1, 2, 3, 4].map((i) => `Guest ${i},guest${i}@example.com,${i % 2 === 0 ? BOOKS : ''}`)];
    const source = await create('Gala', lines);
    const plain = await create('Gala, no column', ['Name,Email', ...[5, 6, 7, 8, 9].map((i) => `Guest ${i},guest${i}@example.com`)]);
    expect([source.giftPerRow, plain.giftPerRow]).toEqual([true, false]);
    await h.ok('campaigns:send', { campaignId: source.id, confirmed: true });
    await waitFor('the run to end', () => h.events.find((e) => e.name === 'campaign:finished'));
    expect((await h.ok('campaigns:get', { campaignId: source.id })).counts).toMatchObject({ ordered: 2, failed: 3 });
    const followUp = await h.ok('campaigns:followUp', { campaignId: source.id, include: ['failed'] });
    expect(followUp).toMatchObject({ giftPerRow: true, products: 1, counts: { ready: 3 } });

    sim.setAccount(SIMULATOR_LOCAL_KEY, { balance: '50.00' });
    await h.ok('campaigns:send', { campaignId: plain.id, confirmed: true });
    await waitFor('the second run to end', () => h.events.filter((e) => e.name === 'campaign:finished').length === 2);
    const plainFollowUp = await h.ok('campaigns:followUp', { campaignId: plain.id, include: ['failed'] });
    expect(plainFollowUp).toMatchObject({ giftPerRow: false, counts: { ready: 3 } });
  });
});
