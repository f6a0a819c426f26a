// A row's amount cell when the amount the file wrote was refused (server-rendered markup, no browser
// needed): the draft table and the campaign's rows table show what was written, struck, not "—".
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { RowDto } from '../../../../shared/contract.ts';
import { money } from '../../../../shared/domain/money.ts';
import { RowView } from '../../../../renderer/src/features/campaign/RowsTable.tsx';
import { DraftRow, type RowValidation } from '../../../../renderer/src/features/new-campaign/DraftRow.tsx';
import { createStores } from '../../../../renderer/src/stores/index.ts';
import { StoresContext } from '../../../../renderer/src/stores/hooks.ts';
import { fakeApi, ManualClock, row } from '../helpers/fakes.ts';

function amountCell(markup: string): string {
  const cell = /data-field="amount"[^>]*>(.*?)<\/span><span role="cell"/.exec(markup)?.[1] ?? markup;
  return cell;
}

function draft(r: RowDto, validation: RowValidation | null = null): string {
  const clock = new ManualClock();
  const stores = createStores({ api: fakeApi({}).api, timers: clock, now: clock.now });
  return renderToStaticMarkup(createElement(StoresContext.Provider, { value: stores }, createElement(DraftRow, { row: r, index: 0, product: null, validation, onEdit: () => undefined })));
}

function sent(r: RowDto): string {
  return renderToStaticMarkup(createElement(RowView, { row: r, index: 0, now: 0, showProduct: false }));
}

const refused = row(1, {
  state: 'invalid',
  amount: null,
  amountText: '25',
  errors: [{ field: 'amount', message: 'Line 2: the amount must be 10.00 for this gift.' }],
});

describe('the amount cell of a row whose amount was refused', () => {
  it('draft table: shows what the file wrote, struck and marked as not accepted, beside the error', () => {
    const cell = amountCell(draft(refused));
    expect(cell).toContain('data-testid="row-amount-text"');
    expect(cell).toMatch(/<s [^>]*>25<span class="visually-hidden"> \(not accepted\)<\/span><\/s>/);
    expect(cell).not.toContain('—');
    expect(cell).toContain('the amount must be 10.00');
  });

  it('campaign rows table: shows it too', () => {
    const markup = sent(refused);
    expect(markup).toMatch(/<s [^>]*data-testid="row-amount-text"[^>]*>25</);
  });

  it('keeps "—" when nothing was written, and the amount when it was accepted', () => {
    expect(amountCell(draft(row(2, { amount: null, amountText: null })))).toContain('—');
    expect(amountCell(draft(row(3)))).toContain('USD');
    expect(amountCell(draft(row(3)))).not.toContain('row-amount-text');
    expect(sent(row(2, { amount: null, amountText: null }))).not.toContain('row-amount-text');
  });
});

describe('the reason an amount was refused, in the draft table (the wizard’s review, the Fix panel)', () => {
  const fixedPrice: RowValidation = { product: { id: 5, currency: 'USD', price: { kind: 'fixed', amount: money(2500, 'USD') } }, defaultAmount: undefined };
  const reason = "the amount USD 30.00 differs from the product's fixed price of USD 25.00; leave the amount empty or use the fixed price";
  const thirty = row(1, { state: 'invalid', amount: null, amountText: '30', errors: [{ field: 'amount', message: `Line 2: ${reason}` }] });

  it('shows what to type in the room the cell has, the whole reason as its title and for a screen reader', () => {
    const cell = amountCell(draft(thirty, fixedPrice));
    expect(cell).toContain('<span aria-hidden="true">Must be 25.00</span>');
    expect(cell).toContain(`<span class="visually-hidden">${reason.replaceAll("'", '&#x27;')}</span>`);
    expect(cell).toContain(`title="${reason.replaceAll("'", '&#x27;')}"`);
  });

  it('keeps the reason as it is when its product is not known or the amount is not money', () => {
    expect(amountCell(draft(thirty))).not.toContain('Must be');
    const ten = row(2, { state: 'invalid', amount: null, amountText: 'ten', errors: [{ field: 'amount', message: 'Line 3: "ten" is not an amount' }] });
    expect(amountCell(draft(ten, fixedPrice))).toContain('&quot;ten&quot; is not an amount</span>');
    expect(amountCell(draft(ten, fixedPrice))).not.toContain('aria-hidden');
  });
});
