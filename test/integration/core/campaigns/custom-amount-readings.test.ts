// Three readings of a range product's custom_amount the spec leaves open ("its bounds check: not
// shown"; the amount's unit and currency are not said either), each a switch of the simulator set
// unlike our client's guess: minor units (500 is USD 5.00), an out-of-bounds amount clamped to the
// bound instead of refused, and the amount read in the account's currency. Each order succeeds with
// another price than asked, so the client's only defence is the check of the product's first order,
// which goes alone (verify-order.ts, send-queue's first order per product): one wrong gift, the
// campaign paused naming the difference, the other rows never sent, the charge kept as stated.
// Real parts: the send queue on a real SQLite file, the simulator over HTTP.

import { describe, expect, it } from 'vitest';
import { createSendQueue } from '../../../../electron/core/campaigns/send-queue.ts';
import { getCampaign } from '../../../../electron/core/db/repos/campaigns.ts';
import { chargedTotals } from '../../../../electron/core/db/repos/recipients.ts';
import type { Dialect } from '../../../../electron/simulator/index.ts';
import { allRows, makeCampaign, snapshotOfSlug, startSimulator, tempDb } from '../../../support/index.ts';

interface Case {
  readonly dialect: Partial<Dialect>;
  readonly slug: string;
  /** The three rows' amounts, in minor units of the product's currency. */
  readonly amountsMinor: readonly [number, number, number];
  readonly snapshot?: ReturnType<typeof snapshotOfSlug>;
}

async function send(c: Case) {
  const service = await startSimulator({ dialect: c.dialect });
  const { db } = tempDb();
  const { campaign } = makeCampaign(db, {
    rows: 3,
    key: service.key,
    baseUrl: service.url,
    productSlug: c.slug,
    amountMinor: (i) => c.amountsMinor[i] ?? 0,
    ...(c.snapshot ? { product: c.snapshot } : {}),
  });
  const queue = createSendQueue({ db, client: service.client, concurrency: 4, backoff: { baseMs: 5, capMs: 40 } });
  const result = await queue.run(campaign.id);
  return { result, db, campaignId: campaign.id, account: service.account() };
}

type Sent = Awaited<ReturnType<typeof send>>;

/** One order made, for line 2; the campaign paused on it, naming the difference; lines 3 and 4 never sent. */
function expectOneWrongGift(t: Sent, difference: string, asked: string, stated: string): void {
  expect(t.result.stoppedBy).toBe('mismatch');
  expect(t.result.message).toContain(`Line 2, order ${t.account.orders[0]?.id}: ${difference}.`);
  expect(getCampaign(t.db, t.campaignId)).toMatchObject({ sendState: 'paused', pausedReason: 'mismatch', pausedDetail: expect.stringContaining(difference) });
  expect(t.account.orders).toHaveLength(1);
  expect(t.account.requests['POST /v1/orders']).toEqual({ '200': 1 });
  const order = t.account.orders[0];
  const [first, ...others] = allRows(t.db, t.campaignId);
  // The charge as the service stated it, and both values on the flagged row.
  expect(first).toMatchObject({
    line: 2,
    state: 'ordered',
    orderId: order?.id,
    charged: { minor: order?.charged.minor, currency: order?.charged.currency },
    findings: [expect.objectContaining({ kind: 'mismatch', field: 'amount', asked, stated, message: difference })],
  });
  expect(chargedTotals(t.db, t.campaignId)).toEqual([{ currency: order?.charged.currency, amount: order?.charged.amount }]);
  for (const row of others) expect(row, `line ${row.line}`).toMatchObject({ state: 'ready', orderId: null, requestBody: null, attempts: 0 });
}

describe('a service that reads custom_amount otherwise costs one wrong gift, named', () => {
  it('in minor units: USD 500.00 asked is issued as USD 5.00', async () => {
    const t = await send({ dialect: { customAmountUnits: 'minor' }, slug: 'us-range', amountsMinor: [50_000, 45_000, 40_000] });
    expectOneWrongGift(t, 'the service issued USD 5.00 for a USD 500.00 gift', 'USD 500.00', 'USD 5.00');
    expect(t.account.orders[0]).toMatchObject({ requestedAmount: '500.00', price: { amount: '5.00' }, charged: { amount: '5.00', currency: 'USD' } });
  });

  it('clamped to a max lowered since the catalog was read: USD 600.00 asked is issued as USD 500.00', async () => {
    // The campaign read the product when it went up to USD 1,000; the service's max is now USD 500.
    // Every row is within the bounds the client knows, so its own check lets them go.
    const snapshot = { ...snapshotOfSlug('us-range'), maxMinor: 100_000 };
    const t = await send({ dialect: { customAmountBounds: 'clamp' }, slug: 'us-range', amountsMinor: [60_000, 70_000, 80_000], snapshot });
    expectOneWrongGift(t, 'the service issued USD 500.00 for a USD 600.00 gift', 'USD 600.00', 'USD 500.00');
    expect(t.account.orders[0]).toMatchObject({ requestedAmount: '600.00', price: { amount: '500.00' }, charged: { amount: '500.00', currency: 'USD' } });
  });

  it('in the account currency: EUR 50.00 asked on a USD account is read as USD 50.00 and issued as EUR 46.25', async () => {
    const t = await send({ dialect: { customAmountCurrency: 'account' }, slug: 'de-range-eur', amountsMinor: [5_000, 6_000, 7_000] });
    expectOneWrongGift(t, 'the service issued EUR 46.25 for a EUR 50.00 gift', 'EUR 50.00', 'EUR 46.25');
    // EUR 46.25 × 1.08 × 1.02 = USD 50.949, charged USD 50.95.
    expect(t.account.orders[0]).toMatchObject({ requestedAmount: '50.00', price: { amount: '46.25', currency: 'EUR' }, charged: { amount: '50.95', currency: 'USD' } });
  });
});
