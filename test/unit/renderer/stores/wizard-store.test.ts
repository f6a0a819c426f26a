import { describe, expect, it } from 'vitest';
import type { CallOutput, ProductDto, RowDto } from '../../../../shared/contract.ts';
import { editErrors } from '../../../../renderer/src/lib/validate-edit.ts';
import { createWizardStore, rowValidations, selectedProduct, setupProblems } from '../../../../renderer/src/stores/wizard-store.ts';
import { fakeApi, ManualClock, ok, row, settle, summary, type Handlers } from '../helpers/fakes.ts';

const product = (id: number, overrides: Partial<ProductDto> = {}): ProductDto => ({
  id,
  name: `Product ${id}`,
  brand: null,
  countryCode: 'US',
  currency: 'USD',
  currencySource: 'service',
  availability: 'ON_SALE',
  deliveryMethods: ['EMAIL'],
  price: { kind: 'fixed', amount: { currency: 'USD', amount: '10.00' } },
  unorderableReason: null,
  ...overrides,
});

const preview: CallOutput<'campaigns:previewImport'> = {
  format: 'csv',
  workbook: null,
  encoding: 'utf-8',
  delimiter: ',',
  headers: ['Name', 'Email'],
  mapping: { name: 0, email: 1 },
  detectedMapping: { name: 0, email: 1 },
  problems: [],
  rows: [],
  defaultMessage: null,
  totals: { rows: 2, valid: 1, invalid: 1, duplicateEmails: 0, knownEmails: 0, amounts: [{ currency: 'USD', amount: '10.00' }], byProduct: [{ productId: 5, rows: 1, amounts: [{ currency: 'USD', amount: '10.00' }] }], toSend: [] },
  product: product(5),
};

function setup(overrides: Handlers = {}) {
  const clock = new ManualClock();
  let rows: RowDto[] = [row(1), row(2, { state: 'invalid', errors: [{ field: 'email', message: 'Line 3: bad' }] })];
  const fake = fakeApi({
    'products:list': () => ok({ products: [product(5, { unorderableReason: 'not on sale (SOLD_OUT)' }), product(6)], unreadable: [], service: 'the built-in simulator' }),
    'app:sampleCsv': () => ok({ fileName: 'sample.csv', bytesBase64: btoa('Name,Email\nA,a@example.com\n') }),
    'campaigns:previewImport': () => ok(preview),
    'campaigns:create': () => ok({ ...summary({ id: 'd1', sendState: 'draft' }), product: product(5) }),
    'campaigns:get': () => ok(summary({ id: 'd1', sendState: 'draft' })),
    'campaigns:rows': () => ok({ rows, total: rows.length }),
    'campaigns:preflight': () => ok({ ok: true, problems: [], rowsToSend: rows.filter((r) => r.state === 'ready').length, totals: [], availability: null, repeatRecipients: { count: 0, lines: [] }, accountChanged: null, repeatsInCampaign: { people: 0, rows: 0 }, byProduct: [] }),
    'rows:edit': (input) => {
      const edited = row(input.rowId, { email: input.email, state: 'ready' });
      rows = rows.map((r) => (r.id === input.rowId ? edited : r));
      return ok(edited);
    },
    'rows:skip': (input) => {
      const skipped = row(input.rowId, { state: 'skipped' });
      rows = rows.map((r) => (r.id === input.rowId ? skipped : r));
      return ok(skipped);
    },
    'campaigns:send': (input) => ok(summary({ id: input.campaignId, sendState: 'sending' })),
    ...overrides,
  });
  const store = createWizardStore({ api: fake.api, timers: clock, now: clock.now });
  return { store, fake };
}

describe('new-campaign wizard store', () => {
  it("gives the template's file in the format asked, and says why when there is none", async () => {
    const { store, fake } = setup({ 'app:template': (input) => ok({ fileName: `t.${input.format}`, bytesBase64: btoa('x') }) });
    expect(await store.getState().templateFile('xlsx')).toEqual({ fileName: 't.xlsx', bytesBase64: btoa('x') });
    expect(await store.getState().templateFile('csv')).toEqual({ fileName: 't.csv', bytesBase64: btoa('x') });
    expect(fake.callsOf('app:template')).toEqual([{ format: 'xlsx' }, { format: 'csv' }]);
    expect(store.getState().fileError).toBeNull();
    const failing = setup({ 'app:template': () => ({ ok: false, error: { code: 'internal', message: 'The template could not be made.' } }) });
    expect(await failing.store.getState().templateFile('csv')).toBeNull();
    expect(failing.store.getState().fileError).toBe('The template could not be made.');
  });

  it('starts the newcomer on the sample: an orderable fixed-price product and the sample file, previewed', async () => {
    const { store, fake } = setup();
    await store.getState().start('simulator', { sample: true });
    const s = store.getState();
    expect(s.productId).toBe(6);
    expect(s.step).toBe('import');
    expect(s.file?.fileName).toBe('sample.csv');
    expect(s.previewStatus).toBe('ready');
    expect(setupProblems(s)).toEqual([]);
    expect(fake.callsOf('campaigns:previewImport')[0]).toMatchObject({ productId: 6, environment: 'simulator', fileName: 'sample.csv' });
    // The import step asks for no rows: the engine keeps a large file's rows, the step reads the totals and defaultMessage.
    expect(fake.callsOf('campaigns:previewImport')[0]?.rows).toBe('none');
  });

  it('never selects a product that cannot be ordered', async () => {
    const { store } = setup();
    await store.getState().start('simulator');
    store.getState().chooseProduct(5);
    expect(store.getState().productId).toBeNull();
    expect(setupProblems(store.getState())).toContain('Choose a product.');
  });

  it('a mapping change previews again with the chosen column', async () => {
    const { store, fake } = setup();
    await store.getState().start('simulator', { sample: true });
    await store.getState().setMapping('email', 0);
    expect(fake.callsOf('campaigns:previewImport').at(-1)?.csv).toEqual({ mapping: { email: 0 } });
  });

  it("maps the gift column (a gift per row) like any field, and unmaps it with null", async () => {
    const { store, fake } = setup();
    await store.getState().start('simulator', { sample: true });
    await store.getState().setMapping('product', 2);
    expect(fake.callsOf('campaigns:previewImport').at(-1)?.csv).toEqual({ mapping: { product: 2 } });
    await store.getState().setMapping('product', null);
    expect(fake.callsOf('campaigns:previewImport').at(-1)?.csv).toEqual({ mapping: { product: null } });
  });

  it('previews with the default message as typed (its fields are checked per row), and again when it changes', async () => {
    const { store, fake } = setup();
    await store.getState().start('simulator', { sample: true });
    expect(fake.callsOf('campaigns:previewImport')[0]).toMatchObject({ message: 'Thank you for being part of our event!' });
    store.getState().setText('message', '  Hi {first_name}  ');
    expect(store.getState().previewStatus).toBe('idle');
    await store.getState().runPreview();
    expect(fake.callsOf('campaigns:previewImport').at(-1)).toMatchObject({ message: 'Hi {first_name}' });
    store.getState().setText('message', '   ');
    await store.getState().runPreview();
    expect(fake.callsOf('campaigns:previewImport').at(-1)?.message).toBeNull();
  });

  it('after the draft exists, edits go through rows:edit and skips through rows:skip', async () => {
    const { store, fake } = setup();
    await store.getState().start('simulator', { sample: true });
    store.getState().setText('senderName', 'Team');
    expect(await store.getState().createDraft()).toBe(true);
    expect(store.getState().step).toBe('review');
    expect(store.getState().rows).toHaveLength(2);

    expect(await store.getState().editRow(2, { name: 'Guest 2', email: 'fixed@example.com', amount: null, message: null })).toBe(true);
    expect(fake.callsOf('rows:edit')).toEqual([{ rowId: 2, name: 'Guest 2', email: 'fixed@example.com', amount: null, message: null }]);
    expect(store.getState().rows.find((r) => r.id === 2)?.state).toBe('ready');
    expect(store.getState().preflight?.rowsToSend).toBe(2);

    await store.getState().skipRow(1);
    expect(fake.callsOf('rows:skip')).toEqual([{ rowId: 1 }]);
    expect(store.getState().rows.find((r) => r.id === 1)?.state).toBe('skipped');
  });

  it("an edit giving the row another gift sends its product; the engine's refusal stays on the row", async () => {
    const { store, fake } = setup({
      'rows:edit': (input) =>
        input.product === '404'
          ? { ok: false, error: { code: 'invalid-input', message: 'Line 3 cannot be given the gift "404": there is no product 404 among the products that can be ordered here' } }
          : ok(row(input.rowId, { state: 'ready', productId: Number(input.product) })),
    });
    await store.getState().start('simulator', { sample: true });
    store.getState().setText('senderName', 'Team');
    expect(await store.getState().createDraft()).toBe(true);

    expect(await store.getState().editRow(2, { name: 'Guest 2', email: 'g2@example.com', amount: null, message: null, product: '6' })).toBe(true);
    expect(fake.callsOf('rows:edit')).toEqual([{ rowId: 2, name: 'Guest 2', email: 'g2@example.com', amount: null, message: null, product: '6' }]);
    expect(store.getState().rowError).toBeNull();

    expect(await store.getState().editRow(1, { name: 'Guest 1', email: 'g1@example.com', amount: null, message: null, product: '404' })).toBe(false);
    expect(store.getState().rowError).toEqual({ rowId: 1, message: 'Line 3 cannot be given the gift "404": there is no product 404 among the products that can be ordered here' });
  });

  it('sends only with confirmed: true and the totals the confirmation showed, and hands back the campaign', async () => {
    const { store, fake } = setup();
    await store.getState().start('simulator', { sample: true });
    store.getState().setText('senderName', 'Team');
    await store.getState().createDraft();
    const sent = await store.getState().send();
    expect(sent?.id).toBe('d1');
    expect(fake.callsOf('campaigns:send')).toEqual([{ campaignId: 'd1', confirmed: true, totals: store.getState().preflight?.totals ?? [] }]);
  });

  it('creates the draft skipping repeated recipients unless the person chose to send them, and a new wizard forgets the choice', async () => {
    const { store, fake } = setup();
    await store.getState().start('simulator', { sample: true });
    store.getState().setText('senderName', 'Team');
    expect(await store.getState().createDraft()).toBe(true);
    expect(fake.callsOf('campaigns:create').at(-1)?.repeats).toEqual({ inCampaign: 'skip', earlier: 'skip' });

    await store.getState().start('simulator', { sample: true });
    store.getState().setText('senderName', 'Team');
    store.getState().setRepeats('inCampaign', 'send');
    expect(await store.getState().createDraft()).toBe(true);
    expect(fake.callsOf('campaigns:create').at(-1)?.repeats).toEqual({ inCampaign: 'send', earlier: 'skip' });
    store.getState().setRepeats('earlier', 'send');
    store.getState().setRepeats('inCampaign', 'skip');
    expect(store.getState().repeats).toEqual({ inCampaign: 'skip', earlier: 'send' });

    await store.getState().start('simulator');
    expect(store.getState().repeats).toEqual({ inCampaign: 'skip', earlier: 'skip' });
  });
});

describe('new-campaign wizard store: a draft reopened from the list', () => {
  it("reads the catalog of the campaign's country, in its currency, so the row editor can offer its gifts", async () => {
    const { store, fake } = setup();
    await store.getState().openDraft(summary({ id: 'd1', sendState: 'draft', environment: 'sandbox', countryCode: 'GB', currency: 'GBP', name: 'Speakers' }));
    const s = store.getState();
    expect(fake.callsOf('products:list')).toEqual([{ environment: 'sandbox', country: 'GB', currency: 'GBP' }]);
    expect(s.productsStatus).toBe('ready');
    expect(s.products.map((p) => p.id)).toEqual([5, 6]);
    expect(s).toMatchObject({ step: 'review', name: 'Speakers', country: 'GB', environment: 'sandbox', productId: null });
    expect(s.draft?.id).toBe('d1');
    expect(s.rows).toHaveLength(2);
  });

  it('reads no catalog for a campaign whose product stated no country, and says nothing is loaded', async () => {
    const { store, fake } = setup();
    await store.getState().openDraft(summary({ id: 'd1', sendState: 'draft', countryCode: null }));
    expect(fake.callsOf('products:list')).toEqual([]);
    expect(store.getState().products).toEqual([]);
    expect(store.getState().productsStatus).toBe('idle');
    expect(store.getState().rows).toHaveLength(2);
  });

  it("checks an edited row against the campaign's default amount, as the new-campaign flow checks it against the one typed", async () => {
    const range = product(8, { name: 'Harborline Market eGift', price: { kind: 'range', min: { currency: 'USD', amount: '5.00' }, max: { currency: 'USD', amount: '500.00' } } });
    const catalog: Handlers = { 'products:list': () => ok({ products: [range], unreadable: [], service: 'the built-in simulator' }) };
    const cleared = { name: 'Grace Hopper', email: 'grace@example.com', amount: '', message: '' };
    const { store } = setup(catalog);
    await store.getState().openDraft(summary({ id: 'd1', sendState: 'draft', defaultAmount: { currency: 'USD', amount: '25.00' } }));
    // The default's figure, held as the setup step holds the one typed.
    expect(store.getState().defaultAmount).toBe('25.00');
    const check = rowValidations(store.getState()).get(8);
    if (!check) throw new Error('the range product was not loaded for the row check');
    expect(check.defaultAmount).toEqual({ minor: 2500, currency: 'USD' });
    expect(editErrors(check.product, 3, cleared, check.defaultAmount)).toEqual({});
    expect(editErrors(check.product, 3, { ...cleared, amount: '700' }, check.defaultAmount).amount).toMatch(/^the amount USD 700\.00 is outside/);

    // The new-campaign flow, the default typed in the setup step: the same check.
    const fresh = setup(catalog);
    await fresh.store.getState().start('simulator');
    fresh.store.getState().setText('defaultAmount', '25.00');
    expect(rowValidations(fresh.store.getState()).get(8)).toEqual(check);

    // A draft without a default (opened after one with): the cleared amount is missing, as the engine says on save.
    await store.getState().openDraft(summary({ id: 'd2', sendState: 'draft', defaultAmount: null }));
    expect(store.getState().defaultAmount).toBe('');
    const none = rowValidations(store.getState()).get(8);
    if (!none) throw new Error('the range product was not loaded for the row check');
    expect(none.defaultAmount).toBeUndefined();
    expect(editErrors(none.product, 3, cleared, none.defaultAmount)).toEqual({ amount: 'no amount and no default amount: enter an amount or set a default amount' });
  });

  it("reads the default amount in the campaign's currency, so a row of a gift in another currency is told, as the engine tells it", async () => {
    const usd = product(8, { price: { kind: 'range', min: { currency: 'USD', amount: '5.00' }, max: { currency: 'USD', amount: '500.00' } } });
    const eur = product(9, { currency: 'EUR', price: { kind: 'range', min: { currency: 'EUR', amount: '5.00' }, max: { currency: 'EUR', amount: '500.00' } } });
    const { store } = setup({ 'products:list': () => ok({ products: [usd, eur], unreadable: [], service: 'the built-in simulator' }) });
    await store.getState().openDraft(summary({ id: 'd1', sendState: 'draft', currency: 'USD', defaultAmount: { currency: 'USD', amount: '25.00' } }));
    const cleared = { name: 'Grace Hopper', email: 'grace@example.com', amount: '', message: '' };
    const own = rowValidations(store.getState()).get(8);
    const other = rowValidations(store.getState()).get(9);
    if (!own || !other) throw new Error('the products were not loaded for the row check');
    expect(other.defaultAmount).toEqual({ minor: 2500, currency: 'USD' });
    expect(editErrors(own.product, 3, cleared, own.defaultAmount)).toEqual({});
    expect(editErrors(other.product, 3, cleared, other.defaultAmount).amount).toBe("the default amount USD 25.00 is not in the product's currency EUR");
  });

  it("keeps the draft's rows when the catalog cannot be read, and says why", async () => {
    const { store } = setup({ 'products:list': () => ({ ok: false, error: { code: 'service-unreachable', message: 'The built-in simulator did not answer.' } }) });
    await store.getState().openDraft(summary({ id: 'd1', sendState: 'draft' }));
    expect(store.getState()).toMatchObject({ productsStatus: 'failed', productsError: 'The built-in simulator did not answer.', products: [] });
    expect(store.getState().rows).toHaveLength(2);
  });
});

describe('new-campaign wizard store: a workbook with several sheets', () => {
  const sheets = [{ name: 'Notes', rows: 3 }, { name: 'Speakers', rows: 49 }];
  const asking: CallOutput<'campaigns:previewImport'> = {
    ...preview,
    format: 'xlsx',
    encoding: 'xlsx',
    delimiter: '',
    workbook: { sheets, sheet: null },
    headers: [],
    mapping: {},
    detectedMapping: {},
    totals: { rows: 0, valid: 0, invalid: 0, duplicateEmails: 0, knownEmails: 0, amounts: [], byProduct: [], toSend: [] },
  };

  const workbookSetup = () =>
    setup({
      'campaigns:previewImport': (input) =>
        ok(input.sheet ? { ...preview, format: 'xlsx', encoding: 'xlsx', delimiter: '', workbook: { sheets, sheet: input.sheet } } : asking),
    });

  it('keeps the chosen sheet, previews it with a fresh mapping, and creates the draft from it', async () => {
    const { store, fake } = workbookSetup();
    await store.getState().start('simulator');
    store.getState().chooseProduct(6);
    store.getState().setText('senderName', 'Team');
    await store.getState().setFile({ fileName: 'speakers.xlsx', bytesBase64: 'UEsDBA==', size: 4 });
    expect(store.getState().preview?.workbook).toEqual({ sheets, sheet: null });
    expect(fake.callsOf('campaigns:previewImport').at(-1)).not.toHaveProperty('sheet');

    await store.getState().setMapping('email', 1);
    await store.getState().chooseSheet('Speakers');
    expect(fake.callsOf('campaigns:previewImport').at(-1)).toMatchObject({ sheet: 'Speakers', csv: {} });
    expect(store.getState().preview?.workbook?.sheet).toBe('Speakers');

    expect(await store.getState().createDraft()).toBe(true);
    expect(fake.callsOf('campaigns:create').at(-1)).toMatchObject({ fileName: 'speakers.xlsx', sheet: 'Speakers' });
  });

  it('forgets the sheet when another file comes', async () => {
    const { store, fake } = workbookSetup();
    await store.getState().start('simulator');
    store.getState().chooseProduct(6);
    await store.getState().setFile({ fileName: 'speakers.xlsx', bytesBase64: 'UEsDBA==', size: 4 });
    await store.getState().chooseSheet('Speakers');
    await store.getState().setFile({ fileName: 'other.xlsx', bytesBase64: 'UEsDBA==', size: 4 });
    expect(store.getState().sheet).toBeNull();
    expect(fake.callsOf('campaigns:previewImport').at(-1)).not.toHaveProperty('sheet');
  });
});

describe('new-campaign wizard store: a file refused before it is read', () => {
  it("forgets the file before it, with that file's preview error, so only the refused file's reason is shown", async () => {
    const { store } = setup({ 'campaigns:previewImport': () => ({ ok: false, error: { code: 'invalid-input', message: 'The file is a Word document, not a list of recipients.' } }) });
    await store.getState().start('simulator');
    store.getState().chooseProduct(6);
    await store.getState().setFile({ fileName: 'guests.docx', bytesBase64: 'UEsDBA==', size: 4 });
    expect(store.getState()).toMatchObject({ previewStatus: 'failed', previewError: 'The file is a Word document, not a list of recipients.' });
    store.getState().rejectFile('"empty.csv" is empty.');
    expect(store.getState()).toMatchObject({ file: null, fileError: '"empty.csv" is empty.', preview: null, previewStatus: 'idle', previewError: null });
  });

  it('forgets a previewed file too: the refused one is the last choice, not the one shown', async () => {
    const { store } = setup();
    await store.getState().start('simulator');
    store.getState().chooseProduct(6);
    await store.getState().setFile({ fileName: 'guests.csv', bytesBase64: btoa('Name,Email\nA,a@example.com\n'), size: 26 });
    expect(store.getState().previewStatus).toBe('ready');
    store.getState().rejectFile('"huge.csv" is 60 MB; the limit is 50 MB.');
    expect(store.getState()).toMatchObject({ file: null, preview: null, previewStatus: 'idle', fileError: '"huge.csv" is 60 MB; the limit is 50 MB.' });
    // The next good file clears the refusal.
    await store.getState().setFile({ fileName: 'guests.csv', bytesBase64: btoa('Name,Email\nA,a@example.com\n'), size: 26 });
    expect(store.getState()).toMatchObject({ fileError: null, previewStatus: 'ready' });
  });
});

describe('new-campaign wizard store: a product whose record states no currency', () => {
  const needsCurrency = { id: 9, name: 'Harborline Market eGift', problem: 'the service does not state its currency', needsCurrency: true };
  const broken = { id: 10, name: 'Odd record', problem: 'price: not a number', needsCurrency: false };
  const range = (currency: string, source: ProductDto['currencySource']): ProductDto =>
    product(9, {
      name: 'Harborline Market eGift',
      currency,
      currencySource: source,
      price: { kind: 'range', min: { currency, amount: '5.00' }, max: { currency, amount: '500.00' } },
    });

  /** A catalog that reads product 9 in the currency the call states, else lists it as needing one. */
  function currencySetup(learned: string | null = null) {
    const clock = new ManualClock();
    const fake = fakeApi({
      'products:list': (input) => {
        const currency = input.currency ?? learned;
        const source = input.currency ? 'stated' : 'learned';
        return ok({
          products: [product(6), ...(currency ? [range(currency, source)] : [])],
          unreadable: [...(currency ? [] : [needsCurrency]), broken],
          service: 'the built-in simulator',
        });
      },
      'app:sampleCsv': () => ok({ fileName: 'sample.csv', bytesBase64: btoa('Name,Email\nA,a@example.com\n') }),
      'campaigns:previewImport': () => ok(preview),
      'campaigns:create': () => ok({ ...summary({ id: 'd1', sendState: 'draft', productId: 9 }), product: product(9) }),
      'campaigns:rows': () => ok({ rows: [row(1)], total: 1 }),
      'campaigns:preflight': () => ok({ ok: true, problems: [], rowsToSend: 1, totals: [], availability: null, repeatRecipients: { count: 0, lines: [] }, accountChanged: null, repeatsInCampaign: { people: 0, rows: 0 }, byProduct: [] }),
    });
    const store = createWizardStore({ api: fake.api, timers: clock, now: clock.now });
    return { store, fake };
  }

  it('lists records it cannot read with their problem, and cannot choose them', async () => {
    const { store } = currencySetup();
    await store.getState().start('sandbox');
    expect(store.getState().unreadable).toEqual([needsCurrency, broken]);
    expect(store.getState().products.map((p) => p.id)).toEqual([6]);
    store.getState().chooseProduct(9);
    expect(store.getState().productId).toBeNull();
  });

  it('the currency the organiser chooses goes to products:list, and the product becomes chosen', async () => {
    const { store, fake } = currencySetup();
    await store.getState().start('sandbox');
    expect(await store.getState().setCurrency(' usd', { choose: 9 })).toBe(true);
    expect(fake.callsOf('products:list').at(-1)).toEqual({ environment: 'sandbox', country: 'US', currency: 'USD' });
    const s = store.getState();
    expect(s.currency).toBe('USD');
    expect(s.productId).toBe(9);
    expect(s.unreadable).toEqual([broken]);
    expect(selectedProduct(s)?.currencySource).toBe('stated');
  });

  it('previews and creates the draft with the same currency', async () => {
    const { store, fake } = currencySetup();
    await store.getState().start('sandbox');
    await store.getState().setCurrency('USD', { choose: 9 });
    store.getState().setText('senderName', 'Team');
    await store.getState().setFile({ fileName: 'guests.csv', bytesBase64: btoa('Name,Email,Amount\nA,a@example.com,11.50\n'), size: 40 });
    expect(fake.callsOf('campaigns:previewImport').at(-1)).toMatchObject({ productId: 9, currency: 'USD' });
    expect(await store.getState().createDraft()).toBe(true);
    expect(fake.callsOf('campaigns:create').at(-1)).toMatchObject({ productId: 9, currency: 'USD' });
  });

  it('sends no currency when the organiser stated none', async () => {
    const { store, fake } = currencySetup();
    await store.getState().start('sandbox', { sample: true });
    expect(fake.callsOf('products:list').at(-1)).toEqual({ environment: 'sandbox', country: 'US' });
    expect(fake.callsOf('campaigns:previewImport').at(-1)).not.toHaveProperty('currency');
  });

  it('refuses a code that is not three letters without asking the service', async () => {
    const { store, fake } = currencySetup();
    await store.getState().start('sandbox');
    const calls = fake.callsOf('products:list').length;
    expect(await store.getState().setCurrency('US$', { choose: 9 })).toBe(false);
    expect(store.getState().currencyError).toMatch(/not a currency code/);
    expect(store.getState().currency).toBeNull();
    expect(fake.callsOf('products:list')).toHaveLength(calls);
  });

  it('says so when the product still cannot be read in the chosen currency', async () => {
    const { store } = currencySetup();
    await store.getState().start('sandbox');
    await store.getState().setCurrency('EUR', { choose: 10 });
    expect(store.getState().productId).toBeNull();
    expect(store.getState().currencyError).toBe('Odd record still cannot be read in EUR: price: not a number.');
  });

  it('a learned currency can be changed: the chosen product stays chosen and its preview is read again', async () => {
    const { store, fake } = currencySetup('USD');
    await store.getState().start('sandbox');
    expect(selectedProduct({ ...store.getState(), productId: 9 })?.currencySource).toBe('learned');
    store.getState().chooseProduct(9);
    await store.getState().setFile({ fileName: 'guests.csv', bytesBase64: btoa('Name,Email\nA,a@example.com\n'), size: 30 });
    expect(store.getState().previewStatus).toBe('ready');

    await store.getState().setCurrency('EUR');
    const s = store.getState();
    expect(s.productId).toBe(9);
    expect(selectedProduct(s)).toMatchObject({ currency: 'EUR', currencySource: 'stated' });
    expect(s.preview).toBeNull();
    expect(s.previewStatus).toBe('idle');
    expect(fake.callsOf('products:list').at(-1)?.currency).toBe('EUR');
  });

  it('another country starts without a stated currency', async () => {
    const { store, fake } = currencySetup();
    await store.getState().start('sandbox');
    await store.getState().setCurrency('USD', { choose: 9 });
    await store.getState().setCountry('GB');
    expect(store.getState().currency).toBeNull();
    expect(store.getState().productId).toBeNull();
    expect(fake.callsOf('products:list').at(-1)).toEqual({ environment: 'sandbox', country: 'GB' });
  });
});

// The Gift step warns about a product the supplier has no stock of (the simulator's Lumen Cinema)
// when it is picked: one availability call for the product picked, none for the list. Before, the
// send was held only at Review, after the draft was saved.
describe('the stock of the product picked', () => {
  it('is asked once when a product is picked, never for the whole list, and says out of stock', async () => {
    const { store, fake } = setup({
      'products:list': () => ok({ products: [product(6), product(7), product(8)], unreadable: [], service: 'the built-in simulator' }),
      'products:availability': (input) => ok(input.productId === 7 ? { inStock: false, message: 'the supplier has no stock' } : { inStock: true, message: null }),
    });
    await store.getState().start('sandbox');
    expect(fake.callsOf('products:availability')).toEqual([]);
    store.getState().chooseProduct(7);
    await settle();
    expect(fake.callsOf('products:availability')).toEqual([{ environment: 'sandbox', productId: 7 }]);
    expect(store.getState().stock).toEqual({ productId: 7, inStock: false, message: 'the supplier has no stock' });
    store.getState().chooseProduct(6);
    await settle();
    expect(fake.callsOf('products:availability')).toHaveLength(2);
    expect(store.getState().stock).toEqual({ productId: 6, inStock: true, message: null });
  });

  it('keeps only the answer for the product picked last, and nothing when the service did not answer', async () => {
    let answer7: (v: unknown) => void = () => undefined;
    const { store } = setup({
      'products:list': () => ok({ products: [product(6), product(7)], unreadable: [], service: 'the built-in simulator' }),
      'products:availability': (input) =>
        input.productId === 7
          ? new Promise((resolve) => (answer7 = resolve as (v: unknown) => void))
          : { ok: false, error: { code: 'service-unreachable', message: 'The built-in simulator did not answer.' } },
    });
    await store.getState().start('sandbox');
    store.getState().chooseProduct(7);
    store.getState().chooseProduct(6);
    await settle();
    answer7(ok({ inStock: false, message: null }));
    await settle();
    expect(store.getState().productId).toBe(6);
    expect(store.getState().stock).toBeNull();
  });
});
