// A row given another gift (rows:edit with `product`): a draft row whose Product cell named nothing
// that can be ordered is given a product and sent as it; a tier's row moves to another tier; the
// product is found as the file's Product column finds one (an id, or an exact name of the campaign's
// country) in the campaign's catalog, and anything else is refused naming it. Real SQLite, the
// simulator over HTTP.
import { describe, expect, it } from 'vitest';
import { SIMULATOR_LOCAL_KEY } from '../../../../electron/core/connections.ts';
import { allRows, expectOneOrderPerRow, expectTalliesMatchRows, startSimulator, tempDir } from '../../../support/index.ts';
import { csvBase64, startService, waitFor } from '../../../support/app-harness.ts';

async function tieredDraft() {
  const service = await startSimulator({ itemDelayMs: 60_000 });
  const h = await startService(tempDir(), { simulatorUrl: service.url });
  const { products } = await h.ok('products:list', { environment: 'simulator', country: 'US' });
  const idOf = (name: string) => products.find((p) => p.name === name)?.id ?? 0;
  const ids = {
    fifty: idOf('Pinecrest Outfitters $50'),
    books: idOf('Northwind Books Gift Card $25'),
    market: idOf('Harborline Market eGift'),
    coffee: idOf('Brightleaf Coffee eGift $10'),
    spa: idOf('Maple & Reed Spa Day $75'),
  };
  const created = await h.ok('campaigns:create', {
    fileName: 'tiers.csv',
    bytesBase64: csvBase64([
      'Name,Email,Product,Amount',
      'Speaker A,a@example.com,Pinecrest Outfitters $50,',
      'Speaker B,b@example.com,Pinecrest Outfitters $50,',
      'Volunteer C,c@example.com,,',
      'Volunteer D,d@example.com,,',
      'Guest E,e@example.com,Golden Ticket,',
      'Host G,g@example.com,Harborline Market eGift,40',
    ]),
    environment: 'simulator',
    productId: ids.books,
    country: 'US',
    name: 'Tiers',
    senderName: 'Conf team',
  });
  const rows = allRows(h.engine.db, created.id);
  const rowAt = (line: number) => {
    const row = rows.find((r) => r.line === line);
    if (!row) throw new Error(`no line ${line}`);
    return row;
  };
  return { ...service, h, ids, campaignId: created.id, rowAt };
}

describe('rows:edit with a product', () => {
  it('gives a row whose Product cell named no product one, and it is sent as that product at its amount', async () => {
    const t = await tieredDraft();
    const guest = t.rowAt(6);
    expect(guest).toMatchObject({ state: 'invalid', productId: null });
    expect(guest.errors.map((e) => e.field)).toEqual(['product']);

    // Without a product the file's error stands: nothing else names the row's gift.
    const kept = await t.h.ok('rows:edit', { rowId: guest.id, name: 'Guest E', email: 'e@example.com', amount: null, message: null });
    expect(kept.state).toBe('invalid');
    expect(kept.errors.map((e) => e.field)).toEqual(['product']);

    // By exact name (letter case aside), as the Product column: a fixed price fills the amount in.
    const fixed = await t.h.ok('rows:edit', { rowId: guest.id, name: 'Guest E', email: 'e@example.com', amount: null, message: null, product: 'pinecrest outfitters $50' });
    expect(fixed).toMatchObject({ state: 'ready', productId: t.ids.fifty, productName: 'Pinecrest Outfitters $50', amount: { currency: 'USD', amount: '50.00' }, errors: [] });
    // Checked again later, it keeps the gift it was given (the file's error does not come back).
    expect(await t.h.ok('campaigns:revalidate', { campaignId: t.campaignId })).toMatchObject({ invalid: 0 });

    const preflight = await t.h.ok('campaigns:preflight', { campaignId: t.campaignId });
    expect(preflight).toMatchObject({ ok: true, rowsToSend: 6, totals: [{ currency: 'USD', amount: '240.00' }] });
    expect(preflight.byProduct.find((p) => p.productId === t.ids.fifty)).toMatchObject({ rows: 3, totals: [{ currency: 'USD', amount: '150.00' }] });
    await t.h.ok('campaigns:send', { campaignId: t.campaignId, confirmed: true, totals: preflight.totals });
    await waitFor('the send to finish', () => t.h.events.find((e) => e.name === 'campaign:finished'));

    const account = t.sim.audit().accounts[SIMULATOR_LOCAL_KEY];
    if (!account) throw new Error('no simulator account');
    const sent = allRows(t.h.engine.db, t.campaignId).find((r) => r.id === guest.id);
    const order = account.orders.find((o) => o.externalReferenceId === sent?.externalReferenceId);
    expect(order).toMatchObject({ productId: t.ids.fifty, price: { minor: 5000, currency: 'USD' } });
    expectOneOrderPerRow(t.h.engine.db, t.campaignId, account);

    // A row that has an order never changes its gift.
    const refused = await t.h.service.invoke('rows:edit', { rowId: guest.id, name: 'Guest E', email: 'e@example.com', amount: null, message: null, product: String(t.ids.books) });
    expect(refused).toMatchObject({ ok: false, error: { code: 'conflict', message: 'Line 6 has been ordered, so it can no longer be edited.' } });
    expect(allRows(t.h.engine.db, t.campaignId).find((r) => r.id === guest.id)?.productId).toBe(t.ids.fifty);
  });

  it('moves a row from one tier to another: the per-product totals follow, a product no row names any more is dropped', async () => {
    const t = await tieredDraft();
    const before = await t.h.ok('campaigns:preflight', { campaignId: t.campaignId });
    expect(before.byProduct.map((p) => [p.productId, p.rows, p.totals[0]?.amount])).toEqual([
      [t.ids.books, 2, '50.00'],
      [t.ids.fifty, 2, '100.00'],
      [t.ids.market, 1, '40.00'],
    ]);
    expect((await t.h.ok('campaigns:get', { campaignId: t.campaignId })).products).toBe(3);

    // A volunteer (the campaign's own product) becomes a speaker, by id.
    const moved = await t.h.ok('rows:edit', { rowId: t.rowAt(4).id, name: 'Volunteer C', email: 'c@example.com', amount: null, message: null, product: String(t.ids.fifty) });
    expect(moved).toMatchObject({ state: 'ready', productId: t.ids.fifty, amount: { amount: '50.00' } });
    // The host leaves the range product for the campaign's own: stored as the campaign's (NULL), and the
    // range product, which no row names now, is no product of the campaign any more.
    const host = await t.h.ok('rows:edit', { rowId: t.rowAt(7).id, name: 'Host G', email: 'g@example.com', amount: null, message: null, product: 'Northwind Books Gift Card $25' });
    expect(host).toMatchObject({ state: 'ready', productId: t.ids.books, amount: { amount: '25.00' } });
    expect(allRows(t.h.engine.db, t.campaignId).find((r) => r.line === 7)?.productId).toBeNull();
    // A speaker gets a product the file named nowhere: the campaign keeps it from then on.
    const coffee = await t.h.ok('rows:edit', { rowId: t.rowAt(2).id, name: 'Speaker A', email: 'a@example.com', amount: null, message: null, product: 'Brightleaf Coffee eGift $10' });
    expect(coffee).toMatchObject({ state: 'ready', productId: t.ids.coffee, productName: 'Brightleaf Coffee eGift $10', amount: { amount: '10.00' } });

    const after = await t.h.ok('campaigns:preflight', { campaignId: t.campaignId });
    expect(after.ok).toBe(true);
    expect(after.byProduct.map((p) => [p.productId, p.rows, p.totals[0]?.amount])).toEqual([
      [t.ids.books, 2, '50.00'],
      [t.ids.coffee, 1, '10.00'],
      [t.ids.fifty, 2, '100.00'],
    ]);
    expect(after.totals).toEqual([{ currency: 'USD', amount: '160.00' }]);
    expect((await t.h.ok('campaigns:get', { campaignId: t.campaignId })).products).toBe(3);
    expect(
      t.h.engine.db
        .prepare('SELECT product_id FROM campaign_products WHERE campaign_id = ? ORDER BY product_id')
        .pluck()
        .all(t.campaignId),
    ).toEqual([t.ids.coffee, t.ids.fifty].sort((a, b) => a - b));
    expectTalliesMatchRows(t.h.engine.db);

    // The amount is checked against the new product: a range product takes one within its range.
    const outOfRange = await t.h.ok('rows:edit', { rowId: t.rowAt(3).id, name: 'Speaker B', email: 'b@example.com', amount: '600', message: null, product: String(t.ids.market) });
    expect(outOfRange.state).toBe('invalid');
    expect(outOfRange.productId).toBe(t.ids.market);
    expect(outOfRange.errors.map((e) => e.field)).toEqual(['amount']);
    const inRange = await t.h.ok('rows:edit', { rowId: t.rowAt(3).id, name: 'Speaker B', email: 'b@example.com', amount: '75', message: null, product: String(t.ids.market) });
    expect(inRange).toMatchObject({ state: 'ready', productId: t.ids.market, amount: { amount: '75.00' } });
    expectTalliesMatchRows(t.h.engine.db);
  });

  it('refuses a product that is unknown, of another country or cannot be ordered, naming it, and changes nothing', async () => {
    const t = await tieredDraft();
    const { products: gb } = await t.h.ok('products:list', { environment: 'simulator', country: 'GB' });
    const british = gb.find((p) => p.name === 'Thistle & Rose Books £20')?.id ?? 0;
    const guest = t.rowAt(6);
    const edit = (product: string) => t.h.service.invoke('rows:edit', { rowId: guest.id, name: 'Guest E', email: 'e@example.com', amount: null, message: null, product });

    expect(await edit('Golden Ticket 2')).toEqual({
      ok: false,
      error: {
        code: 'invalid-input',
        message:
          'Line 6 cannot be given the gift "Golden Ticket 2": no product named "Golden Ticket 2" can be ordered here: give a product id or the exact name ' +
          `from the catalog (the products of the simulator service at ${t.url} for US). Nothing was changed.`,
      },
    });
    expect(await edit('999999')).toMatchObject({ ok: false, error: { code: 'invalid-input', message: expect.stringContaining('there is no product 999999 among the products that can be ordered here') } });
    const other = await edit(String(british));
    expect(other).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(other.ok ? '' : other.error.message).toContain(`"${british}": there is no product ${british} among the products that can be ordered here`);
    expect(other.ok ? '' : other.error.message).toContain('for US');
    expect(await edit('Thistle & Rose Books £20')).toMatchObject({ ok: false, error: { code: 'invalid-input', message: expect.stringContaining('no product named "Thistle & Rose Books £20"') } });
    expect(await edit('Maple & Reed Spa Day $75')).toMatchObject({
      ok: false,
      error: { code: 'invalid-input', message: expect.stringContaining(`product ${t.ids.spa} (Maple & Reed Spa Day $75) cannot be ordered: not on sale (SOLD_OUT)`) },
    });
    // Empty is no product (the schema trims it): absent means "keep the row's".
    expect(await edit('   ')).toMatchObject({ ok: false, error: { code: 'invalid-input' } });

    const unchanged = allRows(t.h.engine.db, t.campaignId).find((r) => r.id === guest.id);
    expect(unchanged).toMatchObject({ state: 'invalid', productId: null });
    expect(unchanged?.errors.map((e) => e.field)).toEqual(['product']);
  });

  it('an edit of the name alone keeps the row its product', async () => {
    const t = await tieredDraft();
    const speaker = await t.h.ok('rows:edit', { rowId: t.rowAt(2).id, name: 'Dr. Speaker A', email: 'a@example.com', amount: null, message: null });
    expect(speaker).toMatchObject({ state: 'ready', name: 'Dr. Speaker A', productId: t.ids.fifty, amount: { amount: '50.00' } });
    const host = await t.h.ok('rows:edit', { rowId: t.rowAt(7).id, name: 'Host Grace', email: 'g@example.com', amount: '40', message: null });
    expect(host).toMatchObject({ state: 'ready', productId: t.ids.market, amount: { amount: '40.00' } });
    expect(allRows(t.h.engine.db, t.campaignId).map((r) => r.productId)).toEqual([t.ids.fifty, t.ids.fifty, null, null, null, t.ids.market]);
    expectTalliesMatchRows(t.h.engine.db);
  });
});
