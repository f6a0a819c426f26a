import { describe, expect, it, vi } from 'vitest';
import { dispatch, isCallName, type Handlers } from '../../../../electron/core/app/dispatch.ts';
import { createRedactor } from '../../../../electron/core/app/errors.ts';

const summary = {
  id: 'c1', name: 'n', environment: 'simulator', serviceUrl: 'simulator://embedded', productId: 1, products: 1, productList: [{ productId: 1, name: null }], giftPerRow: false, productName: null, currency: 'USD', sendState: 'draft', pausedReason: null,
  pausedDetail: null, running: false, counts: { invalid: 0, ready: 1, sending: 0, ordered: 0, delivered: 0, failed: 0, cancelled: 0, skipped: 0 },
  charged: [], chargedCancelled: [], chargedExpired: [], remaining: [], createdAt: 1, nextPollAt: null, lastPolledAt: null, acceptanceExpired: 0, flagged: 0, unchargedOrders: 0, heldRows: 0, retryable: 0, countryCode: 'US', defaultAmount: null, followUpRows: { failed: 0, cancelled: 0, expired: 0 }, failedFollowedUp: [], expiredFollowedUp: [], failedReasons: [],
} as const;

function handlers(overrides: Partial<Handlers>): Handlers {
  return overrides as Handlers;
}

describe('dispatch', () => {
  it('knows only the contract names, not prototype keys', () => {
    expect(isCallName('campaigns:get')).toBe(true);
    expect(isCallName('toString')).toBe(false);
    expect(isCallName('constructor')).toBe(false);
  });

  it('parses the input (with defaults) before the handler runs, and the output after', async () => {
    const rows = vi.fn(async () => ({ rows: [], total: 0 }));
    const result = await dispatch(handlers({ 'campaigns:rows': rows }), 'campaigns:rows', { campaignId: 'c1' });
    expect(result).toEqual({ ok: true, value: { rows: [], total: 0 } });
    expect(rows).toHaveBeenCalledWith({ campaignId: 'c1', offset: 0, limit: 200 });
  });

  it('refuses send without confirmed: true, before the handler', async () => {
    const send = vi.fn(async () => ({ ...summary, productList: [{ productId: 1, name: null }], charged: [], chargedCancelled: [], chargedExpired: [], remaining: [], failedFollowedUp: [], expiredFollowedUp: [], failedReasons: [] }));
    const result = await dispatch(handlers({ 'campaigns:send': send }), 'campaigns:send', { campaignId: 'c1', confirmed: false });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(send).not.toHaveBeenCalled();
  });

  it('strips fields the contract does not name from an output (nothing extra crosses the boundary)', async () => {
    const get = async () => ({ ...summary, apiKey: 'sk_live_should_not_leak' });
    const result = await dispatch(handlers({ 'campaigns:get': get as never }), 'campaigns:get', { campaignId: 'c1' });
    expect(result.ok).toBe(true);
    expect(JSON.stringify(result)).not.toContain('sk_live');
  });

  it('masks a key in an error message and logs unexpected errors (masked) without returning their text', async () => {
    const redactor = createRedactor();
    redactor.add('sk_live_0123456789');
    const logs: string[] = [];
    const boom = async () => {
      throw new Error('boom with sk_live_0123456789');
    };
    const result = await dispatch(handlers({ 'campaigns:list': boom }), 'campaigns:list', {}, { redactor, log: (_l, m) => logs.push(m) });
    expect(result).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(JSON.stringify(result)).not.toContain('boom');
    expect(logs.join()).toContain('boom with [redacted key]');
  });
});
