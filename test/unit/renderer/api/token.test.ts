import { describe, expect, it } from 'vitest';
import { splitToken, takeTokenFromAddressBar } from '../../../../renderer/src/api/token.ts';
import { reconnectDelay } from '../../../../renderer/src/api/backoff.ts';

function tab() {
  const store = new Map<string, string>();
  return { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
}

describe('the per-launch token', () => {
  it('is taken out of the address bar, keeping the rest of the address', () => {
    expect(splitToken('http://127.0.0.1:5000/?x=1#token=abc')).toEqual({ token: 'abc', cleanUrl: 'http://127.0.0.1:5000/?x=1' });
    // A route in the fragment is not a token, and the query never carries one (it would reach the server).
    expect(splitToken('http://127.0.0.1:5000/#/campaigns')).toEqual({ token: null, cleanUrl: 'http://127.0.0.1:5000/#/campaigns' });
    expect(splitToken('http://127.0.0.1:5000/?token=abc')).toMatchObject({ token: null });
    expect(splitToken('http://127.0.0.1:5000/#token=abc&/campaigns/c_1')).toEqual({ token: 'abc', cleanUrl: 'http://127.0.0.1:5000/#/campaigns/c_1' });
    const replaced: string[] = [];
    const token = takeTokenFromAddressBar({ href: 'http://127.0.0.1:5000/#token=abc' }, { replaceState: (_d, _u, url) => replaced.push(url ?? '') }, tab());
    expect(token).toBe('abc');
    expect(replaced).toEqual(['http://127.0.0.1:5000/']);
  });

  it('survives a reload of the same tab, and a new address wins over the kept one', () => {
    const t = tab();
    const history = { replaceState: () => {} };
    takeTokenFromAddressBar({ href: 'http://127.0.0.1:5000/#token=first' }, history, t);
    expect(takeTokenFromAddressBar({ href: 'http://127.0.0.1:5000/' }, history, t)).toBe('first');
    expect(takeTokenFromAddressBar({ href: 'http://127.0.0.1:6000/#token=second' }, history, t)).toBe('second');
  });

  it('is null when the page was opened without one', () => {
    expect(takeTokenFromAddressBar({ href: 'http://127.0.0.1:5000/' }, { replaceState: () => {} })).toBeNull();
  });
});

describe('reconnectDelay', () => {
  it('grows exponentially up to its cap and is never zero', () => {
    expect(reconnectDelay(0, () => 0)).toBe(125);
    expect(reconnectDelay(3, () => 0.999)).toBe(1998);
    expect(reconnectDelay(50, () => 0.999)).toBeLessThanOrEqual(10_000);
  });
});
