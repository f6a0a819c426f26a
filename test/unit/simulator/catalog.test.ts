import { describe, expect, it } from 'vitest';
import {
  CATALOG, productBySlug, productIdFor, productIdOffset,
} from '../../../electron/simulator/index.ts';

describe('simulator catalog', () => {
  it('product ids differ per key and are stable for one key', () => {
    expect(productIdFor('key-a', 'us-fixed-10')).toBe(productIdFor('key-a', 'us-fixed-10'));
    expect(productIdFor('key-a', 'us-fixed-10')).not.toBe(productIdFor('key-b', 'us-fixed-10'));
  });

  it('product ids are derived from a hash of the key (same value in any process)', () => {
    // Pinned: a change here would move every key's ids and orphan campaigns saved against them.
    expect(productIdOffset('key-a')).toBe(8383400);
    expect(productIdFor('key-a', 'us-fixed-10')).toBe(8383401);
    expect(productIdFor('k1', 'kr-fixed-krw') - productIdFor('k1', 'us-fixed-10')).toBe(
      CATALOG.findIndex((p) => p.slug === 'kr-fixed-krw'),
    );
  });

  it('slugs are unique and productIdFor refuses an unknown slug', () => {
    const slugs = CATALOG.map((p) => p.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(() => productIdFor('k', 'no-such-slug')).toThrow(/no-such-slug/);
  });

  it('covers the countries and special products the brief requires', () => {
    const countries = new Set(CATALOG.map((p) => p.countryCode));
    for (const c of ['US', 'KR', 'GB', 'DE', 'JP']) expect(countries).toContain(c);
    expect(productBySlug('us-fixed-10').amount).toBe('10');
    expect(productBySlug('us-range').minAmount).toBeDefined();
    expect(productBySlug('kr-fixed-krw').currency).toBe('KRW');
    expect(productBySlug('us-out-of-stock')).toMatchObject({ availability: 'ON_SALE', outOfStock: true });
    expect(productBySlug('us-recipient-details').recipientDetails).toBe(true);
    expect(productBySlug('us-not-on-sale').availability).not.toBe('ON_SALE');
    expect(productBySlug('us-no-email').deliveryMethods).not.toContain('EMAIL');
  });

  it('every product has either a fixed amount or a min/max range, never both', () => {
    for (const p of CATALOG) {
      const fixed = p.amount !== undefined;
      const range = p.minAmount !== undefined && p.maxAmount !== undefined;
      expect(fixed !== range, p.slug).toBe(true);
    }
  });

  it('uses invented brands, none of the well-known gift card brands', () => {
    const real = /amazon|starbucks|apple|itunes|google|walmart|target|netflix|uber|visa|mastercard|steam|nintendo|playstation|xbox|ikea|sephora|nike|kakao|naver|tesco|rakuten/i;
    for (const p of CATALOG) {
      expect(p.name, p.slug).not.toMatch(real);
      expect(p.brand, p.slug).not.toMatch(real);
    }
  });
});
