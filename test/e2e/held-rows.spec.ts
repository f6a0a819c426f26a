// A row left mid-send long ago whose lookup by reference proves nothing is HELD for a person, and the
// person records the order found at the service by its number; nothing is sent twice. The campaign
// is sent from the command line to a simulator whose order list lags (--list-lag: new orders stay
// out of GET /v1/orders for an hour), then line 3 is put back by plain SQL as a crash would leave it
// two days ago: state 'sending', no order, first sent then; the other rows recorded as ordered now,
// so none of them can witness that the list reaches back to line 3's first send (reconcile.ts
// ListReach). The embedded simulator cannot stand in: its list shows every order, so line 3's
// lookup finds its order and records it.
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { productIdFor } from '../../electron/simulator/index.ts';
import type { AuditOrder, AuditReport } from '../../electron/simulator/audit.ts';
import { AppShell } from './pages/app-shell.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { runCli } from './support/cli.ts';
import { startSimulator, startWebShell, tempDir, type Child } from './support/processes.ts';

const KEY = 'e2e-held-rows-key-1515';
const DAY = 86_400_000;

test('a row left mid-send long ago is held, another row\'s order is refused, its own is recorded, and nothing is ordered twice', async ({ page }) => {
  const service = await startSimulator(['--list-lag', '3600000', '--log', 'problems']);
  const data = tempDir('held');
  let shell: Child | null = null;
  try {
    const audit = async (): Promise<AuditOrder[]> =>
      ((await (await fetch(`${service.url}/__audit`)).json()) as AuditReport).accounts[KEY]?.orders ?? [];

    // Sent from the command line: 3 rows, all ordered. A row's line is its line in the file (the header is line 1).
    const csv = join(data.path, 'guests.csv');
    writeFileSync(csv, 'Name,Email\r\nAda Guest,ada@example.net\r\nBen Guest,ben@example.net\r\nCy Guest,cy@example.net\r\n');
    const dataDir = join(data.path, 'data');
    const sent = await runCli(
      ['send', csv, '--base-url', service.url, '--data-dir', dataDir, '--product', String(productIdFor(KEY, 'us-fixed-25')), '--sender', 'Events team', '--yes', '--json'],
      { GIFTBATCH_API_KEY: KEY },
    );
    expect(sent.code, sent.stderr).toBe(0);
    const campaignId = (JSON.parse(sent.stdout) as { campaign_id: string }).campaign_id;

    // Line 3 as a crash two days ago would leave it; the others recorded as ordered now.
    const db = new Database(join(dataDir, 'giftbatch.sqlite'));
    const rowOf = (line: number) =>
      db.prepare('SELECT order_id AS orderId, external_reference_id AS ref FROM recipients WHERE campaign_id = ? AND line = ?').get(campaignId, line) as { orderId: number; ref: string };
    const [line2, line3] = [rowOf(2), rowOf(3)];
    const now = Date.now();
    db.prepare(
      `UPDATE recipients SET state = 'sending', held_at = NULL, order_id = NULL, order_status = NULL, item_id = NULL, item_status = NULL,
         charged_minor = NULL, charged_currency = NULL, charged_text = NULL, exchange_rate = NULL, rate_from = NULL, rate_to = NULL, fee_rate = NULL,
         acceptance_expiry = NULL, issued_amount = NULL, issued_currency = NULL, discrepancies = NULL, ordered_at = NULL, delivered_at = NULL, sent_at = ?
       WHERE campaign_id = ? AND line = 3`,
    ).run(now - 2 * DAY, campaignId);
    db.prepare('UPDATE recipients SET ordered_at = ? WHERE campaign_id = ? AND line <> 3').run(now, campaignId);
    db.prepare(`UPDATE campaigns SET send_state = 'paused', paused_reason = 'interrupted' WHERE id = ?`).run(campaignId);
    db.close();
    // The service's own record: line 3's order is there, under its reference.
    const own = (await audit()).find((o) => o.externalReferenceId === line3.ref);
    expect(own).toBeDefined();

    shell = await startWebShell(dataDir, { GIFTBATCH_API_KEY: KEY });
    const app = new AppShell(page);
    await app.open(shell.url);
    await expect(app.campaigns.campaign('guests')).toHaveAttribute('data-paused-reason', 'interrupted');
    await app.campaigns.resume('guests');

    // The run looks line 3 up, finds nothing it can trust, holds it and ends paused.
    await expect(app.campaign.root).toBeVisible();
    await expect(app.campaign.root).toHaveAttribute('data-send-state', 'paused');
    const panel = page.getByTestId('held-rows');
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('heading', { name: 'Rows to look up at the service' })).toBeVisible();
    const held = panel.getByTestId('held-row');
    await expect(held).toHaveCount(1);
    await expect(held).toHaveAttribute('data-line', '3');
    await expect(held).toContainText('Line 3: Ben Guest');
    await expect(held).toContainText(line3.ref);
    await expect(held.getByTestId('held-order-id')).toHaveAttribute('placeholder', 'Order number');
    await expect(held.getByTestId('held-record')).toHaveText('Record its order');
    await expect(held.getByTestId('held-record')).toBeDisabled();
    // In the table it waits to be looked up: nothing is sending it.
    await expect(app.campaign.rowByEmail('ben@example.net').getByTestId('state-chip')).toHaveText('To look up');
    await app.screenshot('s15f-01-held-row');
    await expectNoAxeViolations(page, 'campaign: a row held for a person');

    // The Resume dialog offers to send it again, unticked; closed without resuming.
    await page.getByTestId('campaign-resume').click();
    const dialog = page.getByTestId('resume-dialog');
    await expect(dialog.getByTestId('resume-resend-unconfirmed')).toContainText('Send them again');
    await expect(dialog.getByTestId('resume-resend-unconfirmed').getByRole('checkbox')).not.toBeChecked();
    await dialog.getByRole('button', { name: 'Not now' }).click();
    await expect(dialog).toBeHidden();

    // Another row's order: refused, saying whose it is; nothing recorded.
    await held.getByTestId('held-order-id').fill(String(line2.orderId));
    await held.getByTestId('held-record').click();
    const message = page.getByTestId('campaign-message');
    await expect(message).toContainText(`Order ${line2.orderId} carries the reference ${line2.ref} (it is line 2's, Ada Guest), not line 3's ${line3.ref}: it is not this row's order. Nothing was recorded.`);
    await expect(held).toHaveCount(1);
    await expect(app.campaign.root).toHaveAttribute('data-send-state', 'paused');
    await app.screenshot('s15f-02-other-rows-order-refused');

    // Its own order, as the service's records show it: recorded, and the campaign is done.
    await held.getByTestId('held-order-id').fill(String(own?.id));
    await held.getByTestId('held-record').click();
    await expect(message).toContainText(`Line 3: order ${own?.id} recorded as its order, charged USD 25.00.`);
    await expect(panel).toBeHidden();
    await expect(app.campaign.root).toHaveAttribute('data-send-state', 'done');
    await expect(app.campaign.count('to-send')).toHaveText('0');
    await expect.poll(async () => Number(await app.campaign.count('ordered').textContent()) + Number(await app.campaign.count('delivered').textContent())).toBe(3);
    await expect(app.campaign.rowByEmail('ben@example.net').getByTestId('state-chip')).toHaveText(/^(Ordered|Delivered)$/);
    // Its gift is delivered at the service: the next check says so.
    await app.campaign.checkNow();
    await expect(app.campaign.count('delivered')).toHaveText('3');
    await app.screenshot('s15f-03-recorded-done');

    // The service's own record: one order per row, none for line 3 a second time.
    const orders = await audit();
    expect(orders).toHaveLength(3);
    expect(new Set(orders.map((o) => o.externalReferenceId)).size).toBe(3);
  } finally {
    await shell?.stop();
    await service.stop();
    data.remove();
  }
});
