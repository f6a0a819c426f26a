// Issue 13, a gift per row: a column of the file chooses each row's product (by id, or by an exact
// product name of the chosen country), so one file sends tiers. Each row is validated against its
// own product, the totals and the pre-flight are per product, each order carries its row's product,
// the report names it, and checking the rows again or following them up keeps it.
import { describe, expect, it } from 'vitest';
import { SIMULATOR_LOCAL_KEY } from '../../../../electron/core/connections.ts';
import { allRows, expectTalliesMatchRows, startSimulator, tempDir } from '../../../support/index.ts';
import { csvBase64, startService, waitFor } from '../../../support/app-harness.ts';
import { parseCsv } from '../../../support/parse-csv.ts';

async function tiered() {
  const service = await startSimulator({ itemDelayMs: 60_000 });
  const h = await startService(tempDir(), { simulatorUrl: service.url });
  const { products } = await h.ok('products:list', { environment: 'simulator', country: 'US' });
  const idOf = (name: string) => products.find((p) => p.name === name)?.id ?? 0;
  const fifty = idOf('Pinecrest Outfitters $50');
  const books = idOf('Northwind Books Gift Card $25');
  const market = idOf('Harborline Market eGift');
  const file = {
    fileName: 'tiers.csv',
    bytesBase64: csvBase64([
      'Name,Email,Product,Amount',
      `Speaker A,a@example.com,${fifty},`,
      'Speaker B,b@example.com,Pinecrest Outfitters $50,',
      'Volunteer C,c@example.com,,',
      'Volunteer D,d@example.com,northwind books gift card $25,',
      'Guest E,e@example.com,Golden Ticket,',
      `Guest F,f@example.com,${fifty},30`,
      'Host G,g@example.com,Harborline Market eGift,40',
    ]),
    environment: 'simulator' as const,
    productId: books,
    country: 'US',
  };
  return { ...service, h, file, fifty, books, market };
}

describe('a gift per row', () => {
  it('checks each row against the product its column names, and the preview totals each product', async () => {
    const t = await tiered();
    const preview = await t.h.ok('campaigns:previewImport', t.file);
    expect(preview.mapping).toMatchObject({ name: 0, email: 1, product: 2, amount: 3 });
    expect(preview.rows.map((r) => [r.line, r.productId, r.errors.map((e) => e.field)])).toEqual([
      [2, t.fifty, []],
      [3, t.fifty, []],
      [4, t.books, []],
      [5, t.books, []],
      [6, t.books, ['product']],
      [7, t.fifty, ['amount']],
      [8, t.market, []],
    ]);
    expect(preview.rows[4]?.errors[0]?.message).toBe('Line 6: no product named "Golden Ticket" can be ordered here: give a product id or the exact name from the catalog');
    expect(preview.rows[5]?.errors[0]?.message).toMatch(/^Line 7: the amount USD 30\.00 differs from the product's fixed price of USD 50\.00/);
    expect(preview.totals).toMatchObject({ valid: 5, invalid: 2, amounts: [{ currency: 'USD', amount: '190.00' }] });
    expect(preview.totals.byProduct).toEqual([
      { productId: t.fifty, rows: 2, amounts: [{ currency: 'USD', amount: '100.00' }] },
      { productId: t.books, rows: 2, amounts: [{ currency: 'USD', amount: '50.00' }] },
      { productId: t.market, rows: 1, amounts: [{ currency: 'USD', amount: '40.00' }] },
    ]);
  });

  it('sends each row as its own product, pre-flights every product, and the report names it', async () => {
    const t = await tiered();
    const created = await t.h.ok('campaigns:create', { ...t.file, name: 'Tiers', senderName: 'Conf team' });
    expect(created.counts).toMatchObject({ ready: 5, invalid: 2 });
    expect(created.products).toBe(3);
    const { rows } = await t.h.ok('campaigns:rows', { campaignId: created.id });
    expect(rows.map((r) => [r.line, r.productId, r.productName])).toEqual([
      [2, t.fifty, 'Pinecrest Outfitters $50'],
      [3, t.fifty, 'Pinecrest Outfitters $50'],
      [4, t.books, 'Northwind Books Gift Card $25'],
      [5, t.books, 'Northwind Books Gift Card $25'],
      [6, t.books, 'Northwind Books Gift Card $25'],
      [7, t.fifty, 'Pinecrest Outfitters $50'],
      [8, t.market, 'Harborline Market eGift'],
    ]);

    const preflight = await t.h.ok('campaigns:preflight', { campaignId: created.id });
    expect(preflight).toMatchObject({ ok: true, rowsToSend: 5, totals: [{ currency: 'USD', amount: '190.00' }] });
    // Each product's own stock, as its availability answer says (S15-J: only the campaign's own product's was given).
    const inStock = { inStock: true, message: expect.toBeOneOf([null, expect.any(String)]) as unknown };
    expect(preflight.byProduct).toEqual([
      { productId: t.books, name: 'Northwind Books Gift Card $25', rows: 2, totals: [{ currency: 'USD', amount: '50.00' }], availability: inStock },
      { productId: t.fifty, name: 'Pinecrest Outfitters $50', rows: 2, totals: [{ currency: 'USD', amount: '100.00' }], availability: inStock },
      { productId: t.market, name: 'Harborline Market eGift', rows: 1, totals: [{ currency: 'USD', amount: '40.00' }], availability: inStock },
    ]);

    await t.h.ok('campaigns:send', { campaignId: created.id, confirmed: true, totals: preflight.totals });
    await waitFor('the send to finish', () => t.h.events.find((e) => e.name === 'campaign:finished'));
    const orders = t.sim.audit().accounts[SIMULATOR_LOCAL_KEY]?.orders ?? [];
    expect(orders).toHaveLength(5);
    const byKey = new Map(orders.map((o) => [o.externalReferenceId, o]));
    for (const row of allRows(t.h.engine.db, created.id).filter((r) => r.state === 'ordered')) {
      const order = byKey.get(row.externalReferenceId);
      expect(order?.productId, `line ${row.line}`).toBe(rows.find((r) => r.line === row.line)?.productId);
      expect(order?.price.minor).toBe(row.amountMinor);
    }
    expect(orders.find((o) => o.productId === t.market)?.requestedAmount).toBe('40.00');
    expectTalliesMatchRows(t.h.engine.db);

    const report = parseCsv(new TextEncoder().encode((await t.h.ok('campaigns:report', { campaignId: created.id })).csv));
    const columns = report.headers;
    const cell = (line: number, column: string) => report.records.find((r) => r.raw[columns.indexOf('source_line')] === String(line))?.raw[columns.indexOf(column)];
    expect(cell(2, 'product_id')).toBe(String(t.fifty));
    expect(cell(2, 'product_name')).toBe('Pinecrest Outfitters $50');
    expect(cell(8, 'product_name')).toBe('Harborline Market eGift');
    expect(cell(4, 'product_id')).toBe(String(t.books));
  });

  it('a row edited keeps its own product: its amount is checked against that product', async () => {
    const t = await tiered();
    const created = await t.h.ok('campaigns:create', { ...t.file, name: 'Tiers', senderName: 'Conf team' });
    const { rows } = await t.h.ok('campaigns:rows', { campaignId: created.id, states: ['invalid'] });
    const wrong = rows.find((r) => r.line === 7);
    if (!wrong) throw new Error('line 7 is invalid');
    const fixed = await t.h.ok('rows:edit', { rowId: wrong.id, name: 'Guest F', email: 'f@example.com', amount: '50', message: null });
    expect(fixed).toMatchObject({ state: 'ready', productId: t.fifty, amount: { currency: 'USD', amount: '50.00' } });
    const again = await t.h.service.invoke('rows:edit', { rowId: wrong.id, name: 'Guest F', email: 'f@example.com', amount: '25', message: null });
    expect(again).toMatchObject({ ok: true, value: { state: 'invalid', productId: t.fifty } });

    const rechecked = await t.h.ok('campaigns:revalidate', { campaignId: created.id });
    // Line 7's refused amount is kept as typed and refused again (it never quietly becomes its
    // product's price); line 6 keeps the error of the gift its file named, which nothing else can name.
    expect(rechecked).toMatchObject({ checked: 7, ready: 5, invalid: 2 });
    const after = await t.h.ok('campaigns:rows', { campaignId: created.id });
    expect(after.rows.map((r) => [r.productId, r.amount?.amount ?? null, r.amountText])).toEqual([
      [t.fifty, '50.00', null],
      [t.fifty, '50.00', null],
      [t.books, '25.00', null],
      [t.books, '25.00', null],
      [t.books, null, null],
      [t.fifty, null, '25'],
      [t.market, '40.00', null],
    ]);
    expect(after.rows[4]?.errors.map((e) => e.field)).toEqual(['product']);
    expect(after.rows[5]?.errors.map((e) => e.field)).toEqual(['amount']);
  });
});
