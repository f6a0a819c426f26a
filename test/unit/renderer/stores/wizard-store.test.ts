import { describe, expect, it } from 'vitest';
import type { CallOutput, ProductDto, RowDto } from '../../../../shared/contract.ts';
import { createWizardStore, setupProblems } from '../../../../renderer/src/stores/wizard-store.ts';
import { fakeApi, ManualClock, ok, row, summary } from '../helpers/fakes.ts';

const product = (id: number, overrides: Partial<ProductDto> = {}): ProductDto => ({
  id,
  name: `Product ${id}`,
  brand: null,
  countryCode: 'US',
  currency: 'USD',
  availability: 'ON_SALE',
  deliveryMethods: ['EMAIL'],
  price: { kind: 'fixed', amount: { currency: 'USD', amount: '10.00' } },
  unorderableReason: null,
  ...overrides,
});

const preview: CallOutput<'campaigns:previewImport'> = {
  encoding: 'utf-8',
  delimiter: ',',
  headers: ['Name', 'Email'],
  mapping: { name: 0, email: 1 },
  detectedMapping: { name: 0, email: 1 },
  problems: [],
  rows: [],
  totals: { rows: 2, valid: 1, invalid: 1, duplicateEmails: 0, knownEmails: 0, amounts: [{ currency: 'USD', amount: '10.00' }] },
};

function setup() {
  const clock = new ManualClock();
  let rows: RowDto[] = [row(1), row(2, { state: 'invalid', errors: [{ field: 'email', message: 'Line 3: bad' }] })];
  const fake = fakeApi({
    'products:list': () => ok({ products: [product(5, { unorderableReason: 'not on sale (SOLD_OUT)' }), product(6)] }),
    'app:sampleCsv': () => ok({ fileName: 'sample.csv', bytesBase64: btoa('Name,Email\nA,a@example.com\n') }),
    'campaigns:previewImport': () => ok(preview),
    'campaigns:create': () => ok(summary({ id: 'd1', sendState: 'draft' })),
    'campaigns:get': () => ok(summary({ id: 'd1', sendState: 'draft' })),
    'campaigns:rows': () => ok({ rows, total: rows.length }),
    'campaigns:preflight': () => ok({ ok: true, problems: [], rowsToSend: rows.filter((r) => r.state === 'ready').length, totals: [], availability: null }),
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
  });
  const store = createWizardStore({ api: fake.api, timers: clock, now: clock.now });
  return { store, fake };
}

describe('new-campaign wizard store', () => {
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

  it('sends only with confirmed: true, and hands back the campaign', async () => {
    const { store, fake } = setup();
    await store.getState().start('simulator', { sample: true });
    store.getState().setText('senderName', 'Team');
    await store.getState().createDraft();
    const sent = await store.getState().send();
    expect(sent?.id).toBe('d1');
    expect(fake.callsOf('campaigns:send')).toEqual([{ campaignId: 'd1', confirmed: true }]);
  });
});
