// The dialect switch expiredLink: what a recipient can do once the acceptance link's expiry_date has
// passed ("What happens to the item when the recipient link expires: not shown", spec section 3).
import { afterEach, describe, expect, it } from 'vitest';
import { item, json, manualClock, orderBody, startSimulator, type Harness } from '../../support/simulator-http.ts';

let h: Harness;
afterEach(async () => { await h.sim.stop(); });

async function voucherPastItsExpiry(dialect: { expiredLink?: 'closed' | 'accept-late' }): Promise<{ id: number; status: () => Promise<unknown> }> {
  const clock = manualClock();
  h = await startSimulator({ now: clock.now, recipientExpiryMs: 60_000, ...(dialect.expiredLink ? { dialect } : {}) });
  const created = await json(await h.post('k', '/v1/orders', orderBody('k', item('k', 'us-recipient-details'))));
  const id = created['id'] as number;
  clock.advance(60_000);
  const status = async () => ((await json(await h.get('k', `/v1/orders/${id}`)))['order_item'] as { status: string }).status;
  expect(await status()).toBe('PENDING');
  return { id, status };
}

describe('dialect: expiredLink', () => {
  it("default closed: a link past its expiry can no longer be accepted; the item stays PENDING", async () => {
    const order = await voucherPastItsExpiry({});
    expect(h.sim.dialect.expiredLink).toBe('closed');
    expect(() => h.sim.acceptRecipient('k', order.id)).toThrow(/acceptance link of order \d+ expired/);
    expect(await order.status()).toBe('PENDING');
  });

  it('accept-late: the recipient can still accept after the expiry, and the item is COMPLETED', async () => {
    const order = await voucherPastItsExpiry({ expiredLink: 'accept-late' });
    h.sim.acceptRecipient('k', order.id);
    expect(await order.status()).toBe('COMPLETED');
  });

  it('refuses a value it does not know', async () => {
    const { createSimulator } = await import('../../../electron/simulator/index.ts');
    expect(() => createSimulator({ dialect: { expiredLink: 'renewed' as 'closed' } })).toThrow(/expiredLink must be one of closed, accept-late/);
    h = await startSimulator();
  });
});
