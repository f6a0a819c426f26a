// A service that follows the spec to the letter and no further (`--dialect spec-minimal`): no
// currency field on products, bare lists, plain-text errors, another availability body, no
// Retry-After, a lagging order list. The catalog is never shown empty without a reason: each
// product is listed with what its record leaves out, the organiser states the currency (or finds
// it learned from earlier orders), and a campaign in it is sent, delivered and charged.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppShell } from './pages/app-shell.ts';
import { runCli } from './support/cli.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { startSimulator, tempDir, type Child } from './support/processes.ts';

const KEY = 'e2e-spec-minimal-key-0042';
const RANGE = 'Harborline Market eGift';
const AMOUNTS = ['10.00', '25.50', '7.25'];

let service: Child;

test.use({ shellEnv: { GIFTBATCH_API_KEY: KEY } });

test.beforeAll(async () => {
  service = await startSimulator(['--dialect', 'spec-minimal']);
});

test.afterAll(async () => {
  await service.stop();
});

function guestsCsv(amounts: readonly string[]): string {
  return `${['Name,Email,Amount', ...amounts.map((a, i) => `Guest ${i + 1},guest${i + 1}@example.net,${a}`)].join('\r\n')}\r\n`;
}

async function useSandbox(app: AppShell): Promise<void> {
  await app.nav('environments');
  await app.environments.setAddress('sandbox', service.url);
  await expect(app.environments.keyStatus('sandbox')).toContainText('0042');
  await app.environments.use('sandbox');
}

/** From the chosen product on: recipients, draft, confirmation, send, delivery, charge. */
async function sendAndDeliver(app: AppShell, name: string, screenshots: { confirm?: string; delivered: string }, opts: { repeats?: number } = {}): Promise<void> {
  const { page } = app;
  await app.wizard.fillSetup({ name, sender: 'Events team' });
  await app.wizard.next();
  await app.wizard.uploadFile({ name: 'harborline-guests.csv', mimeType: 'text/csv', buffer: Buffer.from(guestsCsv(AMOUNTS), 'utf8') });
  await app.wizard.expectPreviewReady();
  if (opts.repeats) {
    // Earlier recipients are skipped at import unless chosen here (not counted as ready until then); the confirmation still asks again.
    await expect(page.getByTestId('preview-valid')).toHaveText(String(3 - opts.repeats));
    await expect(page.getByTestId('preview-left-out')).toHaveText(`${opts.repeats} repeated row${opts.repeats === 1 ? '' : 's'} will be left out`);
    await expect(page.getByTestId('repeats-earlier-hint')).toContainText(`${opts.repeats} row`);
    await page.getByTestId('repeats-earlier').check();
  }
  await expect(page.getByTestId('preview-valid')).toHaveText('3');
  await expect(page.getByTestId('preview-left-out')).toHaveCount(0);
  await expect(page.getByTestId('preview-cost')).toHaveText('USD 42.75');
  await app.wizard.createDraft();
  await expect(app.wizard.costCount).toHaveText('3');
  await expect(app.wizard.costTotal).toHaveText('USD 42.75');
  await expect(page.getByTestId('cost-currency-note')).toContainText('The first order goes alone and confirms it');

  await app.wizard.openConfirm();
  await expect(page.getByTestId('confirm-total')).toHaveText('USD 42.75');
  await expect(page.getByTestId('confirm-currency-note')).toContainText('USD');
  if (opts.repeats) {
    // A recipient who already has a gift from this environment: a second one needs its own yes.
    await expect(page.getByTestId('confirm-repeats')).toContainText(`${opts.repeats} recipient`);
    await page.getByTestId('confirm-allow-repeats').check();
  } else {
    await expect(page.getByTestId('confirm-repeats')).toHaveCount(0);
  }
  if (screenshots.confirm) await app.screenshot(screenshots.confirm);
  await expectNoAxeViolations(page, `confirm-send dialog (${name})`);
  await app.wizard.confirmSend();

  // Every row ordered, then delivered, the service's list lag notwithstanding; the charge as stated.
  await expect(app.campaign.root).toBeVisible();
  await expect(app.campaign.rows()).toHaveCount(3);
  await expect(app.campaign.count('to-send')).toHaveText('0', { timeout: 30_000 });
  await expect(app.campaign.count('failed')).toHaveText('0');
  await app.campaign.checkUntilDelivered(3);
  await expect(app.campaign.rows('delivered')).toHaveCount(3);
  await expect(app.campaign.rowFlags).toHaveCount(0);
  await expect(page.getByTestId('charged-total')).toHaveText('USD 42.75');
  await expect(app.campaign.rowByEmail('guest2@example.net')).toContainText('USD 25.50');
  await app.screenshot(screenshots.delivered);
  await expectNoAxeViolations(page, `campaign: delivered (${name})`);
}

test('a catalog without product currencies: the organiser states USD, and the campaign is sent, delivered and charged', async ({ app, shell, page }) => {
  await app.open(shell.url);
  await useSandbox(app);

  // The US catalog: every record lacks its currency, so nothing is orderable yet, and the picker says why.
  await app.nav('new');
  await app.wizard.expectStep('setup');
  await expect(page.getByTestId('product-picker')).toHaveAttribute('data-status', 'ready');
  await expect(page.getByTestId('catalog-empty')).toHaveCount(0);
  await expect(page.getByTestId('catalog-nothing-orderable')).toContainText('No product for US can be ordered');
  const range = app.wizard.unreadableProduct(RANGE);
  await expect(range).toBeVisible();
  await expect(range).toContainText("The service does not state this product's currency. Which currency are its amounts in?");
  await expect(range.getByTestId('currency-select').locator('option')).toHaveText(['Choose…', 'USD', 'EUR', 'GBP', 'KRW', 'JPY', 'Another currency…']);
  await expect(app.wizard.product(RANGE)).toHaveCount(0);
  await app.screenshot('20-catalog-currency-not-stated');
  await expectNoAxeViolations(page, 'wizard: gift step, currency not stated');

  // The organiser says USD: the product becomes pickable and chosen, with a note that can change it.
  await app.wizard.chooseCurrency(RANGE, 'USD');
  await expect(app.wizard.product(RANGE)).toHaveAttribute('data-currency-source', 'stated');
  await expect(app.wizard.product(RANGE)).toContainText('USD 5.00 – 500.00');
  await expect(app.wizard.currencyNote(RANGE)).toContainText('Currency not stated by the service: USD, as you chose');
  await expect(app.wizard.currencyNote(RANGE)).toContainText('The first order confirms it');
  await expect(app.wizard.unreadableProduct(RANGE)).toHaveCount(0);
  await app.screenshot('21-catalog-currency-stated');
  await expectNoAxeViolations(page, 'wizard: gift step, currency stated');

  await sendAndDeliver(app, 'Harborline thanks', { confirm: '22-confirm-currency-stated', delivered: '23-campaign-delivered-spec-minimal' });
});

test('a currency learned from earlier orders is said so and can be changed, and a campaign in it is sent, delivered and charged', async ({ app, shell, page, dataDir }) => {
  await app.open(shell.url);
  await useSandbox(app);
  await app.nav('new');
  const range = app.wizard.unreadableProduct(RANGE);
  await expect(range).toBeVisible();
  const productId = await range.getAttribute('data-product-id');
  expect(productId).toMatch(/^\d+$/);

  // Earlier orders of the product, sent from the command line on the same data folder and service.
  const dir = tempDir('cli');
  try {
    const csv = join(dir.path, 'earlier.csv');
    writeFileSync(csv, guestsCsv(['20.00']));
    const cli = await runCli(
      ['send', csv, '--env', 'sandbox', '--base-url', service.url, '--data-dir', dataDir, '--product', productId ?? '', '--country', 'US', '--currency', 'USD', '--sender', 'Events team', '--yes'],
      { GIFTBATCH_API_KEY: KEY },
    );
    expect(cli.code, `${cli.stdout}\n${cli.stderr}`).toBe(0);
  } finally {
    dir.remove();
  }

  // A fresh wizard reads the catalog again: the currency is learned, said so, and can be changed.
  await app.open(shell.url);
  await app.nav('new');
  await expect(page.getByTestId('product-picker')).toHaveAttribute('data-status', 'ready');
  await expect(app.wizard.product(RANGE)).toHaveAttribute('data-currency-source', 'learned');
  await expect(app.wizard.currencyNote(RANGE)).toContainText('Currency not stated by the service: USD, as earlier orders were issued in');
  await expect(app.wizard.unreadableProduct(RANGE)).toHaveCount(0);
  await app.wizard.chooseProduct(RANGE);
  await app.screenshot('24-catalog-currency-learned');
  await expectNoAxeViolations(page, 'wizard: gift step, currency learned');
  await app.wizard.currencyNote(RANGE).getByTestId('currency-change').click();
  await expect(app.wizard.currencyNote(RANGE).getByTestId('currency-select')).toHaveValue('USD');
  await app.screenshot('25-catalog-currency-change');
  await expectNoAxeViolations(page, 'wizard: gift step, changing the currency');
  await app.wizard.currencyNote(RANGE).getByRole('button', { name: 'Cancel' }).click();
  await expect(app.wizard.product(RANGE).getByRole('radio')).toBeChecked();

  // Guest 1 had the earlier gift from the command line: the confirmation asks about a second one.
  await sendAndDeliver(app, 'Harborline again', { confirm: '29-confirm-currency-learned', delivered: '28-campaign-delivered-learned' }, { repeats: 1 });

  // Changing a learned currency reads the catalog in the new one and keeps the product chosen.
  await app.nav('new');
  await app.wizard.chooseProduct(RANGE);
  await app.wizard.currencyNote(RANGE).getByTestId('currency-change').click();
  await app.wizard.currencyNote(RANGE).getByTestId('currency-select').selectOption('EUR');
  await app.wizard.currencyNote(RANGE).getByTestId('currency-use').click();
  await expect(app.wizard.product(RANGE)).toHaveAttribute('data-currency-source', 'stated');
  await expect(app.wizard.product(RANGE)).toContainText('EUR 5.00 – 500.00');
  await expect(app.wizard.product(RANGE).getByRole('radio')).toBeChecked();
  await expect(app.wizard.currencyNote(RANGE)).toContainText('EUR, as you chose');
});
