// A newcomer on the Simulator: the welcome, the sample list, one row to fix, its repeated address
// left out by default with the reason said, the send, every row delivered, and a delivery report
// that says so.
import { readFile } from 'node:fs/promises';
import { SKIP_POLICY_TEXT } from '../../shared/domain/skips.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { recipientsCsv } from './support/csv.ts';
import { expect, test } from './support/fixtures.ts';

test('first launch: the sample campaign is fixed, sent, delivered and reported', async ({ app, shell, page }) => {
  await app.open(shell.url);

  // 1. First launch: a welcome that says it is simulated, and the Simulator badge.
  await expect(app.welcome.root).toBeVisible();
  await expect(app.welcome.simulatedNote).toContainText('nothing real is ordered');
  await expect(app.simulatorBadge).toHaveText('Simulator — no real gifts');
  // Workbooks are lists too.
  await expect(page.getByTestId('welcome-own')).toHaveText('Start with my own list (CSV, .xlsx, .ods)');
  await expect(app.welcome.root).toContainText('a CSV file or an .xlsx or .ods workbook');
  // The token came in the fragment and was taken out of the address bar at once.
  expect(new URL(page.url()).hash).not.toContain('token');
  expect(new URL(page.url()).searchParams.get('token')).toBeNull();
  await app.screenshot('01-welcome');
  await expectNoAxeViolations(page, 'welcome');

  // The theme can be chosen by hand, over the system's.
  await page.getByTestId('theme-select').selectOption('dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.getByTestId('theme-select').selectOption('system');
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /.+/);

  // 2. The sample list, reached by keyboard alone, already read: encoding and separator shown.
  await app.focusByTab(page.getByTestId('welcome-sample'));
  await page.keyboard.press('Enter');
  await app.wizard.expectStep('import');
  await app.wizard.expectPreviewReady();
  // The sample skips the Gift step: this step names the gift it chose, with a way back to change it.
  await expect(page.getByTestId('import-gift')).toHaveText('Gift: Brightleaf Coffee eGift $10 (USD 10.00) Change gift');
  await expect(app.wizard.encoding).toHaveText(/utf-8/i);
  await expect(app.wizard.delimiter).toHaveValue(',');
  await expect(page.getByTestId('preview-invalid')).toHaveText('1');
  // The repeated address is skipped unless the person chooses one gift per row; the hint says ticking it adds that row.
  await expect(page.getByTestId('repeats-in-campaign')).not.toBeChecked();
  await expect(page.getByTestId('repeats-in-campaign-hint')).toHaveText(
    'Ticking this adds 1 row to the send: a valid row whose address repeats an earlier line, left out now (one gift per person).',
  );
  await expect(page.getByTestId('repeats-earlier')).not.toBeChecked();
  await app.screenshot('03-new-campaign-recipients');
  await expectNoAxeViolations(page, 'wizard: import step, sample list read');

  // The gift step, as the sample left it.
  await page.getByRole('button', { name: 'Back' }).click();
  await app.wizard.expectStep('setup');
  await expect(page.locator('[data-testid="product-option"] input:checked')).toHaveCount(1);
  await page.getByTestId('wiz-show-unavailable').check();
  await expect(page.getByText('Cannot be ordered:').first()).toBeVisible();
  await app.screenshot('02-new-campaign-gift');
  await expectNoAxeViolations(page, 'wizard: gift step, unavailable products shown');
  await app.wizard.next();
  await app.wizard.expectPreviewReady();

  // 3. The draft: the invalid row is fixed inline; the repeated e-mail was skipped at import, and says why.
  await app.wizard.createDraft();
  await app.wizard.filter('errors');
  const broken = page.locator('[data-testid="draft-row"][data-status="invalid"]');
  await expect(broken).toHaveCount(1);
  await expect(broken.getByTestId('cell-error')).toContainText('not a valid e-mail address');
  const line = Number(await broken.getAttribute('data-line'));
  await app.screenshot('04-review-errors');
  await expectNoAxeViolations(page, 'wizard: review step, errors filter');
  const editor = page.locator(`[data-testid="draft-row-editor"][data-line="${line}"]`);
  await app.wizard.row(line).getByTestId('row-edit').click();
  await expect(editor).toBeVisible();
  await expectNoAxeViolations(page, 'wizard: review step, row editor open');
  await editor.getByRole('button', { name: 'Cancel' }).click();
  await expect(editor).toHaveCount(0);
  await app.wizard.editRow(line, { email: 'tim.berners-lee@example.org' });
  await app.wizard.filter('all');
  await expect(app.wizard.row(line)).toHaveAttribute('data-status', 'ready');

  await app.wizard.filter('duplicates');
  await expect(page.getByTestId('draft-row')).toHaveCount(1);
  const again = page.locator('[data-testid="draft-row"]').filter({ hasText: 'Ada Lovelace (again)' });
  await expect(again).toHaveAttribute('data-status', 'skipped');
  await expect(again.getByTestId('state-chip')).toHaveText('Skipped');
  await expect(again.getByTestId('skip-reason')).toContainText('Repeated address');
  await expect(again.getByTestId('skip-reason')).toHaveAttribute('title', `Skipped by policy: ${SKIP_POLICY_TEXT['repeat-in-campaign']}`);
  await expect(again.getByTestId('row-unskip')).toBeVisible();
  await app.wizard.filter('all');
  await expect(app.wizard.costCount).toHaveText('11');
  await expect(app.wizard.costTotal).toHaveText('USD 110.00');
  await app.screenshot('04-review-fixed');
  await expectNoAxeViolations(page, 'wizard: review step, all rows');

  // 4. The confirmation says how many, how much, and that orders are final.
  await app.wizard.openConfirm();
  await expect(page.getByTestId('confirm-count')).toHaveText('11');
  await expect(page.getByTestId('confirm-total')).toHaveText('USD 110.00');
  await expect(page.getByTestId('confirm-final')).toContainText('Orders are final');
  // No order yet in this environment: the account's currency is not known, so the charge may be in it, at the service's rate.
  await expect(page.getByTestId('confirm-charge-currency')).toContainText("charged in your account's currency: if that is not USD");
  await app.screenshot('05-confirm-send');
  await expectNoAxeViolations(page, 'wizard: confirm-send dialog');
  await app.wizard.confirmSend();

  // 5. The campaign: every row ordered, then delivered.
  await expect(app.campaign.root).toBeVisible();
  await expect(app.campaign.rows()).toHaveCount(12);
  await expect(app.campaign.rows('sending')).toHaveCount(0);
  await expect(app.campaign.rows('ready')).toHaveCount(0);
  await expect(app.campaign.rows('skipped')).toHaveCount(1);
  await expect(app.campaign.rows('skipped').getByTestId('skip-reason')).toContainText('Repeated address');
  // Ordered, not yet delivered (the first check comes 30-60 s later): the card says so and does not read as done.
  await expect(page.getByTestId('progress-caption')).toHaveText('0 of 11 delivered · 11 ordered, waiting for delivery');
  const bar = page.getByTestId('progress').getByRole('progressbar');
  await expect(bar).toHaveAttribute('aria-valuenow', '0');
  // The bar counts the rows its words count: the 11 gift rows, not the skipped one.
  await expect(bar).toHaveAttribute('aria-valuemax', '11');
  await app.screenshot('05b-campaign-ordered');
  await app.campaign.checkUntilDelivered(11);
  await expect(app.campaign.rows('delivered')).toHaveCount(11);
  await expect(bar).toHaveAttribute('aria-valuenow', '11');
  await expect(page.getByTestId('charged-total')).toContainText('USD');
  await expect(page.getByTestId('timeline').locator('path.chart-delivered')).toHaveCount(1);
  await expect(page.getByTestId('progress-caption')).toHaveText('11 of 11 delivered');
  // The chart's ends are named apart, even when the whole campaign took under a minute.
  const start = await page.getByTestId('timeline-start').textContent();
  const end = await page.getByTestId('timeline-end').textContent();
  expect(start).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  expect(end).toMatch(/^\d{2}:\d{2}:\d{2}$/);
  expect(end).not.toBe(start?.slice(11));
  await app.screenshot('06-campaign-delivered');
  await expectNoAxeViolations(page, 'campaign: delivered');

  // 6. The delivery report: one line per recipient, delivered, with order ids.
  const download = await app.campaign.exportReport();
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const report = await readFile(await download.path(), 'utf8');
  expect(report.charCodeAt(0)).toBe(0xfeff);
  const lines = report.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = (lines[0] ?? '').toLowerCase();
  expect(header).toContain('email');
  const delivered = lines.filter((l) => /delivered/i.test(l) && /@example\./.test(l));
  expect(delivered).toHaveLength(11);
  expect(report).toContain('tim.berners-lee@example.org');
  expect(lines.some((l) => l.includes('Ada.Lovelace@example.com') && l.includes('Skipped by policy: its address repeats an earlier line'))).toBe(true);

  // 7. The campaigns list shows it with its totals.
  await app.nav('campaigns');
  const row = app.campaigns.campaign('My first simulated campaign');
  await expect(row).toHaveAttribute('data-send-state', 'done');
  await expect(row).toContainText('11 / 11');
  await app.screenshot('07-campaigns');
  await expectNoAxeViolations(page, 'campaigns list');

  // 8. A EUR gift on this account, charged in USD before: the confirmation says the EUR total is the
  // face value and the charge comes in USD at the service's rate and fee (no rate guessed).
  await app.nav('new');
  await app.wizard.chooseCountry('DE');
  await app.wizard.chooseProduct('Bergquell Kaufhaus Gutschein 25 €');
  await app.wizard.fillSetup({ name: 'Euro gifts', sender: 'Events team' });
  await app.wizard.next();
  await app.wizard.uploadFile(recipientsCsv(2));
  await app.wizard.expectPreviewReady();
  await app.wizard.createDraft();
  await app.wizard.openConfirm();
  await expect(page.getByTestId('confirm-total')).toHaveText('EUR 50.00');
  await expect(page.getByTestId('confirm-charge-currency')).toContainText(
    "The total is the gifts' face value in EUR; earlier orders here were charged in USD, so expect the charge in USD, converted at the service's rate and with its fee.",
  );
  await app.screenshot('08-confirm-send-other-currency');
  await expectNoAxeViolations(page, 'wizard: confirm-send dialog, another currency');
});
