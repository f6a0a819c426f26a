// Issue 11, item 4: a definite 4xx after an attempt of the same row that got no clear answer is
// confirmed by a lookup by key, repeated after a delay (a new order may be missing from list
// answers for a while), before the row is failed; a list whose rows echo no key proves nothing.

import { describe, expect, it } from 'vitest';
import { createSendQueue } from '../../../../electron/core/campaigns/send-queue.ts';
import { getRecipient } from '../../../../electron/core/db/repos/recipients.ts';
import type { Outcome, ServiceClient } from '../../../../electron/core/service/index.ts';
import type { Order } from '../../../../electron/core/service/types.ts';
import { fakeClock, makeCampaign, startSimulator, tempDb } from '../../../support/index.ts';

/** The first POST reaches the service but its answer is lost; the retry is refused with a 4xx. */
function lostThenRefused(inner: ServiceClient): ServiceClient {
  let calls = 0;
  return {
    ...inner,
    createOrder: async (request, opts): Promise<Outcome<Order>> => {
      calls++;
      if (calls === 1) {
        await inner.createOrder(request, opts);
        return { kind: 'ambiguous', reason: 'connection', status: undefined, endpoint: 'POST /v1/orders', message: 'connection reset' };
      }
      return { kind: 'rejected', status: 402, code: 'INSUFFICIENT_BALANCE', message: 'the balance is too low', body: '{}', endpoint: 'POST /v1/orders' };
    },
  };
}

describe('a rejection after an unclear attempt', () => {
  it('is checked by a second lookup after a delay: an order the list showed late is recorded, not failed', async () => {
    const clock = fakeClock(Date.now());
    // New orders are missing from list answers for 5 s of the simulator's (shared, virtual) time.
    const service = await startSimulator({ now: clock.now, dialect: { listLagMs: 5_000 } }, { clock });
    const { db } = tempDb();
    const { campaign, rowIds } = makeCampaign(db, { rows: 1, key: service.key, baseUrl: service.url });
    const queue = createSendQueue({ db, client: lostThenRefused(service.client), clock, concurrency: 1, backoff: { baseMs: 1, capMs: 2 } });

    const result = await queue.run(campaign.id);
    expect(result.stoppedBy).toBe('done');
    expect(getRecipient(db, rowIds[0]!)).toMatchObject({ state: 'ordered', orderId: service.account().orders[0]?.id });
    expect(service.account().orders).toHaveLength(1);
    expect(clock.sleeps).toContain(10_000);
  });

  it('fails the row when the second lookup finds nothing either', async () => {
    const clock = fakeClock(Date.now());
    const service = await startSimulator({ now: clock.now }, { clock });
    const { db } = tempDb();
    const { campaign, rowIds } = makeCampaign(db, { rows: 1, key: service.key, baseUrl: service.url });
    // Nothing reached the service: the first answer was lost before it, the retry refused.
    let calls = 0;
    const client: ServiceClient = {
      ...service.client,
      createOrder: async (): Promise<Outcome<Order>> =>
        ++calls === 1
          ? { kind: 'ambiguous', reason: 'timeout', status: undefined, endpoint: 'POST /v1/orders', message: 'timeout' }
          : { kind: 'rejected', status: 402, code: 'INSUFFICIENT_BALANCE', message: 'the balance is too low', body: '{}', endpoint: 'POST /v1/orders' },
    };
    const queue = createSendQueue({ db, client, clock, concurrency: 1, backoff: { baseMs: 1, capMs: 2 } });
    await queue.run(campaign.id);
    expect(getRecipient(db, rowIds[0]!)).toMatchObject({ state: 'failed', lastError: expect.stringContaining('the balance is too low') });
    expect(service.account().orders ?? []).toHaveLength(0);
  });
});
