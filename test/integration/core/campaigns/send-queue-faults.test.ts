// A campaign sent through every fault the simulator can inject at once. Whatever happens on the
// wire, the end is the same: exactly one order per row, and the local record agrees with the
// simulator's row by row and in charged totals.

import { expect, it } from 'vitest';
import { createSendQueue } from '../../../../electron/core/campaigns/send-queue.ts';
import { getCampaign } from '../../../../electron/core/db/repos/campaigns.ts';
import { expectOneOrderPerRow, makeCampaign, startSimulator, tempDb } from '../../../support/index.ts';

it('200 rows through resets after commit, 500s, 503s, slow answers past the timeout, truncated bodies and 429s end with exactly one order per row', async () => {
  const service = await startSimulator({
    latencyMs: 2,
    // A tight service-side limit makes 429s; the client starts faster than it.
    rateLimit: 150,
    rateBurst: 10,
    retryAfter503Seconds: 0.05,
    faults: {
      seed: 20260115,
      resetAfterCommit: 0.06,
      error500BeforeCommit: 0.06,
      error503: 0.02,
      slow: 0.04,
      slowMs: 700,
      truncate: 0.06,
    },
  });
  // KRW product charged in USD: rounding of converted amounts is part of what must agree.
  const { db } = tempDb();
  const { campaign } = makeCampaign(db, { rows: 200, productSlug: 'kr-range-krw', key: service.key, amountMinor: (i) => 5_000 + i * 1_000 });
  const { client, limiter } = service.makeClient({ rate: 300, burst: 10, minRate: 100, timeoutMs: 350 });
  const queue = createSendQueue({ db, client, limiter, breakerThreshold: 1_000, backoff: { baseMs: 5, capMs: 80 } });

  const result = await queue.run(campaign.id);

  expect(result.stoppedBy).toBe('done');
  expect(getCampaign(db, campaign.id)?.sendState).toBe('done');
  expect(result.counts).toMatchObject({ ordered: 200, sending: 0, failed: 0, ready: 0 });
  const account = service.account();
  // Every kind of fault really happened, or the test proves less than it says.
  expect(account.faults.resetAfterCommit).toBeGreaterThan(0);
  expect(account.faults.error500BeforeCommit).toBeGreaterThan(0);
  expect(account.faults.error503).toBeGreaterThan(0);
  expect(account.faults.slow).toBeGreaterThan(0);
  expect(account.faults.truncate).toBeGreaterThan(0);
  expect(account.requests['POST /v1/orders']?.['429'] ?? 0).toBeGreaterThan(0);
  expect(result.stats.ambiguous).toBeGreaterThan(0);
  expect(result.stats.rateLimited).toBeGreaterThan(0);
  expectOneOrderPerRow(db, campaign.id, account);
});
