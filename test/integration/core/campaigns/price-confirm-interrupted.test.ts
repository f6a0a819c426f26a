// Gap #16 follow-up: an order answered without the item's price is recorded as ordered with no
// charge, and its price is confirmed from the order's record while the run waits (confirm-price.ts).
// A pause during that wait (or a crash, a lost lease) leaves the row ordered without its charge;
// nothing else in the run reads it again. The poller reads the order's record anyway: once that
// record states the price and the charge, the row must have them, or the campaign's charged total
// stays below the service's for good. Real parts: the send queue and the poller on a real SQLite
// file, the simulator over HTTP; time is virtual.

import { describe, expect, it } from 'vitest';
import { pollRound } from '../../../../electron/core/campaigns/poller.ts';
import { createSendQueue } from '../../../../electron/core/campaigns/send-queue.ts';
import { getRecipient } from '../../../../electron/core/db/repos/recipients.ts';
import { fakeClock, makeCampaign, startSimulator, tempDb } from '../../../support/index.ts';

describe('an order answer without the item price whose confirmation a pause cut short', () => {
  it('gets its charge and issued price from the order record at the next poll', async () => {
    const clock = fakeClock(Date.now());
    const service = await startSimulator({ now: clock.now, dialect: { priceLagMs: 5_000 } }, { clock });
    const { db } = tempDb();
    const { campaign, rowIds } = makeCampaign(db, { rows: 2, productSlug: 'us-fixed-cents', key: service.key, baseUrl: service.url });
    const pause = new AbortController();
    const queue = createSendQueue({
      db,
      client: service.client,
      clock,
      concurrency: 2,
      backoff: { baseMs: 1, capMs: 2 },
      // The person presses Pause while the first order's price is being confirmed.
      log: (entry) => {
        if (entry.message.includes('no item price in the answer yet')) pause.abort();
      },
    });

    const result = await queue.run(campaign.id, { signal: pause.signal });
    expect(result.stoppedBy).toBe('user');
    const account = service.account();
    expect(account.orders).toHaveLength(1);
    const order = account.orders[0]!;
    // Cut short: ordered, no charge known yet (the service has charged it).
    expect(getRecipient(db, rowIds[0]!)).toMatchObject({ state: 'ordered', orderId: order.id, charged: null, issued: null });

    clock.advance(10_000);
    const round = await pollRound({ db, client: service.client, clock }, { environment: campaign.environment, baseUrl: service.url });
    expect(round.error).toBeUndefined();
    expect(getRecipient(db, rowIds[0]!)).toMatchObject({
      state: 'ordered',
      findings: [],
      charged: { minor: order.charged.minor, currency: 'USD' },
      issued: { currency: 'USD' },
    });
    // A second round writes nothing more: the row has its charge.
    const before = getRecipient(db, rowIds[0]!)?.updatedAt;
    clock.advance(1_000);
    await pollRound({ db, client: service.client, clock }, { environment: campaign.environment, baseUrl: service.url });
    expect(getRecipient(db, rowIds[0]!)?.updatedAt).toBe(before);
    expect(order.charged.minor).toBe(1_250);
  });
});
