import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { productBySlug, productIdFor } from '../../../electron/simulator/index.ts';
import { accountIdOf } from '../../../electron/simulator/account-id.ts';
import { dec } from '../../../electron/simulator/decimal.ts';
import {
  decodeLine, encodeAccept, encodeAccount, encodeForce, encodeLine, encodeOrder, orderFromLine, STATE_VERSION,
} from '../../../electron/simulator/state-codec.ts';
import type { OrderRecord } from '../../../electron/simulator/store.ts';
import { canonicalJson } from '../../../electron/simulator/order-request.ts';

const KEY = 'codec-key';
const ACCOUNT = accountIdOf(KEY);

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
    accountId: ACCOUNT,
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
    expect(decoded.legacy).toBe(false);
    expect(orderFromLine(decoded.line)).toEqual(o);
  });

  it('accept, force and account lines decode to what was encoded', () => {
    expect(decodeLine(encodeAccept(ACCOUNT, 5, 123))).toEqual({
      ok: true, legacy: false, line: { v: 2, type: 'accept', account: ACCOUNT, orderId: 5, at: 123 },
    });
    expect(decodeLine(encodeForce(ACCOUNT, 5, 'CANCELLED', null))).toEqual({
      ok: true, legacy: false, line: { v: 2, type: 'force', account: ACCOUNT, orderId: 5, orderStatus: 'CANCELLED', itemStatus: null },
    });
    expect(decodeLine(encodeAccount(ACCOUNT, { minor: 47500, currency: 'EUR' }))).toEqual({
      ok: true, legacy: false, line: { v: 2, type: 'account', account: ACCOUNT, balance: { minor: 47500, currency: 'EUR' } },
    });
  });

  it('the account id is SHA-256 of a fixed prefix and the key: 64 hex digits, the key nowhere in a line', () => {
    expect(ACCOUNT).toBe(createHash('sha256').update(`giftbatch-simulator-account:${KEY}`).digest('hex'));
    expect(ACCOUNT).not.toBe(createHash('sha256').update(KEY).digest('hex'));
    for (const text of [encodeOrder(order()), encodeAccept(ACCOUNT, 5, 1), encodeForce(ACCOUNT, 5, null, 'COMPLETED'), encodeAccount(ACCOUNT, { minor: 1, currency: 'USD' })]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toMatch(/"key"/);
    }
  });

  it('a v1 line (raw key) decodes to the v2 line it becomes: the key hashed, marked legacy', () => {
    const v1Order = JSON.stringify({ ...JSON.parse(encodeOrder(order())) as Record<string, unknown>, v: 1, account: undefined, key: KEY });
    const decoded = decodeLine(v1Order);
    if (!decoded.ok || decoded.line.type !== 'order') throw new Error(`did not decode: ${JSON.stringify(decoded)}`);
    expect(decoded.legacy).toBe(true);
    expect(decoded.line.account).toBe(ACCOUNT);
    expect(encodeLine(decoded.line)).toBe(encodeOrder(order()));
    expect(orderFromLine(decoded.line)).toEqual(order());

    expect(decodeLine('{"v":1,"type":"accept","key":"codec-key","orderId":5,"at":123}')).toEqual({
      ok: true, legacy: true, line: { v: 2, type: 'accept', account: ACCOUNT, orderId: 5, at: 123 },
    });
    const account = decodeLine('{"v":1,"type":"account","key":"codec-key","balance":{"minor":100,"currency":"USD"}}');
    if (!account.ok) throw new Error('did not decode');
    expect(encodeLine(account.line)).toBe(encodeAccount(ACCOUNT, { minor: 100, currency: 'USD' }));
  });

  it.each([
    ['{"v":3,"type":"order"}', /another version of the simulator \(v=3; this one reads v=2 and v=1\)/],
    ['{"type":"order"}', /v=missing/],
    ['{"v":2,"type":"order","account":"k","id":1', /not valid JSON/],
    ['[1,2]', /not a JSON object/],
    ['{"v":2,"type":"teleport"}', /type/],
    [`{"v":2,"type":"accept","account":"${ACCOUNT}","orderId":-3,"at":1}`, /orderId/],
    [`{"v":2,"type":"account","account":"${ACCOUNT}","balance":{"minor":1.5,"currency":"USD"}}`, /balance\.minor/],
    ['{"v":2,"type":"accept","account":"codec-key","orderId":3,"at":1}', /account: must be an account id/],
    ['{"v":2,"type":"accept","key":"codec-key","orderId":3,"at":1}', /account/],
    ['{"v":1,"type":"accept","key":"","orderId":3,"at":1}', /key/],
    ['{"v":1,"type":"account","key":"k","balance":{"minor":1.5,"currency":"USD"}}', /balance\.minor/],
  ])('a line that cannot be applied says why: %s', (text, reason) => {
    const decoded = decodeLine(text);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) {
      expect(decoded.reason).toMatch(reason);
      expect(decoded.newer).toBe(text.startsWith('{"v":3'));
    }
  });

  it('a v2 order whose product id is not that product\'s id in any key\'s catalog is refused on replay', () => {
    const decoded = decodeLine(encodeOrder(order({ productId: productIdFor(KEY, 'kr-fixed-krw') + 1 })));
    if (!decoded.ok || decoded.line.type !== 'order') throw new Error('did not decode');
    const line = decoded.line;
    expect(() => orderFromLine(line)).toThrow(/not in this simulator's catalog/);
    // Another key's id for the same product fits the catalog: without the key, a replay cannot tell.
    const other = decodeLine(encodeOrder(order({ productId: productIdFor('another-key', 'kr-fixed-krw') })));
    if (!other.ok || other.line.type !== 'order') throw new Error('did not decode');
    expect(orderFromLine(other.line).productId).toBe(productIdFor('another-key', 'kr-fixed-krw'));
  });

  it('a v1 order whose product is not in its key\'s catalog is refused when it is read, while the key is at hand', () => {
    const v1 = JSON.stringify({
      ...JSON.parse(encodeOrder(order({ productId: productIdFor('another-key', 'kr-fixed-krw') }))) as Record<string, unknown>,
      v: 1, account: undefined, key: KEY,
    });
    const decoded = decodeLine(v1);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.reason).toMatch(/not in this simulator's catalog for that key/);
  });
});
