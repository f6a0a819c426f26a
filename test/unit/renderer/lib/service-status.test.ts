// The service's order and item statuses in the window's words, the code kept for support; and the
// recipients table shows those words, not COMPLETED / PENDING / PAYMENT_PENDING.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { RowView } from '../../../../renderer/src/features/campaign/RowsTable.tsx';
import { itemStatusWords, orderStatusWords } from '../../../../renderer/src/lib/service-status.ts';
import { row } from '../helpers/fakes.ts';

describe('service statuses in plain words', () => {
  it('names each order status the spec lists', () => {
    expect(orderStatusWords('COMPLETED')).toEqual({ text: 'Paid', title: "The service's order status: COMPLETED" });
    expect(orderStatusWords('PAYMENT_PENDING').text).toBe('Waiting for payment');
    expect(orderStatusWords('PAYMENT_EXPIRED').text).toBe('Payment expired');
    expect(orderStatusWords('CANCELLED').text).toBe('Cancelled');
  });

  it('names each item status the spec lists', () => {
    // PENDING is not yet delivered, for any reason (issuing, a recipient to accept, a supplier out of
    // stock: spec section 3), not "on its way".
    expect(itemStatusWords('PENDING')).toEqual({ text: 'Waiting', title: "The service's item status: PENDING" });
    expect(itemStatusWords('COMPLETED').text).toBe('Delivered');
    expect(itemStatusWords('CANCELLED').text).toBe('Cancelled');
  });

  it('shows a status it does not know as the service wrote it, and says so', () => {
    expect(orderStatusWords('ON_HOLD')).toEqual({ text: 'ON_HOLD', title: "The service's order status: ON_HOLD (not one Giftbatch knows)" });
    expect(itemStatusWords('toString').text).toBe('toString');
  });

  it('is what the recipients table shows, with the code as the title', () => {
    const markup = renderToStaticMarkup(
      createElement(RowView, { row: row(1, { state: 'ordered', orderId: 7, orderStatus: 'PAYMENT_PENDING', itemStatus: 'PENDING' }), index: 0, now: 0, showProduct: false }),
    );
    expect(markup).toMatch(/title="The service&#x27;s order status: PAYMENT_PENDING" data-testid="row-order-status">Waiting for payment</);
    expect(markup).toMatch(/title="The service&#x27;s item status: PENDING" data-testid="row-item-status">Waiting</);
    expect(markup.replace(/title="[^"]*"/g, '')).not.toMatch(/PENDING/);
  });
});
