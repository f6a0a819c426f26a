import { describe, expect, it } from 'vitest';
import { productBySlug, productIdFor } from '../../../electron/simulator/index.ts';
import { dec } from '../../../electron/simulator/decimal.ts';
import {
  decodeLine, encodeAccept, encodeAccount, encodeForce, encodeOrder, orderFromLine, STATE_VERSION,
} from '../../../electron/simulator/state-codec.ts';
import type { OrderRecord } from '../../../electron/simulator/store.ts';
import { canonicalJson } from '../../../electron/simulator/order-request.ts';

const KEY = 'codec-key';

function order(overrides: Partial<OrderRecord> = {}): OrderRecord {
  const body = { item: { id: productIdFor(KEY, 'kr-fixed-krw') }, external_reference_id: 'r-1', message: 'line\nbreak "quoted" 감사', z: [1, { b: 2, a: 1 }] };
  return {
    product: productBySlug('kr-fixed-krw'),
    productId: productIdFor(KEY, 'kr-fixed-krw'),
    price: { minor: 30000, currency: 'KRW' },
    delivery: { method: 'EMAIL', recipient: { name: 'Kim', email: 'kim@example.com' }, sender: null },
    message: 'line\nbreak "quoted" 감사',
    externalReferenceId: 'r-1',
    fingerprint: canonicalJson(body),
    id: 900_001,
    itemId: 700_001,
    key: KEY,
    charged: { minor: 2295, currency: 'USD' },
    rate: dec('0.00075'),
    feeRate: dec('0.02'),
    createdAt: Date.parse('2025-03-01T10:00:00Z'),
    expiresAt: null,
    acceptedAt: null,
    forcedOrderStatus: null,
    forcedItemStatus: null,
    ...overrides,
  };
}

describe('state file lines', () => {
  it('an order line is one line of JSON that decodes back to the same order, body fingerprint included', () => {
    const o = order();
    const text = encodeOrder(o);
    expect(text).not.toContain('\n');
    const decoded = decodeLine(text);
    if (!decoded.ok || decoded.line.type !== 'order') throw new Error(`did not decode: ${JSON.stringify(decoded)}`);
    expect(decoded.line.v).toBe(STATE_VERSION);
    expect(orderFromLine(decoded.line)).toEqual(o);
  });

  it('accept, force and account lines decode to what was encoded', () => {
    expect(decodeLine(encodeAccept(KEY, 5, 123))).toEqual({ ok: true, line: { v: 1, type: 'accept', key: KEY, orderId: 5, at: 123 } });
    expect(decodeLine(encodeForce(KEY, 5, 'CANCELLED', null))).toEqual({
      ok: true, line: { v: 1, type: 'force', key: KEY, orderId: 5, orderStatus: 'CANCELLED', itemStatus: null },
    });
    expect(decodeLine(encodeAccount(KEY, { minor: 47500, currency: 'EUR' }))).toEqual({
      ok: true, line: { v: 1, type: 'account', key: KEY, balance: { minor: 47500, currency: 'EUR' } },
    });
  });

  it.each([
    ['{"v":2,"type":"order"}', /another version of the simulator \(v=2; this one reads v=1\)/],
    ['{"type":"order"}', /v=missing/],
    ['{"v":1,"type":"order","key":"k","id":1', /not valid JSON/],
    ['[1,2]', /not a JSON object/],
    ['{"v":1,"type":"teleport"}', /type/],
    ['{"v":1,"type":"accept","key":"k","orderId":-3,"at":1}', /orderId/],
    ['{"v":1,"type":"account","key":"k","balance":{"minor":1.5,"currency":"USD"}}', /balance\.minor/],
  ])('a line that cannot be applied says why: %s', (text, reason) => {
    const decoded = decodeLine(text);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.reason).toMatch(reason);
  });

  it('an order whose product is not in this key\'s catalog is refused on replay', () => {
    const decoded = decodeLine(encodeOrder(order({ productId: productIdFor('another-key', 'kr-fixed-krw') })));
    if (!decoded.ok || decoded.line.type !== 'order') throw new Error('did not decode');
    const line = decoded.line;
    expect(() => orderFromLine(line)).toThrow(/not in this simulator's catalog/);
  });
});
