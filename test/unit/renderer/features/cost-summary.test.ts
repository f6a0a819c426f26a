// The review's Cost card in words a person reads: with no row ready to send, the total face value is
// a dash and why, never "nothing" as if it were an amount.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CostSummary } from '../../../../renderer/src/features/new-campaign/CostSummary.tsx';
import { ProductTotals } from '../../../../renderer/src/features/new-campaign/ProductTotals.tsx';
import { createStores } from '../../../../renderer/src/stores/index.ts';
import { StoresContext } from '../../../../renderer/src/stores/hooks.ts';
import type { CallOutput } from '../../../../shared/contract.ts';
import { fakeApi, ManualClock, preflight, summary } from '../helpers/fakes.ts';

type Preflight = CallOutput<'campaigns:preflight'>;

function text(rowsToSend: number, over: Partial<Preflight> = {}): string {
  const clock = new ManualClock();
  const s = createStores({ api: fakeApi({}).api, timers: clock, now: clock.now });
  const counts = { invalid: 2, ready: rowsToSend, sending: 0, ordered: 0, delivered: 0, failed: 0, cancelled: 0, skipped: 0 };
  s.wizard.setState({ draft: summary({ sendState: 'draft', counts }), preflight: { ...preflight(rowsToSend, rowsToSend > 0, []), ...over }, preflightStatus: 'ready' });
  // Server rendering reads a store's initial state (useSyncExternalStore's server snapshot): render this one.
  s.wizard.getInitialState = s.wizard.getState;
  const markup = renderToStaticMarkup(createElement(StoresContext.Provider, { value: s }, createElement(CostSummary)));
  return markup.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
}

describe('the review’s cost card', () => {
  it('with no row ready to send, shows a dash and says so, not "nothing"', () => {
    const t = text(0);
    expect(t).toContain('Total face value — ');
    expect(t).toContain('No row is ready to send yet, so there is no face value to pay.');
    expect(t).not.toContain('nothing');
  });

  it('with rows ready, shows their total', () => {
    const t = text(3);
    expect(t).toContain('Total face value USD 30.00');
    expect(t).not.toContain('No row is ready');
  });

  // S15-J: a gift per row's card said 'Stock: in stock (the service says: ON_SALE …)': the campaign's
  // own product's stock, though no row used it. Now each product the rows use, named.
  it("says the stock of each product the rows use, named, not the campaign's own product's when no row uses it", () => {
    const usd = (amount: string) => [{ currency: 'USD', amount }];
    const t = text(3, {
      availability: { inStock: true, message: 'ON_SALE' },
      byProduct: [
        { productId: 8, name: 'Northwind Books', rows: 2, totals: usd('20.00'), availability: { inStock: true, message: null } },
        { productId: 9, name: 'Brightleaf Coffee', rows: 1, totals: usd('10.00'), availability: { inStock: null, message: 'supplier slow' } },
      ],
    });
    expect(t).toContain('Stock of Northwind Books: in stock');
    expect(t).toContain('Stock of Brightleaf Coffee: unknown: the service'); // the apostrophe is an entity in the markup
    expect(t).toContain('does not say whether it is in stock (the service says: supplier slow)');
    expect(t).not.toContain('ON_SALE');
  });
});

describe('the per-product totals', () => {
  it('show a dash for a product with no amount to add up, not "nothing"', () => {
    const list = [
      { productId: 7, name: 'Coffee card', rows: 2, totals: [{ currency: 'USD', amount: '20.00' }] },
      { productId: 8, name: 'Book token', rows: 0, totals: [] },
    ];
    const markup = renderToStaticMarkup(createElement(ProductTotals, { list, label: 'Cost of the ready rows per gift', rowsText: (n: number) => `${n} ready`, testId: 'p' }));
    const t = markup.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(t).toContain('Coffee card 2 ready USD 20.00');
    expect(t).toContain('Book token 0 ready — ');
    expect(t).not.toContain('nothing');
  });
});
