// Gap #35: a service that checks the balance before the key (the simulator's keyCheck
// 'after-checks') refuses a retry of an order it already made with a 402. The first POST's answer
// is lost (a connection reset after the order was committed), the balance then runs low, and the
// retry is refused: the row must end ordered with its charge, one order, and the run go on.
// Real parts: the send queue on a real SQLite file, the simulator over HTTP; time is virtual.

import { describe, expect, it } from 'vitest';
import { createSendQueue } from '../../../../electron/core/campaigns/send-queue.ts';
import { getRecipient } from '../../../../electron/core/db/repos/recipients.ts';
import { fakeClock, makeCampaign, startSimulator, tempDb, TEST_KEY } from '../../../support/index.ts';

describe('a retry refused because the balance is checked before the key', () => {
  it('leaves the row ordered with its one order and charge, and the run goes on', async () => {
    const clock = fakeClock(Date.now());
    const service = await startSimulator(
      {
        now: clock.now,
        accounts: { [TEST_KEY]: { currency: 'USD', balance: '100.00' } },
        dialect: { keyCheck: 'after-checks' },
        faults: { resetAfterCommit: 1 },
      },
      { clock },
    );
    const { db } = tempDb();
    const { campaign, rowIds } = makeCampaign(db, { rows: 3, key: service.key, baseUrl: service.url });
    let lost = 0;
    const queue = createSendQueue({
      db,
      client: service.client,
      clock,
      concurrency: 1,
      backoff: { baseMs: 1, capMs: 2 },
      // The first answer is lost; before the retry, other spending leaves 20.00 (less than a $25 gift).
      log: (entry) => {
        if (entry.level === 'warn' && entry.rowId === rowIds[0] && lost++ === 0) {
          service.sim.setFaults({ resetAfterCommit: 0 });
          service.sim.setAccount(service.key, { balance: '20.00' });
        }
      },
    });

    const result = await queue.run(campaign.id);
    const account = service.account();
    expect(lost).toBe(1);
    // The retry really was refused: the service answered it 402.
    expect(account.requests['POST /v1/orders']?.['402']).toBeGreaterThanOrEqual(1);
    expect(account.orders).toHaveLength(1);
    expect(account.duplicates).toEqual([]);
    const first = account.orders[0];
    expect(getRecipient(db, rowIds[0]!)).toMatchObject({
      state: 'ordered',
      orderId: first?.id,
      charged: { minor: first?.charged.minor, currency: 'USD' },
    });
    // The run went on to the other rows, which the low balance refuses for themselves.
    expect(result.stoppedBy).toBe('done');
    for (const id of rowIds.slice(1)) {
      expect(getRecipient(db, id)).toMatchObject({ state: 'failed', lastError: expect.stringContaining('balance') });
    }
    expect(account.balance.amount).toBe('20.00');
  });
});
