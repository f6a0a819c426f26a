// A service that refuses every order the same way (the balance ran out): after three identical
// refusals the campaign pauses with the service's words instead of failing every row; once the
// balance is topped up, the failed rows go back in one step and Resume sends them, once each.
import { setSimulatorBalance } from '../support/cli.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { startSimulator, type Child } from './support/processes.ts';

const KEY = 'e2e-refused-key-0131';
const PRODUCT = 'Brightleaf Coffee eGift $10';
const ROWS = 8;

let service: Child;

test.use({ shellEnv: { GIFTBATCH_API_KEY: KEY } });

test.beforeAll(async () => {
  service = await startSimulator(['--item-delay', '60000']);
});

test.afterAll(async () => {
  await service.stop();
});

const setBalance = (balance: string): Promise<void> => setSimulatorBalance(service.url, KEY, balance);

test('the same refusal three times pauses the campaign; the failed rows are retried in one step and sent once', async ({ app, shell, page }) => {
  await setBalance('30.00');
  await app.open(shell.url);
  await app.nav('environments');
  await app.environments.setAddress('sandbox', service.url);
  await app.environments.use('sandbox');

  await app.nav('new');
  await app.wizard.chooseProduct(PRODUCT);
  await app.wizard.fillSetup({ name: 'Coffee for the crew', sender: 'Events team' });
  await app.wizard.next();
  const csv = ['Name,Email', ...Array.from({ length: ROWS }, (_, i) => `Crew ${i + 1},crew${i + 1}@example.net`)].join('\r\n');
  await app.wizard.uploadFile({ name: 'crew.csv', mimeType: 'text/csv', buffer: Buffer.from(`${csv}\r\n`, 'utf8') });
  await app.wizard.expectPreviewReady();
  await app.wizard.createDraft();
  await app.wizard.openConfirm();
  await app.wizard.confirmSend();

  const banner = page.getByTestId('banner-refused');
  await expect(banner).toBeVisible({ timeout: 30_000 });
  await expect(banner).toContainText('refused 3 orders in a row with the same answer');
  await expect(banner).toContainText('INSUFFICIENT_BALANCE');
  await expect(app.campaign.count('ordered')).toHaveText('3');
  await expect(app.campaign.count('failed')).toHaveText('3');
  await expect(app.campaign.count('to-send')).toHaveText(String(ROWS - 6));
  await app.screenshot('30-campaign-paused-refused');
  await expectNoAxeViolations(page, 'campaign: paused on refusals');

  await setBalance('500.00');
  await page.getByTestId('campaign-retry-failed').click();
  await expect(page.getByTestId('campaign-message')).toContainText('3 failed rows are back to send, each under its own reference');
  await expect(app.campaign.count('failed')).toHaveText('0');
  await expect(app.campaign.count('to-send')).toHaveText(String(ROWS - 3));
  await app.screenshot('31-campaign-failed-rows-back');
  await expectNoAxeViolations(page, 'campaign: failed rows back to send');

  await page.getByTestId('campaign-resume').click();
  await expect(page.getByTestId('resume-dialog')).toBeVisible();
  await expectNoAxeViolations(page, 'resume dialog, from the campaign');
  await page.getByTestId('resume-confirm').click();
  await expect(app.campaign.count('ordered')).toHaveText(String(ROWS), { timeout: 30_000 });
  await expect(app.campaign.count('failed')).toHaveText('0');
  const audit = (await (await fetch(`${service.url}/__audit`)).json()) as { accounts: Record<string, { orders: { externalReferenceId: string }[] }> };
  const orders = audit.accounts[KEY]?.orders ?? [];
  expect(orders).toHaveLength(ROWS);
  expect(new Set(orders.map((o) => o.externalReferenceId)).size).toBe(ROWS);
});
