import { describe, expect, it } from 'vitest';
import { expectationOf, mismatchDetail, onlyPriceUnstated, verifyOrder, UnreadableRequestError, withoutUnstatedPrice, type OrderExpectation } from '../../../../electron/core/campaigns/verify-order.ts';
import type { CampaignForOrder } from '../../../../electron/core/campaigns/order-body.ts';
import type { Order } from '../../../../electron/core/service/types.ts';

const range: CampaignForOrder = {
  productId: 42,
  product: { priceKind: 'range', minMinor: 500, maxMinor: 50_000, currency: 'USD', deliveryMethods: ['EMAIL'], availability: 'ON_SALE' },
  senderName: 'Acme',
  message: null,
};
const fixed: CampaignForOrder = { ...range, product: { priceKind: 'fixed', amountMinor: 30_000, currency: 'KRW', deliveryMethods: ['EMAIL'], availability: 'ON_SALE' } };

const body = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ item: { id: 42 }, delivery: { method: 'EMAIL', recipient: { name: 'A', email: 'Ada@Example.com' } }, external_reference_id: 'gb-1', ...extra });

const asked: OrderExpectation = { key: 'gb-1', productId: 42, amount: { minor: 1150, currency: 'USD' }, email: 'Ada@Example.com' };

function order(over: Partial<Order> = {}, item: Partial<Order['item']> = {}): Order {
  return {
    id: 9,
    status: 'COMPLETED',
    externalReferenceId: 'gb-1',
    createdAt: undefined,
    item: { id: 10, status: 'PENDING', productId: 42, price: { text: '11.5', currency: 'USD', money: { minor: 1150, currency: 'USD' } }, transactionFeeRate: undefined, ...item },
    charged: undefined,
    acceptanceExpiresAt: undefined,
    recipientEmail: undefined,
    anomalies: [],
    raw: {},
    ...over,
  };
}

describe('what a request asked, read back from its frozen bytes', () => {
  it('a range product: the custom amount sent; a fixed product: its price', () => {
    expect(expectationOf(range, body({ custom_amount: 11.5 }))).toEqual(asked);
    expect(expectationOf(fixed, body())).toEqual({ ...asked, amount: { minor: 30_000, currency: 'KRW' } });
  });

  it('refuses bytes it cannot read rather than guess', () => {
    expect(() => expectationOf(range, 'not json')).toThrow(UnreadableRequestError);
    expect(() => expectationOf(range, JSON.stringify({ item: { id: 42 } }))).toThrow(UnreadableRequestError);
  });
});

describe('an answer checked against the request', () => {
  it('agrees: nothing found (the e-mail echo compared without case or spaces)', () => {
    expect(verifyOrder(asked, order({ recipientEmail: ' ada@example.COM ' }))).toEqual([]);
  });

  it('names each difference with both values', () => {
    const findings = verifyOrder(asked, order({ externalReferenceId: undefined, recipientEmail: 'eve@example.com' }, { productId: 43, price: { text: '5', currency: 'USD', money: { minor: 500, currency: 'USD' } } }));
    expect(findings.map((f) => [f.field, f.asked, f.stated])).toEqual([
      ['key', 'gb-1', 'nothing'],
      ['product', '42', '43'],
      ['amount', 'USD 11.50', 'USD 5.00'],
      ['recipient', 'Ada@Example.com', 'eve@example.com'],
    ]);
    expect(findings.every((f) => f.kind === 'mismatch')).toBe(true);
    expect(mismatchDetail(7, 9, findings)).toMatch(/^Line 7, order 9: .*the service issued USD 5.00 for a USD 11.50 gift; .*Sending paused/);
  });

  it('a missing price, another currency or an amount we cannot read are differences: what was issued is not confirmed', () => {
    expect(verifyOrder(asked, order({}, { price: undefined }))[0]).toMatchObject({ field: 'amount', stated: 'nothing' });
    expect(verifyOrder(asked, order({}, { price: { text: '11.5', currency: 'eur', money: undefined } }))[0]).toMatchObject({ field: 'currency', stated: 'eur 11.5' });
    expect(verifyOrder(asked, order({}, { price: { text: '11.505', currency: 'USD', money: undefined } }))[0]).toMatchObject({ field: 'amount', stated: 'USD 11.505' });
  });

  it('an answer that only leaves the price out contradicts nothing yet (its record is read for it); with another difference it does', () => {
    const absent = ['order.order_item.price: expected { amount, currency }, received nothing', 'order.total_price_charged: expected { amount, currency }, received nothing'];
    const unpriced = verifyOrder(asked, order({ anomalies: [...absent, 'order.created_at: expected text, received 5'] }, { price: undefined }));
    expect(onlyPriceUnstated(unpriced)).toBe(true);
    // The notes that price and charge are absent go with it; any other odd value stays.
    expect(withoutUnstatedPrice(unpriced)).toEqual([expect.objectContaining({ kind: 'unreadable', stated: 'order.created_at: expected text, received 5' })]);
    expect(onlyPriceUnstated(verifyOrder(asked, order({}, { price: undefined, productId: 43 })))).toBe(false);
    expect(onlyPriceUnstated(verifyOrder(asked, order()))).toBe(false);
    // A malformed price is no absence: it stays a finding.
    const odd = 'order.order_item.price: expected { amount, currency }, received "11.5 USD"';
    expect(withoutUnstatedPrice(verifyOrder(asked, order({ anomalies: [odd] }, { price: undefined })))).toHaveLength(1);
  });

  it('a product the answer does not name, or an e-mail it does not echo, is no difference (the spec shows neither)', () => {
    expect(verifyOrder(asked, order({ recipientEmail: undefined }, { productId: undefined }))).toEqual([]);
  });

  it('odd values elsewhere are kept as unreadable findings, which do not pause', () => {
    const findings = verifyOrder(asked, order({ anomalies: ['order.created_at: expected text, received 5'] }));
    expect(findings).toEqual([{ kind: 'unreadable', field: 'record', stated: 'order.created_at: expected text, received 5', message: 'unexpected value in the answer: order.created_at: expected text, received 5' }]);
  });
});
