// The CLI's send lines: the pre-flight counts orders in the singular for one, and the progress line
// the run ends on says nothing is in flight: a row left `sending` is named as unconfirmed.
import { describe, expect, it } from 'vitest';
import { preflightLines } from '../../../electron/cli/commands/sending.ts';
import { progressView } from '../../../electron/cli/progress.ts';

const counts = { ready: 0, sending: 0, ordered: 0, delivered: 0, failed: 0, cancelled: 0, skipped: 0, invalid: 0 };

function view() {
  const written: string[] = [];
  const stream = { isTTY: false, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream;
  let t = 0;
  return { v: progressView(stream, () => (t += 5_000)), written };
}

describe('the progress line', () => {
  it('counts a row being sent as in flight while the run goes on', () => {
    const { v, written } = view();
    v.update({ counts: { ...counts, ordered: 1, sending: 1, ready: 1 } });
    expect(written).toEqual(['progress: 1/3 sent (ordered 1, failed 0, in flight 1)\n']);
  });

  it('at the end of the run names a row left sending as unconfirmed, never in flight', () => {
    const { v, written } = view();
    v.update({ counts: { ...counts, ordered: 2, sending: 1 } }, true);
    expect(written).toEqual(['progress: 2/3 sent (ordered 2, failed 0, unconfirmed 1)\n']);
  });

  it('at the end of a run that left nothing sending, says only what was sent', () => {
    const { v, written } = view();
    v.update({ counts: { ...counts, ordered: 2, failed: 1 } }, true);
    expect(written).toEqual(['progress: 3/3 sent (ordered 2, failed 1)\n']);
  });
});

describe('the pre-flight lines', () => {
  const preflight = {
    ok: true,
    problems: [],
    totals: [{ currency: 'USD', amount: '10.00' }],
    availability: null,
    repeatRecipients: { count: 0, lines: [] },
    accountChanged: null,
    repeatsInCampaign: { people: 0, rows: 0 },
  };

  it('says one order, or several orders', () => {
    expect(preflightLines({ ...preflight, rowsToSend: 1, byProduct: [] })).toEqual(['To send: 1 order, USD 10.00 (face value, product currency).']);
    expect(preflightLines({ ...preflight, rowsToSend: 3, totals: [{ currency: 'USD', amount: '30.00' }], byProduct: [] })).toEqual(['To send: 3 orders, USD 30.00 (face value, product currency).']);
  });

  it('per product too, in a file of several gifts', () => {
    const byProduct = [
      { productId: 7, name: 'Coffee', rows: 1, totals: [{ currency: 'USD', amount: '10.00' }], availability: null },
      { productId: 8, name: null, rows: 2, totals: [{ currency: 'USD', amount: '50.00' }], availability: null },
    ];
    expect(preflightLines({ ...preflight, rowsToSend: 3, totals: [{ currency: 'USD', amount: '60.00' }], byProduct }).slice(1)).toEqual([
      '  product 7 (Coffee): 1 order, USD 10.00',
      '  product 8: 2 orders, USD 50.00',
    ]);
  });

  // S15-J: a gift per row said 'Stock: in stock (the service says: ON_SALE …)', the campaign's own
  // product's stock, though no row used it. Now one line per product the rows use, each named.
  it("names each product's stock, of the products the rows use, not the campaign's own when none uses it", () => {
    const byProduct = [
      { productId: 7, name: 'Northwind Books', rows: 2, totals: [{ currency: 'USD', amount: '50.00' }], availability: { inStock: true, message: null } },
      { productId: 8, name: null, rows: 1, totals: [{ currency: 'USD', amount: '10.00' }], availability: { inStock: null, message: 'checked at 10:00' } },
    ];
    const lines = preflightLines({ ...preflight, rowsToSend: 3, availability: { inStock: true, message: 'ON_SALE, own product' }, byProduct });
    expect(lines.filter((l) => l.startsWith('Stock'))).toEqual([
      'Stock of Northwind Books: in stock',
      "Stock of product 8: unknown: the service's availability answer does not say whether it is in stock (the service says: checked at 10:00)",
    ]);
    expect(lines.join('\n')).not.toContain('own product');
    // No row to send: the campaign's own product's line, as before.
    expect(preflightLines({ ...preflight, rowsToSend: 0, availability: { inStock: true, message: null }, byProduct: [] })).toEqual(['Stock: in stock']);
  });
});
