// The window after Send, as an organiser sees it: a campaign of 300 rows (280 coffee gifts, 20
// travel vouchers whose recipients must accept a link) sent to the simulator; deliveries arrive on
// Check now, some orders are cancelled by the service, the travel links expire unaccepted. The
// screen says how many went out, are delivered, wait and on what, failed or were cancelled, what was
// charged and when the next check is; at 1280×800 and at 1024 wide; and the same after a reload.
import { readFile } from 'node:fs/promises';
import { setSimulatorBalance } from '../support/cli.ts';
import { expect, test } from './support/fixtures.ts';
import { startSimulator, type Child } from './support/processes.ts';

const KEY = 'e2e-after-send-key-1212';
const COFFEE = 'Brightleaf Coffee eGift $10';
const TRAVEL = 'Voyager Travel Voucher $100';
const ROWS = 300;
const TRAVEL_ROWS = 20;
const CANCELLED = 6;

let service: Child;

test.use({ shellEnv: { GIFTBATCH_API_KEY: KEY } });

test.beforeAll(async () => {
  service = await startSimulator(['--item-delay', '4000', '--recipient-expiry', '6000']);
});

test.afterAll(async () => {
  await service.stop();
});

type Audit = { accounts: Record<string, { orders: { id: number; productSlug: string; status: string }[] }> };

async function force(orderId: number, orderStatus: string): Promise<void> {
  const res = await fetch(`${service.url}/__control/force-status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key: KEY, orderId, orderStatus }) });
  if (!res.ok) throw new Error(`force-status ${orderId}: ${res.status} ${await res.text()}`);
}

test('after Send: counts, waits, cancellations, expired links, charges, next check, at two widths and after a reload', async ({ app, shell, page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await setSimulatorBalance(service.url, KEY, '10000.00');
  await app.open(shell.url);
  await app.nav('environments');
  await app.environments.setAddress('sandbox', service.url);
  await app.environments.use('sandbox');

  await app.nav('new');
  await app.wizard.chooseProduct(COFFEE);
  await app.wizard.fillSetup({ name: 'Thank-you gifts for the 2026 volunteers', sender: 'Events team' });
  await app.wizard.next();
  const lines = ['Name,Email,Product'];
  for (let i = 1; i <= ROWS; i++) lines.push(`Volunteer ${i},volunteer${i}@example.net,${i <= TRAVEL_ROWS ? TRAVEL : ''}`);
  await app.wizard.uploadFile({ name: 'volunteers.csv', mimeType: 'text/csv', buffer: Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8') });
  await app.wizard.expectPreviewReady();
  await app.wizard.createDraft();
  await app.wizard.openConfirm();
  await app.wizard.confirmSend();

  await expect(app.campaign.root).toBeVisible();
  await expect(app.campaign.count('ordered')).toHaveText(String(ROWS), { timeout: 90_000 });
  // The end of the run is announced by a notice, in a band of its own under the screen: it covers
  // none of the screen (it floated over the rows' Details until it faded; S13-A).
  const notice = page.getByTestId('notice').filter({ hasText: 'Sending is done' });
  await expect(notice).toBeVisible();
  const [noticeBox, screenBox] = [await notice.boundingBox(), await page.locator('main#main').boundingBox()];
  // Under the screen, and in the window (800 high), not at the end of a long page.
  expect(noticeBox && screenBox && noticeBox.y >= screenBox.y + screenBox.height && noticeBox.y + noticeBox.height <= 800).toBe(true);
  if (process.env.E2E_SHOTS_DIR) await page.screenshot({ path: `${process.env.E2E_SHOTS_DIR}/s13a-notice-window-1280.png` });
  await app.screenshot('s12c-01-all-ordered');

  // The service cancels some coffee orders.
  const audit = (await (await fetch(`${service.url}/__audit`)).json()) as Audit;
  const orders = audit.accounts[KEY]?.orders ?? [];
  expect(orders).toHaveLength(ROWS);
  const coffee = orders.filter((o) => o.productSlug === 'us-fixed-10');
  for (const o of coffee.slice(0, CANCELLED)) await force(o.id, 'CANCELLED');

  // Deliveries arrive; the travel links expire.
  await page.waitForTimeout(7000);
  await app.campaign.checkNow();
  await expect(app.campaign.count('delivered')).toHaveText(String(ROWS - TRAVEL_ROWS - CANCELLED), { timeout: 30_000 });
  await expect(page.getByTestId('banner-expired')).toContainText(`${TRAVEL_ROWS} recipients never accepted before the link expired`);
  // The expired links are ordered but wait on no delivery that can come: the words do not say "awaiting delivery".
  const caption = `${ROWS - TRAVEL_ROWS - CANCELLED} of ${ROWS} delivered · ${TRAVEL_ROWS} ordered, link expired unaccepted`;
  await expect(page.getByTestId('progress-caption')).toHaveText(caption);
  await expect(page.getByTestId('campaign-state')).toHaveText('Finished with problems');
  await expect(page.getByTestId('next-poll')).toContainText(`0 awaiting delivery, ${TRAVEL_ROWS} with an expired link. Next check in`);
  await expect(page.getByText(/^Checked with the service: \d+ delivered, \d+ cancelled since the last check, \d+ still waiting/)).toContainText(
    `${TRAVEL_ROWS} still waiting (${TRAVEL_ROWS} with an expired link).`,
  );
  await expect(page.getByTestId('charged-total')).toContainText('USD 4,800.00');
  // When the service was last asked: the check just made (S13-A).
  await expect(page.getByTestId('last-checked')).toHaveText(/^Last checked (just now|\d+ s ago)\.$/);
  // Of the charged total, the 20 vouchers whose links expired unaccepted, apart as the cancelled orders are (S13-A).
  await expect(page.getByTestId('charged-cancelled')).toContainText('Of which USD 60.00 went to orders later cancelled');
  await expect(page.getByTestId('charged-expired')).toContainText(`Of which USD ${(TRAVEL_ROWS * 100).toLocaleString('en-US')}.00 went to gifts whose recipient link expired unaccepted`);
  await app.screenshot('s12c-02-after-check-1280');

  // A 1024-wide window: the rows fit, so each row's Details (its expired link) is in view without a sideways scroll.
  await page.setViewportSize({ width: 1024, height: 800 });
  const table = page.getByTestId('rows-table');
  await expect.poll(() => table.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  const details = app.campaign.rows().first().getByText(/Link expired/);
  await expect(details).toBeVisible();
  const [cell, box] = [await details.boundingBox(), await table.boundingBox()];
  expect(cell && box && cell.x + cell.width <= box.x + box.width).toBe(true);
  // The three cards stay side by side at 1024: the chart does not wrap onto a row of its own (S13-A).
  const tops = await Promise.all(['progress', 'charged', 'timeline'].map(async (id) => (await page.getByTestId(id).boundingBox())?.y));
  expect(new Set(tops).size).toBe(1);
  await app.screenshot('s12c-03-after-check-1024');
  await page.setViewportSize({ width: 1280, height: 800 });

  // A reload keeps the campaign, and its figures.
  await page.reload();
  await expect(app.root).toHaveAttribute('data-state', 'ready');
  await expect(app.campaign.root).toBeVisible();
  await expect(page.getByTestId('progress-caption')).toHaveText(caption);
  await expect(app.campaign.count('ordered')).toHaveText(String(TRAVEL_ROWS));
  // The last check is kept with the campaign, not with the window.
  await expect(page.getByTestId('last-checked')).toHaveText(/^Last checked (just now|\d+ s ago|1 min ago)\.$/);
  await expect(page.getByTestId('charged-expired')).toContainText('USD 2,000.00');
  await app.screenshot('s12c-04-after-reload');

  // The report: a line per recipient.
  const download = await app.campaign.exportReport();
  const report = (await readFile(await download.path(), 'utf8')).replace(/^\uFEFF/, '').split(/\r?\n/).filter((l) => l.trim() !== '');
  expect(report.filter((l) => l.includes('@example.net'))).toHaveLength(ROWS);
  expect(report.filter((l) => /^Volunteer \d+,/.test(l) && l.includes(',cancelled,'))).toHaveLength(CANCELLED);

  // The follow-up: the cancelled and expired rows, as new gifts.
  await page.getByTestId('campaign-follow-up').click();
  const dialog = page.getByTestId('follow-up-dialog');
  await expect(dialog).toBeVisible();
  // A campaign with a gift per row: the follow-up keeps each row's own gift, and says so.
  await expect(dialog).toContainText('the same gifts, sender and environment');
  await expect(dialog).toContainText('Each row keeps its name, e-mail, gift, amount and message');
  await app.screenshot('s12c-05-follow-up-dialog');
});
