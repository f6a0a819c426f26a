import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG, productIdFor } from '../../../electron/simulator/index.ts';
import { errorCode, json, startSimulator, type Harness } from '../../support/simulator-http.ts';

interface ProductsPage {
  products: { id: number; country_code: string; currency: string; availability: string; amount?: number; min_amount?: number; max_amount?: number; available_delivery_method: string[] }[];
  page: { index: number; size: number; total_size: number; result_size: number };
}

describe('simulator GET /v1/products', () => {
  let h: Harness;
  beforeAll(async () => { h = await startSimulator(); });
  afterAll(async () => { await h.sim.stop(); });

  const products = async (key: string, query: string): Promise<ProductsPage> => {
    const res = await h.get(key, `/v1/products${query}`);
    expect(res.status).toBe(200);
    return (await res.json()) as ProductsPage;
  };

  it('requires SERVICE-API-KEY (401 UNAUTHORIZED without it)', async () => {
    const res = await h.get(null, '/v1/products');
    expect(res.status).toBe(401);
    expect(await errorCode(res)).toBe('UNAUTHORIZED');
    expect((await h.get('   ', '/v1/products')).status).toBe(401);
  });

  it('lists ids that differ per key and match productIdFor', async () => {
    const a = await products('key-a', '?country_code=US&size=100');
    const b = await products('key-b', '?country_code=US&size=100');
    expect(a.products[0]?.id).toBe(productIdFor('key-a', 'us-fixed-10'));
    expect(b.products[0]?.id).toBe(productIdFor('key-b', 'us-fixed-10'));
    expect(a.products.map((p) => p.id)).not.toEqual(b.products.map((p) => p.id));
  });

  it('filters by country and reports the count of matching products', async () => {
    const kr = await products('key-a', '?country_code=KR');
    expect(kr.products.length).toBeGreaterThan(0);
    expect(kr.products.every((p) => p.country_code === 'KR' && p.currency === 'KRW')).toBe(true);
    expect(kr.page).toEqual({ index: 0, size: 20, total_size: kr.products.length, result_size: kr.products.length });
    for (const c of ['GB', 'DE', 'JP']) expect((await products('key-a', `?country_code=${c}`)).products.length).toBeGreaterThan(0);
    expect((await products('key-a', '?country_code=ZZ')).products).toEqual([]);
  });

  it('pages through the whole catalog without gaps or repeats', async () => {
    const seen: number[] = [];
    for (let page = 0; page < 20; page++) {
      const p = await products('key-a', `?page=${page}&size=5`);
      seen.push(...p.products.map((x) => x.id));
      expect(p.page.total_size).toBe(CATALOG.length);
      if (p.products.length < 5) break;
    }
    expect(seen).toHaveLength(CATALOG.length);
    expect(new Set(seen).size).toBe(CATALOG.length);
  });

  it('defaults size to 20 and clamps it to 100', async () => {
    expect((await products('key-a', '')).page.size).toBe(20);
    expect((await products('key-a', '?size=1000')).page.size).toBe(100);
  });

  it('a non-numeric page is a 400', async () => {
    const res = await h.get('key-a', '/v1/products?page=abc');
    expect(res.status).toBe(400);
    expect(await errorCode(res)).toBe('BAD_REQUEST');
  });

  it('fixed products carry amount, range products min_amount and max_amount', async () => {
    const all = (await products('key-a', '?size=100')).products;
    const fixed = all.find((p) => p.id === productIdFor('key-a', 'us-fixed-10'));
    const range = all.find((p) => p.id === productIdFor('key-a', 'us-range'));
    expect(fixed).toMatchObject({ amount: 10, availability: 'ON_SALE', available_delivery_method: ['EMAIL'] });
    expect(fixed).not.toHaveProperty('min_amount');
    expect(range).toMatchObject({ min_amount: 5, max_amount: 500 });
    expect(range).not.toHaveProperty('amount');
    expect(all.find((p) => p.id === productIdFor('key-a', 'us-no-email'))?.available_delivery_method).toEqual(['SMS']);
  });
});

describe('simulator GET /v1/products/{id}/availability', () => {
  let h: Harness;
  beforeAll(async () => { h = await startSimulator(); });
  afterAll(async () => { await h.sim.stop(); });

  const availability = async (slug: string): Promise<Record<string, unknown>> => {
    const res = await h.get('k', `/v1/products/${productIdFor('k', slug)}/availability`);
    expect(res.status).toBe(200);
    return json(res);
  };

  it('an ordinary product is ON_SALE and in stock', async () => {
    expect(await availability('us-fixed-10')).toMatchObject({ product_id: productIdFor('k', 'us-fixed-10'), availability: 'ON_SALE', in_stock: true });
  });

  it('the out-of-stock product is ON_SALE but in_stock false', async () => {
    expect(await availability('us-out-of-stock')).toMatchObject({ availability: 'ON_SALE', in_stock: false });
  });

  it('a product not on sale says so', async () => {
    expect(await availability('us-not-on-sale')).toMatchObject({ availability: 'SOLD_OUT', in_stock: false });
    expect(await availability('us-discontinued')).toMatchObject({ availability: 'DISCONTINUED' });
  });

  it("another key's product id is 404 PRODUCT_NOT_FOUND", async () => {
    const res = await h.get('k', `/v1/products/${productIdFor('other', 'us-fixed-10')}/availability`);
    expect(res.status).toBe(404);
    expect(await errorCode(res)).toBe('PRODUCT_NOT_FOUND');
  });
});
