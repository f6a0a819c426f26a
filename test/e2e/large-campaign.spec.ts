// Thousands of rows: the validation table and the campaign table keep only the rows in view in the
// DOM, fetch what scrolls in, and find a row by search.
import { expectNoAxeViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { recipientsCsv } from './support/csv.ts';

const ROWS = 10_000;

test('10,000 recipients: only the rows in view are drawn, scrolling and search reach any row', async ({ app, shell, page }) => {
  await app.open(shell.url);
  await app.nav('new');
  await app.wizard.chooseProduct('Northwind Books');
  await app.wizard.fillSetup({ name: 'Ten thousand', sender: 'Big event' });
  await app.wizard.next();
  await app.wizard.uploadFile(recipientsCsv(ROWS));
  await app.wizard.expectPreviewReady();
  await expect(page.getByTestId('preview-valid')).toHaveText('10,000');
  await app.wizard.createDraft();

  // The validation table: a window of rows, not ten thousand.
  const table = page.getByTestId('draft-table');
  await expect(page.getByTestId('filter-all')).toContainText(String(ROWS));
  expect(await page.getByTestId('draft-row').count()).toBeLessThan(60);
  await table.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(app.wizard.row(ROWS + 1)).toBeVisible();
  expect(await page.getByTestId('draft-row').count()).toBeLessThan(60);
  await expect(app.wizard.costTotal).toHaveText('USD 250,000.00');
  await expectNoAxeViolations(page, 'wizard: review step, 10,000 rows scrolled');

  // The campaign screen of the same draft, its rows fetched page by page.
  await app.nav('campaigns');
  const row = app.campaigns.campaign('Ten thousand');
  const campaignId = await row.getAttribute('data-campaign-id');
  // A draft opens in the wizard from the list; its campaign screen is reached by address.
  await page.goto(`${page.url().split('#')[0]}#/campaigns/${campaignId ?? ''}`);
  await expect(app.campaign.root).toBeVisible();
  await expect(page.getByTestId('rows-total')).toHaveText('10,000 rows');
  const rows = page.getByTestId('rows-table');
  await expect(app.campaign.rows('ready').first()).toBeVisible();
  expect(await app.campaign.rows().count()).toBeLessThan(60);
  await rows.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(page.locator(`[data-testid="row"][data-line="${ROWS + 1}"]`)).toBeVisible();
  expect(await app.campaign.rows().count()).toBeLessThan(60);
  await rows.evaluate((el) => el.scrollTo(0, el.scrollHeight / 2));
  await expect(page.locator('[data-testid="row"][data-line="5001"]')).toBeVisible();

  await page.getByTestId('rows-search').fill('guest9999@');
  await expect(page.getByTestId('rows-total')).toHaveText('1 row');
  await expect(app.campaign.rowByEmail('guest9999@example.net')).toBeVisible();
  await app.screenshot('11-campaign-draft-10000-rows');
  await expectNoAxeViolations(page, 'campaign: draft of 10,000 rows, searched');

  // A search that finds nobody says so, under the Recipients heading.
  await page.getByTestId('rows-search').fill('nobody-by-this-name');
  await expect(page.getByTestId('rows-total')).toHaveText('0 rows');
  await expect(page.getByRole('heading', { level: 3, name: 'No row matches' })).toBeVisible();
  await expectNoAxeViolations(page, 'campaign: a search that matches no row');
});
