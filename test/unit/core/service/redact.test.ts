import { describe, expect, it } from 'vitest';
import { redactDeep } from '../../../../electron/core/service/http.ts';

// Every outcome the HTTP layer returns passes through redactDeep: a server that echoes the key
// (in a message, a field, even a field name) must not carry it into a log, a report or the UI.
const KEY = 'sk_test_0123456789';

describe('redactDeep', () => {
  it('returns a value without the key as it is, the same object (nothing copied)', () => {
    const order = { id: 7, item: { status: 'PENDING', tags: ['a', 'b'] }, note: null, ok: true };
    expect(redactDeep(order, KEY)).toBe(order);
    expect(redactDeep('plain', KEY)).toBe('plain');
    expect(redactDeep(42, KEY)).toBe(42);
  });

  it('replaces the key wherever it hides: strings, nested arrays, field names; the input is left untouched', () => {
    const raw = {
      message: `key ${KEY} refused`,
      nested: { list: ['fine', [`deep ${KEY}`]], count: 2 },
      [`${KEY}`]: 'as a field name',
      untouched: { a: 1 },
    };
    const copy = structuredClone(raw);
    const out = redactDeep(raw, KEY);
    expect(JSON.stringify(out)).not.toContain(KEY);
    expect(out.message).toBe('key [redacted] refused');
    expect(out.nested.list).toEqual(['fine', ['deep [redacted]']]);
    expect(out).toHaveProperty('[redacted]', 'as a field name');
    // What held no key is shared, not copied.
    expect(out.untouched).toBe(raw.untouched);
    expect(raw).toEqual(copy);
  });

  it('an empty secret redacts nothing', () => {
    const value = { message: 'anything' };
    expect(redactDeep(value, '')).toBe(value);
  });
});
