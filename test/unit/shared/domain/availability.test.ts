import { describe, expect, it } from 'vitest';
import { stockNote, stockText } from '../../../../shared/domain/availability.ts';

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

describe("the pre-flight report's stock line", () => {
  // Out of stock is one of the pre-flight's problems, with the service's words: a stock line too
  // printed the same sentence twice (the app's Review step and the CLI's Stock and Pre-flight lines).
  it('is left out when out of stock, the problem saying it already', () => {
    expect(stockNote({ inStock: false, message: 'ON_SALE but the supplier has no stock' })).toBeNull();
  });

  it('says in stock or unknown, with the service words', () => {
    expect(stockNote({ inStock: true, message: null })).toBe('Stock: in stock');
    expect(stockNote({ inStock: undefined, message: 'checked at 10:00' })).toMatch(/^Stock: unknown: .*\(the service says: checked at 10:00\)$/);
  });
});
