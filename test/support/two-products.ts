// A campaign of two gifts (a gift per row, issue 13) made through the repos as an import would: a
// fixed-price product (the campaign's own) and a range product its rows name with their own
// amounts. And a watch on the queue's POSTs, to see what else was in flight while one was.

import type { Db } from '../../electron/core/db/open.ts';
import { createCampaign, type Campaign } from '../../electron/core/db/repos/campaigns.ts';
import type { NewRecipient } from '../../electron/core/db/repos/recipients.ts';
import type { Outcome, ServiceClient } from '../../electron/core/service/index.ts';
import type { Order } from '../../electron/core/service/types.ts';
import { productIdFor } from '../../electron/simulator/index.ts';
import { allRows, recipientRow, snapshotOfSlug, T0 } from './campaign.ts';

/** The two gifts: Northwind Books USD 25 (fixed) and Harborline Market USD 5-500 (range). */
export const FIXED_SLUG = 'us-fixed-25';
export const RANGE_SLUG = 'us-range';

/**
 * The rows' products in file order: 'interleaved' is F R F R …; 'fixed-first' is every fixed row,
 * then every range row (the run's first order is then of the fixed product, and the range
 * product's first order comes while fixed ones may be in flight).
 */
export type Layout = 'interleaved' | 'fixed-first';

export interface TwoProducts {
  readonly campaign: Campaign;
  readonly fixedId: number;
  readonly rangeId: number;
  /** Each row's product, by row id. */
  readonly productOfRow: ReadonlyMap<number, number>;
}

/** A range row's amount: never the product's minimum (USD 5.00), so a service issuing the minimum is seen. */
export const rangeAmountMinor = (i: number): number => 1_150 + i * 100;

export function makeTwoProductCampaign(db: Db, opts: { key: string; baseUrl: string; fixedRows: number; rangeRows: number; layout: Layout }): TwoProducts {
  const fixed = snapshotOfSlug(FIXED_SLUG);
  const range = snapshotOfSlug(RANGE_SLUG);
  if (fixed.priceKind !== 'fixed' || range.priceKind !== 'range') throw new Error('the catalog changed: expected a fixed and a range product');
  const fixedId = productIdFor(opts.key, FIXED_SLUG);
  const rangeId = productIdFor(opts.key, RANGE_SLUG);
  const kinds: ('fixed' | 'range')[] = [];
  if (opts.layout === 'fixed-first') {
    kinds.push(...Array<'fixed'>(opts.fixedRows).fill('fixed'), ...Array<'range'>(opts.rangeRows).fill('range'));
  } else {
    for (let i = 0; i < Math.max(opts.fixedRows, opts.rangeRows); i++) {
      if (i < opts.fixedRows) kinds.push('fixed');
      if (i < opts.rangeRows) kinds.push('range');
    }
  }
  let nthRange = 0;
  const rows: NewRecipient[] = kinds.map((kind, i) =>
    kind === 'fixed'
      ? recipientRow(i, fixed.amountMinor, fixed.currency)
      : { ...recipientRow(i, rangeAmountMinor(nthRange++), range.currency), productId: rangeId },
  );
  const { campaign } = createCampaign(
    db,
    {
      name: `Two gifts (${opts.layout})`,
      environment: 'simulator',
      baseUrl: opts.baseUrl,
      productId: fixedId,
      product: fixed,
      senderName: 'Event Team',
      message: 'Thank you for coming!',
      currency: fixed.currency,
      otherProducts: [{ productId: rangeId, product: range }],
    },
    rows,
    T0,
  );
  const productOfRow = new Map(allRows(db, campaign.id).map((r) => [r.id, r.productId ?? fixedId]));
  return { campaign, fixedId, rangeId, productOfRow };
}

/** One POST /v1/orders the queue made, placed on a clock of starts and ends (no wall time: exact under load). */
export interface WatchedPost {
  /** Its place among all starts and ends. */
  readonly start: number;
  end: number | null;
  readonly key: string;
  /** item.id of the body. */
  readonly productId: number;
  /** POSTs in flight (started, not answered) when it started. */
  readonly inFlightAtStart: number;
  outcome: Outcome<Order>['kind'] | null;
}

export interface PostWatch {
  readonly client: ServiceClient;
  /** Every POST, in the order they started. */
  readonly posts: WatchedPost[];
  /** The most POSTs in flight at once. */
  maxInFlight(): number;
  /** The POSTs in flight at any moment while `post` was (it excluded). */
  overlapping(post: WatchedPost): WatchedPost[];
  /** The first POST of each product, by product id. */
  firstOf(productId: number): WatchedPost | undefined;
}

/**
 * A client whose createOrder is watched; `around` (optional) may act on one POST (inject a fault,
 * answer it itself) and must call `callThrough` for the simulator to see it.
 */
export function watchPosts(
  inner: ServiceClient,
  around?: (post: WatchedPost, callThrough: () => Promise<Outcome<Order>>) => Promise<Outcome<Order>>,
): PostWatch {
  const posts: WatchedPost[] = [];
  let tick = 0;
  let inFlight = 0;
  let max = 0;
  const client: ServiceClient = {
    ...inner,
    createOrder: async (request, opts) => {
      if (typeof request !== 'string') throw new Error('the queue must send the frozen bytes, not a request object');
      const body = JSON.parse(request) as { external_reference_id: string; item: { id: number } };
      const post: WatchedPost = { start: tick++, end: null, key: body.external_reference_id, productId: body.item.id, inFlightAtStart: inFlight, outcome: null };
      posts.push(post);
      inFlight++;
      max = Math.max(max, inFlight);
      try {
        const callThrough = () => inner.createOrder(request, opts);
        const outcome = await (around ? around(post, callThrough) : callThrough());
        post.outcome = outcome.kind;
        return outcome;
      } finally {
        inFlight--;
        post.end = tick++;
      }
    },
  };
  const endOf = (p: WatchedPost) => p.end ?? Number.POSITIVE_INFINITY;
  return {
    client,
    posts,
    maxInFlight: () => max,
    overlapping: (post) => posts.filter((p) => p !== post && p.start < endOf(post) && post.start < endOf(p)),
    firstOf: (productId) => posts.find((p) => p.productId === productId),
  };
}
