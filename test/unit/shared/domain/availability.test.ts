import { describe, expect, it } from 'vitest';
import { stockText } from '../../../../shared/domain/availability.ts';

describe('stock in words', () => {
  it('an answer that does not say is unknown, never in stock', () => {
    expect(stockText({ inStock: undefined, message: undefined })).toMatch(/^unknown/);
    expect(stockText({ inStock: null, message: 'checked at 10:00' })).toBe("unknown: the service's availability answer does not say whether it is in stock (the service says: checked at 10:00)");
  });

  it('says in or out of stock, with the service words when it gave some', () => {
    expect(stockText({ inStock: true, message: null })).toBe('in stock');
    expect(stockText({ inStock: false, message: 'supplier has none' })).toBe('out of stock (the service says: supplier has none)');
  });
});
