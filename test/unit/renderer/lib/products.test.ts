import { describe, expect, it } from 'vitest';
import type { ProductDto } from '../../../../shared/contract.ts';
import { campaignProductsText, currencyChoices, currencyCode, currencyOrigin, productNameFor, unreadableLabel, unreadableMatchesSearch } from '../../../../renderer/src/lib/products.ts';

describe('product picker helpers', () => {
  it('reads a currency code as typed, upper case, and refuses anything but three letters', () => {
    expect(currencyCode(' usd ')).toBe('USD');
    expect(currencyCode('Eur')).toBe('EUR');
    expect(currencyCode('US')).toBeNull();
    expect(currencyCode('US$')).toBeNull();
    expect(currencyCode('')).toBeNull();
  });

  it("offers the country's own currency first, then the common ones, each once", () => {
    expect(currencyChoices('US')).toEqual(['USD', 'EUR', 'GBP', 'KRW', 'JPY']);
    expect(currencyChoices('KR')).toEqual(['KRW', 'USD', 'EUR', 'GBP', 'JPY']);
    expect(currencyChoices('CA')).toEqual(['CAD', 'USD', 'EUR', 'GBP', 'KRW', 'JPY']);
    expect(currencyChoices('ZZ')).toEqual(['USD', 'EUR', 'GBP', 'KRW', 'JPY']);
  });

  it('says where a currency the service does not state came from', () => {
    expect(currencyOrigin({ currency: 'USD', currencySource: 'service' })).toBeNull();
    expect(currencyOrigin({ currency: 'USD', currencySource: 'learned' })).toBe('as earlier orders were issued in');
    expect(currencyOrigin({ currency: 'USD', currencySource: 'stated' })).toBe('as you chose');
  });

  it('names an unreadable record by its name, else its id, and finds it by either', () => {
    const named = { id: 4, name: 'Harborline Market eGift', problem: 'x', needsCurrency: true };
    const bare = { id: 5, name: null, problem: 'x', needsCurrency: false };
    expect(unreadableLabel(named)).toBe('Harborline Market eGift');
    expect(unreadableLabel(bare)).toBe('Product 5');
    expect(unreadableLabel({ id: null, name: null, problem: 'x', needsCurrency: false })).toBe('A product without a name or id');
    expect(unreadableMatchesSearch(named, 'harbor')).toBe(true);
    expect(unreadableMatchesSearch(bare, '5')).toBe(true);
    expect(unreadableMatchesSearch(bare, 'coffee')).toBe(false);
  });

  it("names a row's product from the catalog, else as the engine recorded it, else by its id", () => {
    const catalog = [{ id: 3, name: 'Pinecrest Outfitters $50' }, { id: 4, name: null, brand: 'Northwind Books' }] as unknown as ProductDto[];
    expect(productNameFor(3, catalog, 'An older name')).toBe('Pinecrest Outfitters $50');
    expect(productNameFor(4, catalog)).toBe('Northwind Books');
    expect(productNameFor(8, catalog, 'Harborline Market eGift')).toBe('Harborline Market eGift');
    expect(productNameFor(8, catalog)).toBe('Product 8');
  });
});

// S15-J: a follow-up whose rows were all Northwind said "A gift per row; by default Harborline Market
// eGift" on its screen and "Harborline Market eGift" in the list. Both say the products its rows use.
describe("a campaign's products, on its screen and in the list", () => {
  const own = { productId: 1, productName: 'Harborline Market eGift' };
  it('names the products its rows use for a gift per row, not its own product "by default"', () => {
    expect(campaignProductsText({ ...own, giftPerRow: true, productList: [{ productId: 2, name: 'Northwind Books' }] })).toBe('A gift per row: Northwind Books');
    expect(
      campaignProductsText({ ...own, giftPerRow: true, productList: [{ productId: 1, name: 'Harborline Market eGift' }, { productId: 3, name: null }] }),
    ).toBe('A gift per row: Harborline Market eGift, Product 3');
  });
  it('names its own product otherwise', () => {
    expect(campaignProductsText({ ...own, giftPerRow: false, productList: [{ productId: 1, name: 'Harborline Market eGift' }] })).toBe('Harborline Market eGift');
    expect(campaignProductsText({ productId: 4, productName: null, giftPerRow: false, productList: [] })).toBe('Product 4');
  });
});
