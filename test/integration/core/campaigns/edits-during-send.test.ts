// Issue 11, item 1: an edit made while a row waits for its turn is what gets sent. The queue reads
// ready rows ahead in batches, then waits for rate-limit tokens; the body must be built from the
// row as it stands when its intent commits, not from the copy read before the edit.

import { describe, expect, it } from 'vitest';
import { createSendQueue } from '../../../../electron/core/campaigns/send-queue.ts';
import { editRow } from '../../../../electron/core/db/repos/recipient-edits.ts';
import { getRecipient } from '../../../../electron/core/db/repos/recipients.ts';
import { allRows, makeCampaign, startSimulator, tempDb } from '../../../support/index.ts';

describe('an edit while the campaign is sending', () => {
  it('a row edited while it waits for its token is sent with its new values, and shows what was sent', async () => {
    // Two requests a second: the later rows wait for their tokens, already read by the queue.
    const service = await startSimulator({}, { rate: 2, burst: 1 });
    const { db } = tempDb();
    const { campaign } = makeCampaign(db, { rows: 4, key: service.key, baseUrl: service.url });
    const queue = createSendQueue({ db, client: service.client, limiter: service.limiter, concurrency: 4 });
    const running = queue.run(campaign.id);

    await new Promise((resolve) => setTimeout(resolve, 150));
    const last = allRows(db, campaign.id)[3]!;
    expect(last.state).toBe('ready');
    const edited = editRow(db, last.id, { name: 'Fixed Name', email: 'fixed@example.com', amountMinor: last.amountMinor, currency: last.currency, errors: [] }, Date.now());
    expect(edited).toBe(true);

    const result = await running;
    expect(result.stoppedBy).toBe('done');
    // The service's own record of the order: sent to the corrected address.
    const row = getRecipient(db, last.id);
    const order = await service.client.getOrder(row?.orderId ?? 0);
    if (order.kind !== 'ok') throw new Error(order.message);
    expect(order.value.recipientEmail).toBe('fixed@example.com');
    expect(order.value.raw).toMatchObject({ delivery: { recipient: { name: 'Fixed Name' } } });
    expect(row?.email).toBe('fixed@example.com');
    expect(JSON.parse(row?.requestBody ?? '{}')).toMatchObject({ delivery: { recipient: { email: 'fixed@example.com', name: 'Fixed Name' } } });
  });
});
