// A row's order body (what the send queue freezes and POSTs) and what it keeps of the answer.

import { describe, expect, it } from 'vitest';
import {
  buildOrderRequest,
  decimalTextOf,
  orderBodyFor,
  OrderBodyError,
  orderOutcomeOf,
  type CampaignForOrder,
  type RowForOrder,
} from '../../../../electron/core/campaigns/order-body.ts';
import type { Order } from '../../../../electron/core/service/types.ts';

const fixed: CampaignForOrder = {
  productId: 101,
  product: { priceKind: 'fixed', amountMinor: 2500, currency: 'USD', deliveryMethods: ['EMAIL'], availability: 'ON_SALE' },
  senderName: 'Conf Team',
  message: 'Thanks for coming',
};
const range: CampaignForOrder = {
  ...fixed,
  productId: 202,
  product: { priceKind: 'range', minMinor: 500, maxMinor: 50_000, currency: 'USD', deliveryMethods: ['EMAIL'], availability: 'ON_SALE' },
};
const row: RowForOrder = {
  id: 7,
  line: 9,
  name: 'Ana Lima',
  email: 'ana@example.com',
  amountMinor: 2500,
  currency: 'USD',
  message: null,
  externalReferenceId: 'gb-01JH0000000000000000000000',
  productId: null,
};

describe('buildOrderRequest', () => {
  it('a fixed-price product gets no custom_amount; the campaign message stands in for a missing row message', () => {
    expect(buildOrderRequest(fixed, row)).toEqual({
      productId: 101,
      deliveryMethod: 'EMAIL',
      recipient: { name: 'Ana Lima', email: 'ana@example.com' },
      sender: { name: 'Conf Team' },
      message: 'Thanks for coming',
      externalReferenceId: row.externalReferenceId,
    });
  });

  it('a range product carries the row amount as custom_amount, and the row message wins', () => {
    const request = buildOrderRequest(range, { ...row, amountMinor: 1234, message: 'For you' });
    expect(request.customAmount).toEqual({ minor: 1234, currency: 'USD' });
    expect(request.message).toBe('For you');
  });

  it('sends no message when neither the row nor the campaign has one', () => {
    expect(buildOrderRequest({ ...fixed, message: null }, { ...row, message: '  ' })).not.toHaveProperty('message');
  });

  it('fills the message in from the row: its fields, its amount as the recipient reads it, its cells by header', () => {
    const cells = { 'First name': 'Ana', Team: 'Speakers' };
    const request = buildOrderRequest({ ...range, message: 'Hi {first_name} of {team}: {amount}, {{ok}}' }, { ...row, amountMinor: 1234, source: cells });
    expect(request.message).toBe('Hi Ana of Speakers: USD 12.34, {ok}');
    expect(JSON.parse(orderBodyFor(fixed, { ...row, message: '{name}' })).message).toBe('Ana Lima');
  });

  it('refuses a row whose message cannot be filled in, naming the line and the field; nothing is sent', () => {
    expect(() => buildOrderRequest(fixed, { ...row, message: 'Hi {Team}', source: {} })).toThrow(OrderBodyError);
    expect(() => buildOrderRequest(fixed, { ...row, message: 'Hi {Team}', source: {} })).toThrow(
      /^Row on line 9 cannot be sent with its message: the message uses \{Team\}, which is neither a column of the file nor a field/,
    );
  });

  it('always carries the row key, the one minted at import', () => {
    expect(JSON.parse(orderBodyFor(range, row))).toMatchObject({ external_reference_id: row.externalReferenceId, custom_amount: 25 });
  });

  it('gives the same bytes every time for the same row', () => {
    expect(orderBodyFor(range, row)).toBe(orderBodyFor(range, { ...row }));
  });

  it.each([
    ['no name', { name: null }, 'has no recipient name'],
    ['no e-mail', { email: null }, 'has no e-mail address'],
    ['another currency', { currency: 'EUR' }, 'is in EUR, but the product is priced in USD'],
    ['another amount than the fixed price', { amountMinor: 3000 }, 'asks for 30.00 USD, but the product has the fixed price 25.00 USD'],
  ])('refuses a row with %s, naming its line and what to do', (_what, change, message) => {
    const build = () => buildOrderRequest(fixed, { ...row, ...change });
    expect(build).toThrow(OrderBodyError);
    expect(build).toThrow(`Row on line 9 ${message}; nothing was sent for it. Fix the row, then press Resume.`);
  });
});

describe('orderOutcomeOf', () => {
  const order: Order = {
    id: 9001,
    status: 'COMPLETED',
    externalReferenceId: row.externalReferenceId,
    createdAt: '2026-01-15T09:00:00.000Z',
    item: { id: 7001, status: 'PENDING', productId: 202, price: { text: '30000', currency: 'KRW', money: { minor: 30_000, currency: 'KRW' } }, transactionFeeRate: 0.02 },
    charged: { amount: { minor: 2346, currency: 'USD' }, text: '23.4601', rate: 0.00075, from: 'KRW', to: 'USD' },
    acceptanceExpiresAt: '2026-01-22T09:00:00.000Z',
    recipientEmail: undefined,
    anomalies: [],
    raw: {},
  };

  it('keeps the order and item ids and statuses, the charge exactly as sent (and rounded for display), what was issued, the rate and fee as decimal text, and the expiry', () => {
    expect(orderOutcomeOf(order, [])).toEqual({
      orderId: 9001,
      orderStatus: 'COMPLETED',
      itemId: 7001,
      itemStatus: 'PENDING',
      charged: { minor: 2346, currency: 'USD' },
      chargedText: '23.4601',
      issued: { text: '30000', currency: 'KRW' },
      findings: [],
      exchangeRate: { rate: '0.00075', from: 'KRW', to: 'USD' },
      feeRate: '0.02',
      acceptanceExpiry: Date.UTC(2026, 0, 22, 9),
    });
  });

  it('reads an expiry without a zone as UTC, not in the zone of the machine', () => {
    const zone = process.env.TZ;
    process.env.TZ = 'Asia/Seoul';
    try {
      expect(orderOutcomeOf({ ...order, acceptanceExpiresAt: '2026-01-22T09:00:00' }, []).acceptanceExpiry).toBe(Date.UTC(2026, 0, 22, 9));
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('records nothing it was not told: no charge, no rate, no expiry', () => {
    const bare: Order = { ...order, charged: undefined, acceptanceExpiresAt: undefined, item: { ...order.item, transactionFeeRate: undefined } };
    expect(orderOutcomeOf(bare, [])).toMatchObject({ charged: null, exchangeRate: null, feeRate: null, acceptanceExpiry: null });
  });
});

describe('decimalTextOf', () => {
  it.each([
    [1, '1'],
    [0.02, '0.02'],
    [0.00075, '0.00075'],
    [1e-7, '0.0000001'],
    [1.5e-8, '0.000000015'],
    [1e21, '1000000000000000000000'],
    [1234.5, '1234.5'],
  ])('%s → %s, never in exponent form', (value, text) => {
    expect(decimalTextOf(value)).toBe(text);
  });

  it.each([[-0.5], [Number.NaN], [Number.POSITIVE_INFINITY], [undefined]])('%s is no rate: null', (value) => {
    expect(decimalTextOf(value)).toBeNull();
  });
});
