// rows:edit validates one row and touches one row, and still says what the import would have said:
// an address that an earlier line of the campaign already has (in any case), and an address that
// already has a gift from an earlier campaign of the environment.
import { describe, expect, it } from 'vitest';
import { startSimulator, tempDir } from '../../../support/index.ts';
import { csvBase64, startService, waitFor, type Harness, usdRangeProduct } from '../../../support/app-harness.ts';

async function rowsOf(h: Harness, campaignId: string) {
  return (await h.ok('campaigns:rows', { campaignId, offset: 0, limit: 100 })).rows;
}

describe('rows:edit on one row', () => {
  it('flags a repeat of an earlier line, in any letter case, and not of a later one', async () => {
    const sim = await startSimulator({ latencyMs: 1 });
    const h = await startService(tempDir(), { simulatorUrl: sim.url });
    const productId = await usdRangeProduct(h);
    const created = await h.ok('campaigns:create', {
      environment: 'simulator',
      productId,
      fileName: 'guests.csv',
      bytesBase64: csvBase64(['Name,Email,Amount', 'Ann,ann@example.com,10', 'Ärzte,ÄRZTIN@example.de,10', 'Bo,bo@example.com,10', 'Cy,not-an-address,10', 'Di,di@example.com,10']),
      name: 'Edits',
      senderName: 'Team',
    });
    const rows = await rowsOf(h, created.id);
    const line = (n: number) => rows.find((r) => r.line === n) ?? expect.fail(`no line ${n}`);

    // Line 5 (invalid) takes line 2's address in upper case: ready, with the import's warning.
    const repeated = await h.ok('rows:edit', { rowId: line(5).id, name: 'Cy', email: ' ANN@Example.com ', amount: '10', message: null });
    expect(repeated).toMatchObject({ state: 'ready', email: 'ANN@Example.com' });
    expect(repeated.warnings).toEqual([{ field: 'email', message: 'Line 5: "ANN@Example.com" also appears on line 2' }]);

    // Non-ASCII letters in another case are the same address too (the rare path).
    const umlaut = await h.ok('rows:edit', { rowId: line(6).id, name: 'Di', email: 'ärztin@example.de', amount: '10', message: null });
    expect(umlaut.warnings.map((w) => w.message)).toEqual(['Line 6: "ärztin@example.de" also appears on line 3']);

    // Line 2 taking a later line's address is not the repeat: the later line is.
    const first = await h.ok('rows:edit', { rowId: line(2).id, name: 'Ann', email: 'bo@example.com', amount: '10', message: null });
    expect(first.warnings).toEqual([]);

    // A wrong amount is an error for that row alone.
    const wrong = await h.ok('rows:edit', { rowId: line(4).id, name: 'Bo', email: 'bo@example.com', amount: 'ten', message: null });
    expect(wrong.state).toBe('invalid');
    expect(wrong.errors.map((e) => e.field)).toEqual(['amount']);
  });

  it('warns when the address already has a gift from an earlier campaign of the environment', async () => {
    const sim = await startSimulator({ latencyMs: 1 });
    const h = await startService(tempDir(), { simulatorUrl: sim.url });
    const productId = await usdRangeProduct(h);
    const file = (lines: string[]) => ({ environment: 'simulator' as const, productId, fileName: 'a.csv', bytesBase64: csvBase64(['Name,Email,Amount', ...lines]), senderName: 'Team' });
    const sent = await h.ok('campaigns:create', { ...file(['Ann,ann@example.com,10', 'Émile,ÉMILE@example.fr,10']), name: 'Earlier' });
    await h.ok('campaigns:send', { campaignId: sent.id, confirmed: true });
    await waitFor('the earlier campaign to finish', () => h.events.find((e) => e.name === 'campaign:finished'));

    const next = await h.ok('campaigns:create', { ...file(['Bo,bo@example.com,10']), name: 'Later' });
    const [row] = await rowsOf(h, next.id);
    if (!row) throw new Error('no row');
    const edited = await h.ok('rows:edit', { rowId: row.id, name: 'Bo', email: 'Ann@example.com', amount: '10', message: null });
    expect(edited.warnings.map((w) => w.message)).toEqual(['Line 2: "Ann@example.com" was already a recipient in an earlier campaign']);
    const back = await h.ok('rows:edit', { rowId: row.id, name: 'Bo', email: 'bo@example.com', amount: '10', message: null });
    expect(back.warnings).toEqual([]);
    // Letters beyond ASCII in another case are the same address (SQLite's lower() would not fold É).
    const accented = await h.ok('rows:edit', { rowId: row.id, name: 'Bo', email: 'émile@example.fr', amount: '10', message: null });
    expect(accented.warnings.map((w) => w.message)).toEqual(['Line 2: "émile@example.fr" was already a recipient in an earlier campaign']);
    // The import and the pre-flight say the same of such an address.
    const third = { ...file(['Cy,cy@example.com,10', 'Em,émile@EXAMPLE.fr,10', 'Al,ANN@example.com,10']), name: 'Third' };
    const preview = await h.ok('campaigns:previewImport', third);
    expect(preview.totals.knownEmails).toBe(2);
    // By default the import skips them (issue 13), whatever the case of their letters.
    const skipping = await h.ok('campaigns:create', third);
    expect(skipping.counts).toMatchObject({ ready: 1, skipped: 2 });
    const { rows: skipped } = await h.ok('campaigns:rows', { campaignId: skipping.id, states: ['skipped'] });
    expect(skipped.map((r) => [r.line, r.skippedBy])).toEqual([[3, 'earlier-campaign'], [4, 'earlier-campaign']]);
    // Sent on purpose, they wait for the pre-flight's confirmation.
    const created = await h.ok('campaigns:create', { ...third, repeats: { inCampaign: 'skip', earlier: 'send' } });
    const preflight = await h.ok('campaigns:preflight', { campaignId: created.id });
    expect(preflight.repeatRecipients).toEqual({ count: 2, lines: [3, 4] });
  });

  it("keeps the file's refused amount: the row shows it, a check again refuses it again, an empty amount takes the product's price only when saved so", async () => {
    const sim = await startSimulator({ latencyMs: 1 });
    const h = await startService(tempDir(), { simulatorUrl: sim.url });
    const { products } = await h.ok('products:list', { environment: 'simulator', country: 'US' });
    const fixed = products.find((p) => p.price.kind === 'fixed' && p.price.amount.currency === 'USD' && p.unorderableReason === null);
    if (!fixed || fixed.price.kind !== 'fixed') throw new Error('the simulator has no orderable USD fixed product');
    const price = fixed.price.amount.amount;
    const wrong = String(Number(price) + 15);
    const created = await h.ok('campaigns:create', {
      environment: 'simulator',
      productId: fixed.id,
      fileName: 'guests.csv',
      bytesBase64: csvBase64(['Name,Email,Amount', `Ann,ann@example.com,${wrong}`, 'Bo,bo@example.com,ten', `Cy,cy@example.com,${price}`]),
      name: 'Amounts',
      senderName: 'Team',
    });
    const line = async (n: number) => (await rowsOf(h, created.id)).find((r) => r.line === n) ?? expect.fail(`no line ${n}`);
    // What the file said stays with the row, for the editor to start from.
    expect(await line(2)).toMatchObject({ state: 'invalid', amount: null, amountText: wrong });
    expect(await line(3)).toMatchObject({ state: 'invalid', amount: null, amountText: 'ten' });
    expect((await line(4)).amountText).toBeNull();

    // Checking the rows again reads the file's amount again: still refused, not quietly the price.
    await h.ok('campaigns:revalidate', { campaignId: created.id });
    expect(await line(2)).toMatchObject({ state: 'invalid', amount: null, amountText: wrong });
    expect((await line(2)).errors.map((e) => e.field)).toEqual(['amount']);

    // An edit that keeps a refused amount keeps it as typed; one that clears it gets what validation says (the fixed price).
    const typed = await h.ok('rows:edit', { rowId: (await line(3)).id, name: 'Bo', email: 'bo@example.com', amount: ' eleven ', message: null });
    expect(typed).toMatchObject({ state: 'invalid', amount: null, amountText: 'eleven' });
    const cleared = await h.ok('rows:edit', { rowId: (await line(2)).id, name: 'Ann', email: 'ann@example.com', amount: null, message: null });
    expect(cleared).toMatchObject({ state: 'ready', amount: { currency: 'USD', amount: price }, amountText: null });
  });
});
