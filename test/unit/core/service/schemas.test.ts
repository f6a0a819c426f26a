import { describe, expect, it } from 'vitest';
import { parseAvailability, parseOrder, parseProduct, parseServiceTime } from '../../../../electron/core/service/schemas.ts';
import { findList, readPageInfo } from '../../../../electron/core/service/paging.ts';
import { ORDER } from '../../../support/http-servers.ts';

const base = { id: 1, availability: 'ON_SALE', available_delivery_method: ['EMAIL'] };

describe('product schema', () => {
  it.each([
    ['USD', 25.5, 2550],
    ['KRW', 30000, 30000],
    ['JPY', 1500, 1500],
    ['KWD', 12.345, 12345],
  ])('reads a fixed %s amount of %s into %s minor units', (currency, amount, minor) => {
    const parsed = parseProduct({ ...base, currency, amount });
    expect(parsed).toMatchObject({ ok: true, value: { currency, price: { kind: 'fixed', amount: { minor, currency } } } });
  });

  it('reads a min/max product as a range in its currency', () => {
    const parsed = parseProduct({ ...base, currency: 'USD', min_amount: 5, max_amount: 500 });
    expect(parsed).toMatchObject({ ok: true, value: { price: { kind: 'range', min: { minor: 500 }, max: { minor: 50000 } } } });
  });

  it('refuses a KRW amount with decimals instead of rounding a price', () => {
    const parsed = parseProduct({ ...base, currency: 'KRW', amount: 100.5 });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.issues.join()).toMatch(/product\.amount: 100\.5 has more decimals than KRW allows/);
  });

  it('finds the currency under price.currency or currency_code, and uses the fallback only when none is given', () => {
    expect(parseProduct({ ...base, price: { currency: 'jpy' }, amount: 500 })).toMatchObject({ value: { currency: 'JPY' } });
    expect(parseProduct({ ...base, currency_code: 'KRW', amount: 500 }, { fallbackCurrency: 'USD' })).toMatchObject({ value: { currency: 'KRW' } });
    expect(parseProduct({ ...base, currency_code: 'KRW', amount: 500 })).toMatchObject({ value: { currencySource: 'service' } });
    expect(parseProduct({ ...base, amount: 5 }, { fallbackCurrency: 'usd' })).toMatchObject({ value: { currencySource: 'stated', price: { amount: { minor: 500, currency: 'USD' } } } });
    const none = parseProduct({ ...base, amount: 5 });
    expect(none.ok).toBe(false);
    if (!none.ok) expect(none.issues[0]).toMatch(/^product\.currency: the service does not state its currency/);
  });

  it('keeps unknown fields and tolerates unknown availability values', () => {
    const parsed = parseProduct({ ...base, currency: 'USD', amount: 10, availability: 'PAUSED', colour: 'red' });
    expect(parsed).toMatchObject({ ok: true, value: { availability: 'PAUSED', raw: { colour: 'red' } } });
  });

  it('names the field that broke an assumption', () => {
    const parsed = parseProduct({ id: 'abc', currency: 'USD', amount: 1 });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.issues).toContain('product.availability: expected string, received undefined');
      expect(parsed.issues.some((i) => i.startsWith('product.id:'))).toBe(true);
    }
  });

  it('a product with neither amount nor min/max is refused', () => {
    const parsed = parseProduct({ ...base, currency: 'USD' });
    expect(parsed).toEqual({ ok: false, issues: ['product.amount: expected amount, or min_amount and max_amount'] });
  });
});

describe('order schema', () => {
  it('maps the spec fields to our names, with the item price and the charge exactly as sent (the charge also rounded, for display)', () => {
    const parsed = parseOrder({ ...ORDER, total_price_charged: { ...ORDER.total_price_charged, amount: 23.456 } });
    expect(parsed).toMatchObject({
      ok: true,
      value: {
        id: 9001,
        status: 'COMPLETED',
        externalReferenceId: 'ref-1',
        item: { id: 7001, status: 'PENDING', productId: 123, price: { text: '30000', currency: 'KRW', money: { minor: 30000, currency: 'KRW' } }, transactionFeeRate: 0.02 },
        charged: { amount: { minor: 2346, currency: 'USD' }, text: '23.456', rate: 0.00075, from: 'KRW', to: 'USD' },
        acceptanceExpiresAt: undefined,
        anomalies: [],
      },
    });
  });

  it('reads the acceptance expiry of a recipient-enters-details order', () => {
    const order = { ...ORDER, delivery: { recipient: { name: 'A', acceptance: { expiry_date: '2030-02-01T00:00:00Z' } } } };
    expect(parseOrder(order)).toMatchObject({ ok: true, value: { acceptanceExpiresAt: '2030-02-01T00:00:00Z' } });
  });

  it('reads a KWD charge to the fils', () => {
    const order = { ...ORDER, total_price_charged: { amount: 7.1235, currency: 'KWD' } };
    expect(parseOrder(order)).toMatchObject({ ok: true, value: { charged: { amount: { minor: 7124, currency: 'KWD' }, rate: undefined } } });
  });

  it('tolerates unknown status strings', () => {
    const order = { ...ORDER, status: 'ON_HOLD', order_item: { ...ORDER.order_item, status: 'REISSUED' } };
    expect(parseOrder(order)).toMatchObject({ ok: true, value: { status: 'ON_HOLD', item: { status: 'REISSUED' } } });
  });

  it('keeps an order whose item lacks its status, flagging the field by its path (only id, status and key are strict)', () => {
    const { status: _dropped, ...item } = ORDER.order_item;
    const parsed = parseOrder({ ...ORDER, order_item: item });
    expect(parsed).toMatchObject({ ok: true, value: { id: 9001, item: { id: 7001, status: undefined }, anomalies: ['order.order_item.status: expected text, received nothing'] } });
  });

  it('reports a missing order status by its path: the engine cannot track an order without it', () => {
    const { status: _dropped, ...order } = ORDER;
    expect(parseOrder(order)).toEqual({ ok: false, issues: ['order.status: expected string, received undefined'] });
  });

  it('keeps odd values as received and flags them: an extra decimal, an unknown currency, a price in words', () => {
    const odd = parseOrder({ ...ORDER, order_item: { ...ORDER.order_item, price: { amount: 11.505, currency: 'USD' } }, total_price_charged: { amount: '12.5', currency: 'Dollars' } });
    if (!odd.ok) throw new Error(odd.issues.join());
    expect(odd.value.item.price).toEqual({ text: '11.505', currency: 'USD', money: undefined });
    expect(odd.value.charged).toBeUndefined();
    expect(odd.value.anomalies).toHaveLength(2);
    expect(odd.value.anomalies.join('\n')).toMatch(/11\.505 USD/);
    expect(odd.value.anomalies.join('\n')).toMatch(/12\.5 Dollars/);
    const words = parseOrder({ ...ORDER, order_item: { ...ORDER.order_item, price: 'twenty dollars' } });
    expect(words).toMatchObject({ ok: true, value: { item: { price: undefined }, anomalies: ['order.order_item.price.amount: expected a number, received nothing'] } });
  });

  it('reads the recipient e-mail an answer echoes', () => {
    const order = { ...ORDER, delivery: { recipient: { name: 'A', email: 'a@example.com' } } };
    expect(parseOrder(order)).toMatchObject({ ok: true, value: { recipientEmail: 'a@example.com' } });
  });

  it('accepts an order without the optional money fields', () => {
    const parsed = parseOrder({ id: 1, status: 'COMPLETED', order_item: { id: 2, status: 'PENDING' } });
    expect(parsed).toMatchObject({ ok: true, value: { charged: undefined, item: { price: undefined } } });
  });
});

describe('availability', () => {
  it('reads in_stock and message where the simulator puts them', () => {
    expect(parseAvailability({ product_id: 1, availability: 'ON_SALE', in_stock: false, message: 'Supplier out of stock' })).toEqual({
      inStock: false,
      message: 'Supplier out of stock',
    });
  });

  it('reads a stock word or count, and says nothing when nothing says', () => {
    expect(parseAvailability({ data: { stock_status: 'OUT_OF_STOCK' } }).inStock).toBe(false);
    // The simulator's other dialects: a status word alone, and a nested quantity.
    expect(parseAvailability({ status: 'IN_STOCK' }).inStock).toBe(true);
    expect(parseAvailability({ status: 'NOT_ON_SALE' }).inStock).toBe(false);
    expect(parseAvailability({ product: { id: 5 }, stock: { quantity: 0 } }).inStock).toBe(false);
    expect(parseAvailability({ product: { id: 5 }, stock: { quantity: 1000 } }).inStock).toBe(true);
    expect(parseAvailability({ stock: 3 }).inStock).toBe(true);
    expect(parseAvailability({ availability: 'ON_SALE' }).inStock).toBeUndefined();
    expect(parseAvailability('ok').inStock).toBeUndefined();
  });
});

describe('list envelopes', () => {
  it.each([
    ['a top-level array', [{ id: 1 }]],
    ['the endpoint key', { products: [{ id: 1 }] }],
    ['content', { content: [{ id: 1 }], page: {} }],
    ['data', { data: [{ id: 1 }] }],
    ['a nested data object', { data: { products: [{ id: 1 }] } }],
    ['results', { count: 1, results: [{ id: 1 }] }],
  ])('finds the rows in %s', (_name, body) => {
    expect(findList(body, 'products')).toEqual([{ id: 1 }]);
  });

  it('finds no list in a body without one', () => {
    expect(findList({ products: 'none' }, 'products')).toBeUndefined();
  });

  it('reads the page object when present, and none when absent', () => {
    expect(readPageInfo({ page: { index: 2, size: 500, total_size: 9, result_size: 3 } })).toEqual({ index: 2, size: 500, totalSize: 9, resultSize: 3 });
    expect(readPageInfo({ orders: [] })).toBeUndefined();
    expect(readPageInfo({ orders: [], total_size: 4 })).toMatchObject({ totalSize: 4 });
  });
});

describe('a date-time from the service', () => {
  it('without a zone is read as UTC, whatever the zone of the machine reading it', () => {
    const zone = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      expect(parseServiceTime('2026-01-22T09:00:00')).toBe(Date.UTC(2026, 0, 22, 9));
      expect(parseServiceTime('2026-01-22 09:00')).toBe(Date.UTC(2026, 0, 22, 9));
      expect(parseServiceTime('2026-01-22T09:00:00.250')).toBe(Date.UTC(2026, 0, 22, 9, 0, 0, 250));
      expect(parseServiceTime('2026-01-22T09:00:00+09:00')).toBe(Date.UTC(2026, 0, 22, 0));
      expect(parseServiceTime('2026-01-22T09:00:00Z')).toBe(Date.UTC(2026, 0, 22, 9));
      expect(parseServiceTime('soon')).toBeNaN();
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});
