import { describe, expect, it } from 'vitest';
import { extractServiceError, mayStillBeRunning, parseRetryAfter, type AmbiguousReason, type Failure } from '../../../../electron/core/service/outcome.ts';
import { serializeOrderRequest } from '../../../../electron/core/service/order-request.ts';
import { money } from '../../../../shared/domain/money.ts';

describe('Retry-After', () => {
  const now = Date.UTC(2030, 0, 1, 12, 0, 0);
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
  });
  it('reads an HTTP-date relative to the injected clock', () => {
    expect(parseRetryAfter(new Date(now + 12_000).toUTCString(), now)).toBe(12_000);
    expect(parseRetryAfter(new Date(now - 5_000).toUTCString(), now)).toBe(0);
  });
  it('ignores what is neither', () => {
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-3', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('mayStillBeRunning: an unclear answer to a POST after which the request may still be processed', () => {
  const endpoint = 'POST /v1/orders';
  const ambiguous = (reason: AmbiguousReason, status?: number): Failure => ({ kind: 'ambiguous', reason, status, endpoint, message: 'm' });
  it('a timeout, and a gateway\'s 502 or 504', () => {
    expect(mayStillBeRunning(ambiguous('timeout'))).toBe(true);
    expect(mayStillBeRunning(ambiguous('server-error', 502))).toBe(true);
    expect(mayStillBeRunning(ambiguous('server-error', 504))).toBe(true);
  });
  it('a 409 Conflict (a request under this key still in progress), not a 408 nor another unclear status', () => {
    expect(mayStillBeRunning(ambiguous('status', 409))).toBe(true);
    expect(mayStillBeRunning(ambiguous('status', 408))).toBe(false);
    expect(mayStillBeRunning(ambiguous('status', 302))).toBe(false);
    expect(mayStillBeRunning({ kind: 'rejected', status: 409, code: 'CONFLICT', message: 'm', body: '', endpoint })).toBe(false);
  });
  it('not a 503 (with Retry-After: rate-limited; without: server-error), a 500, a reset, a cut-off body, nor a definite answer', () => {
    expect(mayStillBeRunning(ambiguous('server-error', 503))).toBe(false);
    expect(mayStillBeRunning({ kind: 'rate-limited', status: 503, retryAfterMs: 1000, endpoint, message: 'm' })).toBe(false);
    expect(mayStillBeRunning(ambiguous('server-error', 500))).toBe(false);
    expect(mayStillBeRunning(ambiguous('connection'))).toBe(false);
    expect(mayStillBeRunning(ambiguous('truncated', 200))).toBe(false);
    expect(mayStillBeRunning({ kind: 'rejected', status: 504, code: undefined, message: 'm', body: '', endpoint })).toBe(false);
  });
});

describe('service error bodies', () => {
  it('reads the nested error object', () => {
    expect(extractServiceError('{"error":{"code":"AMOUNT_OUT_OF_RANGE","message":"too high"}}')).toEqual({ code: 'AMOUNT_OUT_OF_RANGE', message: 'too high' });
  });
  it('reads flat and list shapes', () => {
    expect(extractServiceError('{"code":"X","message":"m"}')).toEqual({ code: 'X', message: 'm' });
    expect(extractServiceError('{"errors":[{"message":"bad email"}]}')).toEqual({ code: undefined, message: 'bad email' });
    expect(extractServiceError('{"error":"INVALID_EMAIL"}')).toEqual({ code: 'INVALID_EMAIL', message: undefined });
  });
  it('falls back to the text, with HTML stripped', () => {
    expect(extractServiceError('<html><body><h1>Bad Request</h1></body></html>')).toEqual({ code: undefined, message: 'Bad Request' });
    expect(extractServiceError('plain words')).toEqual({ code: undefined, message: 'plain words' });
  });
});

describe('order request body', () => {
  const request = {
    productId: 123,
    customAmount: money(2550, 'USD'),
    recipient: { name: 'Ana', email: 'ana@example.com' },
    sender: { name: 'Org' },
    message: 'Thanks',
    externalReferenceId: 'gb-1',
  };
  it('puts custom_amount at the top level as a JSON number from minor units', () => {
    expect(JSON.parse(serializeOrderRequest(request))).toEqual({
      item: { id: 123 },
      custom_amount: 25.5,
      delivery: { method: 'EMAIL', recipient: { name: 'Ana', email: 'ana@example.com' }, sender: { name: 'Org' } },
      message: 'Thanks',
      external_reference_id: 'gb-1',
    });
  });
  it('produces the same bytes whatever the order of the fields given', () => {
    const reordered = { externalReferenceId: 'gb-1', message: 'Thanks', sender: { name: 'Org' }, recipient: { email: 'ana@example.com', name: 'Ana' }, customAmount: money(2550, 'USD'), productId: 123 };
    expect(serializeOrderRequest(reordered)).toBe(serializeOrderRequest(request));
  });
  it('leaves custom_amount out for a fixed product, and sends KRW and KWD amounts exactly', () => {
    const { customAmount: _c, ...fixed } = request;
    expect(serializeOrderRequest(fixed)).not.toContain('custom_amount');
    expect(serializeOrderRequest({ ...request, customAmount: money(30000, 'KRW') })).toContain('"custom_amount":30000');
    expect(serializeOrderRequest({ ...request, customAmount: money(12345, 'KWD') })).toContain('"custom_amount":12.345');
  });
  it('refuses to build an order without its external_reference_id', () => {
    expect(() => serializeOrderRequest({ ...request, externalReferenceId: ' ' })).toThrow(/external_reference_id/);
  });
});

describe('service error bodies without a message', () => {
  it('an empty JSON object gives no message rather than "{}"', () => {
    expect(extractServiceError('{}')).toEqual({ code: undefined, message: undefined });
  });
  it('a JSON body in an unknown shape is kept as the message', () => {
    expect(extractServiceError('{"fault":"quota"}')).toEqual({ code: undefined, message: '{"fault":"quota"}' });
  });
});
