// A row's amount cell when the amount the file wrote was refused (server-rendered markup, no browser
// needed): the draft table and the campaign's rows table show what was written, struck, not "—".
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { RowDto } from '../../../../shared/contract.ts';
import { RowView } from '../../../../renderer/src/features/campaign/RowsTable.tsx';
import { DraftRow } from '../../../../renderer/src/features/new-campaign/DraftRow.tsx';
import { createStores } from '../../../../renderer/src/stores/index.ts';
import { StoresContext } from '../../../../renderer/src/stores/hooks.ts';
import { fakeApi, ManualClock, row } from '../helpers/fakes.ts';

function amountCell(markup: string): string {
  const cell = /data-field="amount"[^>]*>(.*?)<\/span><span role="cell"/.exec(markup)?.[1] ?? markup;
  return cell;
}

function draft(r: RowDto): string {
  const clock = new ManualClock();
  const stores = createStores({ api: fakeApi({}).api, timers: clock, now: clock.now });
  return renderToStaticMarkup(createElement(StoresContext.Provider, { value: stores }, createElement(DraftRow, { row: r, index: 0, product: null, onEdit: () => undefined })));
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
