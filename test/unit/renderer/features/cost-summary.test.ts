// The review's Cost card in words a person reads: with no row ready to send, the total face value is
// a dash and why, never "nothing" as if it were an amount.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CostSummary } from '../../../../renderer/src/features/new-campaign/CostSummary.tsx';
import { ProductTotals } from '../../../../renderer/src/features/new-campaign/ProductTotals.tsx';
import { createStores } from '../../../../renderer/src/stores/index.ts';
import { StoresContext } from '../../../../renderer/src/stores/hooks.ts';
import { fakeApi, ManualClock, preflight, summary } from '../helpers/fakes.ts';

function text(rowsToSend: number): string {
  const clock = new ManualClock();
  const s = createStores({ api: fakeApi({}).api, timers: clock, now: clock.now });
  const counts = { invalid: 2, ready: rowsToSend, sending: 0, ordered: 0, delivered: 0, failed: 0, cancelled: 0, skipped: 0 };
  s.wizard.setState({ draft: summary({ sendState: 'draft', counts }), preflight: preflight(rowsToSend, rowsToSend > 0, []), preflightStatus: 'ready' });
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
