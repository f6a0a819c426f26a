// A service that reads `custom_amount` only inside `item` and silently issues the product minimum
// otherwise (`--dialect item-custom-amount`). The first order goes alone, its answer is checked
// against its row, and the difference pauses the campaign before a second wrong gift: the banner
// names it, the one row is flagged with what it asked and what was issued, the rest wait.
import { expectNoAxeViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { startSimulator, type Child } from './support/processes.ts';

const KEY = 'e2e-item-amount-key-0077';
const RANGE = 'Harborline Market eGift';
const AMOUNTS = ['11.50', '12.50', '13.50', '14.50'];

let service: Child;

test.use({ shellEnv: { GIFTBATCH_API_KEY: KEY } });

test.beforeAll(async () => {
  service = await startSimulator(['--dialect', 'item-custom-amount']);
});

test.afterAll(async () => {
  await service.stop();
});

test('an order issued for another amount pauses the campaign after one gift, and flags that row with both amounts', async ({ app, shell, page }) => {
  await app.open(shell.url);
  await app.nav('environments');
  await app.environments.setAddress('sandbox', service.url);
  await app.environments.use('sandbox');

  await app.nav('new');
  await app.wizard.chooseProduct(RANGE);
  await expect(app.wizard.product(RANGE)).toHaveAttribute('data-currency-source', 'service');
  await expect(app.wizard.currencyNote(RANGE)).toHaveCount(0);
  await app.wizard.fillSetup({ name: 'Amounts as asked', sender: 'Events team' });
  await app.wizard.next();
  const csv = ['Name,Email,Amount', ...AMOUNTS.map((a, i) => `Guest ${i + 1},guest${i + 1}@example.net,${a}`)].join('\r\n');
  await app.wizard.uploadFile({ name: 'amounts.csv', mimeType: 'text/csv', buffer: Buffer.from(`${csv}\r\n`, 'utf8') });
  await app.wizard.expectPreviewReady();
  await expect(page.getByTestId('preview-valid')).toHaveText(String(AMOUNTS.length));
  await app.wizard.createDraft();
  await expect(app.wizard.costTotal).toHaveText('USD 52.00');
  await app.wizard.openConfirm();
  await expect(page.getByTestId('confirm-dialog')).toContainText('The first order goes alone');
  await app.wizard.confirmSend();

  // Paused on the first answer, which names the difference.
  await expect(app.campaign.root).toBeVisible();
  const banner = page.getByTestId('banner-mismatch');
  await expect(banner).toBeVisible({ timeout: 30_000 });
  await expect(banner).toContainText('the service issued USD 5.00 for a USD 11.50 gift');
  await expect(app.campaign.root).toHaveAttribute('data-send-state', 'paused');
  await expect(page.getByTestId('campaign-state')).toContainText('Paused');

  // Exactly one row flagged, with what it asked and what was issued; the others were never sent.
  await expect(app.campaign.rowFlags).toHaveCount(1);
  await expect(app.campaign.rowFlags).toContainText('The service issued USD 5.00 for a USD 11.50 gift');
  const flagged = page.locator('[data-testid="row"][data-flagged="mismatch"]');
  await expect(flagged).toHaveAttribute('data-email', 'guest1@example.net');
  await expect(flagged).toContainText('USD 11.50');
  await expect(flagged.getByTestId('row-issued')).toHaveText('issued USD 5.00');
  await expect(app.campaign.count('flagged')).toHaveText('1');
  await expect(app.campaign.rows('ready')).toHaveCount(AMOUNTS.length - 1);
  await expect(app.campaign.count('to-send')).toHaveText(String(AMOUNTS.length - 1));
  await expect(page.getByTestId('charged-total')).toHaveText('USD 5.00');

  // The run's end is announced as an error that stays until read; read, it is dismissed.
  const notice = page.getByTestId('notice').filter({ hasText: 'the service issued USD 5.00 for a USD 11.50 gift' });
  await expect(notice).toHaveAttribute('role', 'alert');
  await expectNoAxeViolations(page, 'campaign: paused on a mismatch, error notice shown');
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toHaveCount(0);
  await expect(page.getByTestId('timeline').locator('path.chart-ordered')).toHaveCount(1);
  await app.screenshot('26-campaign-paused-mismatch');
  await expectNoAxeViolations(page, 'campaign: paused on a mismatch');

  // The campaigns list says so too.
  await app.nav('campaigns');
  const listed = app.campaigns.campaign('Amounts as asked');
  await expect(listed).toHaveAttribute('data-paused-reason', 'mismatch');
  await expect(listed.getByTestId('campaign-flagged')).toContainText('1 row flagged');
  await app.screenshot('27-campaigns-mismatch');
  await expectNoAxeViolations(page, 'campaigns list, one flagged');
});
