import { describe, expect, it } from 'vitest';
import { makeClient, json, orderRow, serve, type Handler } from '../../../support/http-servers.ts';


function query(url: string): URLSearchParams {
  return new URL(url, 'http://x').searchParams;
}

/** A GET /v1/orders over `count` orders that honours page/element_size, with a page object that lies. */
function ordersServer(count: number, opts: { totalSize?: number; ignorePage?: boolean; ignoreFilter?: boolean } = {}): Handler {
  const all = Array.from({ length: count }, (_, i) => orderRow(i + 1));
  return (req, res) => {
    const q = query(req.url);
    const size = Number(q.get('element_size'));
    const page = opts.ignorePage ? 0 : Number(q.get('page'));
    const ref = q.get('external_reference_id');
    const matching = ref && !opts.ignoreFilter ? all.filter((o) => o.external_reference_id === ref) : all;
    const rows = matching.slice(page * size, page * size + size);
    json(res, 200, { orders: rows, page: { index: page, size, total_size: opts.totalSize ?? matching.length, result_size: matching.length } });
  };
}

describe('GET /v1/orders paging (spec rule: next page until a page holds fewer than element_size rows)', () => {
  it('asks element_size 500 and pages past a total_size that lies low, until a short page', async () => {
    const server = await serve(ordersServer(1234, { totalSize: 10 }));
    const { client } = makeClient(server.url);
    const outcome = await client.listAllOrders({ itemStatus: 'PENDING' });
    expect(outcome).toMatchObject({ kind: 'ok' });
    if (outcome.kind === 'ok') expect(outcome.value.orders).toHaveLength(1234);
    expect(server.requests.map((r) => [query(r.url).get('page'), query(r.url).get('element_size'), query(r.url).get('order_item_status')])).toEqual([
      ['0', '500', 'PENDING'],
      ['1', '500', 'PENDING'],
      ['2', '500', 'PENDING'],
    ]);
  });

  it('does not stop early when total_size lies high: a short page ends it', async () => {
    const server = await serve(ordersServer(20, { totalSize: 5000 }));
    const { client } = makeClient(server.url);
    const outcome = await client.listAllOrders();
    expect(outcome.kind === 'ok' && outcome.value.orders.length).toBe(20);
    expect(server.requests).toHaveLength(1);
  });

  it('after pages of exactly 500 rows it asks the next page, and an empty page ends it', async () => {
    const server = await serve(ordersServer(1000));
    const { client } = makeClient(server.url);
    const outcome = await client.listAllOrders();
    expect(outcome.kind === 'ok' && outcome.value.orders.length).toBe(1000);
    expect(server.requests.map((r) => query(r.url).get('page'))).toEqual(['0', '1', '2']);
  });

  it('the async iterator yields each page in turn', async () => {
    const server = await serve(ordersServer(501));
    const { client } = makeClient(server.url);
    const sizes: number[] = [];
    for await (const page of client.orderPages({ itemStatus: 'PENDING' })) if (page.kind === 'ok') sizes.push(page.value.rowCount);
    expect(sizes).toEqual([500, 1]);
  });

  it('an unreadable row still counts toward the page size, so paging goes on', async () => {
    const server = await serve((req, res) => {
      const page = Number(query(req.url).get('page'));
      const rows = page === 0 ? Array.from({ length: 500 }, (_, i) => (i === 7 ? { id: 'x' } : orderRow(i + 1))) : [orderRow(9999)];
      json(res, 200, { orders: rows });
    });
    const { client } = makeClient(server.url);
    const outcome = await client.listAllOrders();
    expect(outcome).toMatchObject({ kind: 'ok', value: { rowCount: 501, invalid: [{ index: 7 }] } });
    expect(outcome.kind === 'ok' && outcome.value.orders.length).toBe(500);
  });

  it('a failed page ends the listing with that outcome', async () => {
    const server = await serve((req, res) => (query(req.url).get('page') === '1' ? json(res, 500, {}) : ordersServer(1200)(req, res, res.socket!)));
    const { client } = makeClient(server.url);
    expect(await client.listAllOrders()).toMatchObject({ kind: 'ambiguous', reason: 'server-error' });
    expect(server.requests).toHaveLength(2);
  });

  it('a server that ignores the page parameter is detected instead of looping', async () => {
    const server = await serve(ordersServer(800, { ignorePage: true }));
    const { client } = makeClient(server.url);
    expect(await client.listAllOrders()).toMatchObject({ kind: 'ambiguous', reason: 'paging' });
    expect(server.requests).toHaveLength(2);
  });
});

describe('findOrderByReference', () => {
  it('uses the external_reference_id filter', async () => {
    const server = await serve(ordersServer(30));
    const { client } = makeClient(server.url);
    const outcome = await client.findOrderByReference('ref-17');
    expect(outcome).toMatchObject({ kind: 'ok', value: { order: { id: 17, externalReferenceId: 'ref-17' }, duplicates: [] } });
    expect(query(server.requests[0]?.url ?? '').get('external_reference_id')).toBe('ref-17');
  });

  it('trusts only the echoed key when the server ignores the filter', async () => {
    const server = await serve(ordersServer(1100, { ignoreFilter: true }));
    const { client } = makeClient(server.url);
    expect(await client.findOrderByReference('ref-1050')).toMatchObject({ kind: 'ok', value: { order: { id: 1050 } } });
    expect(await client.findOrderByReference('ref-none')).toMatchObject({ kind: 'ok', value: { order: null } });
  });

  it('reports a second order under the same key', async () => {
    const server = await serve((_req, res) => json(res, 200, { orders: [orderRow(4, 'dup'), orderRow(2, 'dup')] }));
    const { client } = makeClient(server.url);
    expect(await client.findOrderByReference('dup')).toMatchObject({ kind: 'ok', value: { order: { id: 2 }, duplicates: [{ id: 4 }] } });
  });

  it('a list whose orders echo no key proves nothing: ambiguous, not "not found"', async () => {
    const server = await serve((_req, res) => json(res, 200, { orders: [{ id: 5, status: 'COMPLETED', order_item: { id: 6, status: 'PENDING' } }] }));
    const { client } = makeClient(server.url);
    expect(await client.findOrderByReference('k')).toMatchObject({ kind: 'ambiguous', reason: 'schema', message: expect.stringContaining('proves nothing') });
  });

  it('an order under the key without the id we need is ambiguous, not "not found"', async () => {
    const server = await serve((_req, res) => json(res, 200, { orders: [{ external_reference_id: 'k', status: 'COMPLETED' }] }));
    const { client } = makeClient(server.url);
    expect(await client.findOrderByReference('k')).toMatchObject({ kind: 'ambiguous', reason: 'schema' });
  });

  it('an order under the key with odd fields besides id, status and key is found, its odd values kept as anomalies', async () => {
    const server = await serve((_req, res) => json(res, 200, { orders: [{ id: 5, external_reference_id: 'k', status: 'COMPLETED', order_item: { id: 6, status: 'PENDING', price: { amount: 5.001, currency: 'USD' } } }] }));
    const { client } = makeClient(server.url);
    const outcome = await client.findOrderByReference('k');
    if (outcome.kind !== 'ok') throw new Error(outcome.message);
    expect(outcome.value.order).toMatchObject({ id: 5, item: { id: 6, price: { text: '5.001', currency: 'USD', money: undefined } } });
    expect(outcome.value.order?.anomalies.join('\n')).toMatch(/price: 5.001 USD/);
  });
});

describe('GET /v1/products paging (size cap "not shown")', () => {
  /** A catalog of `count` products that clamps size to `cap`. */
  function catalog(count: number, cap: number, withTotal: boolean): Handler {
    const all = Array.from({ length: count }, (_, i) => ({ id: i + 1, availability: 'ON_SALE', currency: 'USD', amount: 10 }));
    return (req, res) => {
      const q = query(req.url);
      const size = Math.min(cap, Number(q.get('size')));
      const page = Number(q.get('page'));
      const rows = all.slice(page * size, page * size + size);
      json(res, 200, { products: rows, ...(withTotal ? { page: { index: page, size, total_size: count } } : {}) });
    };
  }

  it('a server that clamps size does not make us stop early; a short page at total_size ends it', async () => {
    const server = await serve(catalog(45, 20, true));
    const { client } = makeClient(server.url);
    const outcome = await client.listAllProducts('US');
    expect(outcome.kind === 'ok' && outcome.value.products.length).toBe(45);
    expect(server.requests.map((r) => [query(r.url).get('page'), query(r.url).get('size'), query(r.url).get('country_code')])).toEqual([
      ['0', '100', 'US'],
      ['1', '100', 'US'],
      ['2', '100', 'US'],
    ]);
  });

  it('without total_size, only an empty page ends it', async () => {
    const server = await serve(catalog(45, 20, false));
    const { client } = makeClient(server.url);
    const outcome = await client.listAllProducts();
    expect(outcome.kind === 'ok' && outcome.value.products.length).toBe(45);
    expect(server.requests).toHaveLength(4);
    expect(query(server.requests[0]?.url ?? '').has('country_code')).toBe(false);
  });

  it('a server that ignores page ends the listing once a page adds nothing new', async () => {
    const server = await serve((_req, res) => json(res, 200, [{ id: 1, availability: 'ON_SALE', currency: 'USD', amount: 10 }]));
    const { client } = makeClient(server.url);
    const outcome = await client.listAllProducts();
    expect(outcome.kind === 'ok' && outcome.value.products.length).toBe(1);
    expect(server.requests).toHaveLength(2);
  });

  it('an envelope with no list is ambiguous (schema)', async () => {
    const server = await serve((_req, res) => json(res, 200, { message: 'hello' }));
    const { client } = makeClient(server.url);
    expect(await client.listAllProducts()).toMatchObject({ kind: 'ambiguous', reason: 'schema' });
  });
});
