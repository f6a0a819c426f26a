// Issue 13, a gift per row: a tiered file (speakers get "Pinecrest Outfitters $50", volunteers
// "Northwind Books Gift Card $25", the product chosen on the Gift step for an empty cell) is read
// with its Product column mapped, previewed per product, reviewed with each row's gift (a row naming
// no product of the catalog is an error on its gift, and skipped), confirmed per product, sent, and
// delivered with each row's product on the campaign screen and in the report.
import { readFile } from 'node:fs/promises';
import { expectNoAxeViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { simulatorOrders } from './support/simulator-state.ts';

const FIFTY = 'Pinecrest Outfitters $50';
const BOOKS = 'Northwind Books Gift Card $25';
const CSV = [
  'Name,Email,Product',
  `Ada Speaker,ada@example.com,${FIFTY}`,
  'Grace Speaker,grace@example.com,pinecrest outfitters $50',
  `Linus Volunteer,linus@example.com,${BOOKS}`,
  'Mary Volunteer,mary@example.com,',
  'Alan Guest,alan@example.com,Golden Ticket',
].join('\r\n');

test('a tiered file sends each row as its own product, with totals and the confirmation per product', async ({ app, shell, page }) => {
  await app.open(shell.url);
  await app.nav('new');
  await app.wizard.chooseProduct(BOOKS);
  await app.wizard.fillSetup({ name: 'Conference thanks', sender: 'Events team' });
  await app.wizard.next();
  await app.wizard.uploadFile({ name: 'tiers.csv', mimeType: 'text/csv', buffer: Buffer.from(`${CSV}\r\n`, 'utf8') });
  await app.wizard.expectPreviewReady();

  // 1. The Product column is detected as the gift; the hint says what it holds.
  await expect(page.getByTestId('map-product')).toHaveValue('2');
  await expect(page.getByTestId('map-product').locator('option:checked')).toHaveText('Product (detected)');
  await expect(page.getByLabel('Gift (product)')).toHaveAccessibleDescription(/a product id or its exact name; empty rows get the product chosen on the Gift step/);
  await expect(page.getByTestId('preview-valid')).toHaveText('4');
  await expect(page.getByTestId('preview-invalid')).toHaveText('1');
  await expect(page.getByTestId('preview-cost')).toHaveText('USD 150.00');
  const previewByProduct = page.getByTestId('preview-by-product').getByTestId('product-total');
  await expect(previewByProduct).toHaveCount(2);
  await expect(previewByProduct.filter({ hasText: FIFTY })).toContainText('2 ready');
  await expect(previewByProduct.filter({ hasText: FIFTY })).toContainText('USD 100.00');
  await expect(previewByProduct.filter({ hasText: BOOKS })).toContainText('2 ready');
  await expect(previewByProduct.filter({ hasText: BOOKS })).toContainText('USD 50.00');
  await app.screenshot('70-import-gift-per-row');
  await expectNoAxeViolations(page, 'wizard: import step, a gift column and totals per product');

  // Without the gift column every row gets the chosen product: one product, no list per product.
  await app.wizard.unmap('product');
  await app.wizard.expectPreviewReady();
  await expect(page.getByTestId('preview-valid')).toHaveText('5');
  await expect(page.getByTestId('preview-cost')).toHaveText('USD 125.00');
  await expect(page.getByTestId('preview-by-product')).toHaveCount(0);
  await app.wizard.map('product', 'Product (detected)');
  await app.wizard.expectPreviewReady();
  await expect(page.getByTestId('preview-valid')).toHaveText('4');
  await expect(page.getByTestId('preview-by-product').getByTestId('product-total')).toHaveCount(2);

  // 2. The review: each row's gift; the unknown product is an error on its gift, and is skipped.
  await app.wizard.createDraft();
  const gift = (line: number) => app.wizard.row(line).getByTestId('row-product');
  await expect(gift(2)).toHaveText(FIFTY);
  await expect(gift(3)).toHaveText(FIFTY);
  await expect(gift(4)).toHaveText(BOOKS);
  await expect(gift(5)).toHaveText(BOOKS);
  await expect(app.wizard.row(6)).toHaveAttribute('data-status', 'invalid');
  await expect(app.wizard.row(6).locator('[data-field="product"]').getByTestId('cell-error')).toContainText('no product named "Golden Ticket" can be ordered here');
  await expect(app.wizard.costCount).toHaveText('4');
  await expect(app.wizard.costTotal).toHaveText('USD 150.00');
  const costByProduct = page.getByTestId('cost-by-product').getByTestId('product-total');
  await expect(costByProduct).toHaveCount(2);
  await expect(costByProduct.filter({ hasText: FIFTY })).toContainText('2 to send');
  await expect(costByProduct.filter({ hasText: FIFTY })).toContainText('USD 100.00');
  await expect(costByProduct.filter({ hasText: BOOKS })).toContainText('USD 50.00');
  await app.screenshot('71-review-gift-per-row');
  await expectNoAxeViolations(page, 'wizard: review step, a gift per row');

  // The editor checks a speaker's amount against the speaker's own product ($50), not the chosen one ($25).
  const editor = await app.wizard.openEditor(2);
  // Its gift is offered as chosen, with the others of the country to change it to.
  await expect(editor.getByLabel('Gift, line 2').locator('option:checked')).toHaveText(`${FIFTY} · USD 50.00`);
  await expect(editor.getByTestId('edit-product-price')).toHaveText('USD 50.00');
  await editor.getByTestId('edit-amount').fill('50');
  await expect(editor.getByTestId('edit-amount')).toHaveAttribute('aria-invalid', 'false');
  await editor.getByTestId('edit-amount').fill('25');
  await expect(editor.getByTestId('edit-amount')).toHaveAttribute('aria-invalid', 'true');
  await expect(editor.locator('.cell-error').first()).toContainText("fixed price of USD 50.00");
  await app.screenshot('72-review-gift-per-row-editor');
  await expectNoAxeViolations(page, 'wizard: review step, editing a row of another product');
  await editor.getByRole('button', { name: 'Cancel' }).click();
  await expect(editor).toHaveCount(0);

  await app.wizard.skipRow(6);
  await expect(app.wizard.costCount).toHaveText('4');

  // 3. The confirmation: each product with its orders and face value; the total per currency stays.
  await app.wizard.openConfirm();
  const dialog = app.wizard.confirmDialog;
  await expect(dialog.getByTestId('confirm-count')).toHaveText('4');
  await expect(dialog.getByTestId('confirm-total')).toHaveText('USD 150.00');
  const confirmByProduct = dialog.getByTestId('confirm-by-product').getByTestId('product-total');
  await expect(confirmByProduct).toHaveCount(2);
  await expect(confirmByProduct.filter({ hasText: FIFTY })).toContainText('2 gifts');
  await expect(confirmByProduct.filter({ hasText: FIFTY })).toContainText('USD 100.00');
  await expect(confirmByProduct.filter({ hasText: BOOKS })).toContainText('2 gifts');
  await expect(confirmByProduct.filter({ hasText: BOOKS })).toContainText('USD 50.00');
  await expect(dialog).toContainText('Campaign “Conference thanks” · 2 products');
  await app.screenshot('73-confirm-gift-per-row');
  await expectNoAxeViolations(page, 'wizard: confirm-send dialog, a gift per row');
  await app.wizard.confirmSend();

  // 4. The campaign: each row names its gift; every sent row is delivered.
  await expect(app.campaign.root).toBeVisible();
  await expect(app.campaign.rows()).toHaveCount(5);
  await app.campaign.checkUntilDelivered(4);
  const rowGift = (email: string) => app.campaign.rowByEmail(email).getByTestId('row-product');
  await expect(rowGift('ada@example.com')).toHaveText(FIFTY);
  await expect(rowGift('grace@example.com')).toHaveText(FIFTY);
  await expect(rowGift('linus@example.com')).toHaveText(BOOKS);
  await expect(rowGift('mary@example.com')).toHaveText(BOOKS);
  await expect(app.campaign.rowByEmail('alan@example.com')).toHaveAttribute('data-status', 'skipped');
  // The row whose gift named no product is not shown as the chosen one.
  await expect(rowGift('alan@example.com')).toHaveText('—');
  // The products its rows use, its own first (S15-J: 'by default' named one the rows may not use).
  await expect(page.getByTestId('campaign-product')).toHaveText(`A gift per row: ${BOOKS}, ${FIFTY} · USD`);
  await expect(page.getByTestId('charged-total')).toContainText('USD');
  await app.screenshot('74-campaign-gift-per-row-delivered');
  await expectNoAxeViolations(page, 'campaign: delivered, a gift per row');

  // 5. The report names each row's product.
  const download = await app.campaign.exportReport();
  const report = (await readFile(await download.path(), 'utf8')).replace(/^\uFEFF/, '');
  const lines = report.split(/\r?\n/);
  expect(lines[0]).toContain('product_name');
  expect(lines.find((l) => l.includes('ada@example.com'))).toContain(FIFTY);
  expect(lines.find((l) => l.includes('mary@example.com'))).toContain(BOOKS);
});

// A row whose gift named no product is given one in the row editor (rows:edit's product): the editor
// offers the country's orderable products with their price or range, checks the amount against the
// one chosen as it is typed, and the saved row is ready, counted under its new product, and sent as it.
test('a row whose gift named no product is given one in the editor, and sent as it', async ({ app, shell, page }) => {
  const MARKET = 'Harborline Market eGift';
  await app.open(shell.url);
  await app.nav('new');
  await app.wizard.chooseProduct(BOOKS);
  await app.wizard.fillSetup({ name: 'Conference thanks, fixed', sender: 'Events team' });
  await app.wizard.next();
  await app.wizard.uploadFile({ name: 'tiers.csv', mimeType: 'text/csv', buffer: Buffer.from(`${CSV}\r\n`, 'utf8') });
  await app.wizard.expectPreviewReady();
  await app.wizard.createDraft();
  await expect(app.wizard.row(6)).toHaveAttribute('data-status', 'invalid');
  await expect(app.wizard.costTotal).toHaveText('USD 150.00');

  const editor = await app.wizard.openEditor(6);
  // Nothing chosen yet: the file's error stands under the choice, which is labelled for screen readers.
  const choice = editor.getByLabel('Gift, line 6');
  await expect(choice).toHaveValue('');
  await expect(choice).toHaveAttribute('aria-invalid', 'true');
  await expect(choice).toHaveAccessibleDescription(/no product named "Golden Ticket" can be ordered here/);
  await expect(choice.locator('option')).toContainText([`${FIFTY} · USD 50.00`, `${MARKET} · USD 5.00 – 500.00`]);
  // Not offered: a product that is not on sale.
  await expect(choice.locator('option', { hasText: 'Maple & Reed Spa Day' })).toHaveCount(0);

  // A range product: the amount is checked against its range as it is typed.
  await choice.selectOption({ label: `${MARKET} · USD 5.00 – 500.00` });
  await expect(choice).toHaveAttribute('aria-invalid', 'false');
  await expect(editor.getByTestId('edit-product-price')).toHaveText('USD 5.00 – 500.00');
  await editor.getByTestId('edit-amount').fill('900');
  await expect(editor.getByTestId('edit-amount')).toHaveAttribute('aria-invalid', 'true');
  await editor.getByTestId('edit-amount').fill('30');
  await expect(editor.getByTestId('edit-amount')).toHaveAttribute('aria-invalid', 'false');
  await app.screenshot('75-review-gift-per-row-choose-gift');
  await expectNoAxeViolations(page, 'wizard: review step, choosing a row\'s gift');
  await editor.getByTestId('edit-save').click();
  await expect(editor).toHaveCount(0);

  // Saved: ready, its gift named, and counted under it.
  await expect(app.wizard.row(6)).toHaveAttribute('data-status', 'ready');
  await expect(app.wizard.row(6).getByTestId('row-product')).toHaveText(MARKET);
  await expect(app.wizard.costCount).toHaveText('5');
  await expect(app.wizard.costTotal).toHaveText('USD 180.00');
  const costByProduct = page.getByTestId('cost-by-product').getByTestId('product-total');
  await expect(costByProduct).toHaveCount(3);
  await expect(costByProduct.filter({ hasText: MARKET })).toContainText('1 to send');
  await expect(costByProduct.filter({ hasText: MARKET })).toContainText('USD 30.00');
  await app.screenshot('76-review-gift-per-row-gift-chosen');

  await app.wizard.openConfirm();
  await expect(app.wizard.confirmDialog.getByTestId('confirm-count')).toHaveText('5');
  await expect(app.wizard.confirmDialog.getByTestId('confirm-total')).toHaveText('USD 180.00');
  await app.wizard.confirmSend();
  await expect(app.campaign.root).toBeVisible();
  await app.campaign.checkUntilDelivered(5);
  await expect(app.campaign.rowByEmail('alan@example.com').getByTestId('row-product')).toHaveText(MARKET);
});

// A draft kept for later and reopened from the campaigns list (after a reload: nothing of the wizard
// that made it is left) offers the same gift select: the catalog of the campaign's country is read
// again, a volunteer's row is moved to the speakers' gift (its amount checked against that gift as
// typed), and the order the service records for it is for that product. It is sent with two rows
// that need fixing; on the campaign screen, "Fix 2 rows…" opens them in the draft's own editor, one
// is given a gift and sent through the first send's confirmation: one more order, the other row left.
test('a draft reopened from the campaigns list gives a row another gift, and its order is for that product', async ({ app, shell, page, dataDir }) => {
  await app.open(shell.url);
  await app.nav('new');
  await app.wizard.chooseProduct(BOOKS);
  await app.wizard.fillSetup({ name: 'Conference thanks, reopened', sender: 'Events team' });
  await app.wizard.next();
  // A second row that needs fixing (its address), beside Alan's unknown gift: line 7.
  const csv = `${CSV}\r\nBea Guest,bea-at-example.com,${BOOKS}\r\n`;
  await app.wizard.uploadFile({ name: 'tiers.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
  await app.wizard.expectPreviewReady();
  await app.wizard.createDraft();
  await page.getByRole('button', { name: 'Keep as draft for later' }).click();
  await expect(app.campaigns.root).toBeVisible();

  await app.open(shell.url);
  await app.nav('campaigns');
  await app.campaigns.campaign('Conference thanks, reopened').getByTestId('campaign-open').click();
  await app.wizard.expectStep('review');
  await expect(app.wizard.row(4).getByTestId('row-product')).toHaveText(BOOKS);
  await expect(app.wizard.costTotal).toHaveText('USD 150.00');

  const editor = await app.wizard.openEditor(4);
  const choice = editor.getByLabel('Gift, line 4');
  await expect(choice.locator('option:checked')).toHaveText(`${BOOKS} · USD 25.00`);
  await expect(choice.locator('option')).toContainText([`${BOOKS} · USD 25.00`, `${FIFTY} · USD 50.00`, 'Harborline Market eGift · USD 5.00 – 500.00']);
  await expect(choice.locator('option', { hasText: 'Maple & Reed Spa Day' })).toHaveCount(0);
  await choice.selectOption({ label: `${FIFTY} · USD 50.00` });
  const fiftyId = Number(await choice.inputValue());
  expect(fiftyId).toBeGreaterThan(0);
  await expect(editor.getByTestId('edit-product-price')).toHaveText('USD 50.00');
  // The amount the row had (the $25 gift's) is checked against the gift chosen, as it is typed.
  await expect(editor.getByTestId('edit-amount')).toHaveAttribute('aria-invalid', 'true');
  await expect(editor.locator('.cell-error').first()).toContainText('fixed price of USD 50.00');
  await editor.getByTestId('edit-amount').fill('50');
  await expect(editor.getByTestId('edit-amount')).toHaveAttribute('aria-invalid', 'false');
  await app.screenshot('77-reopened-draft-choose-gift');
  await expectNoAxeViolations(page, 'wizard: a reopened draft, choosing a row\'s gift');
  await editor.getByTestId('edit-save').click();
  await expect(editor).toHaveCount(0);

  await expect(app.wizard.row(4)).toHaveAttribute('data-status', 'ready');
  await expect(app.wizard.row(4).getByTestId('row-product')).toHaveText(FIFTY);
  await expect(app.wizard.costCount).toHaveText('4');
  await expect(app.wizard.costTotal).toHaveText('USD 175.00');
  const costByProduct = page.getByTestId('cost-by-product').getByTestId('product-total');
  await expect(costByProduct.filter({ hasText: FIFTY })).toContainText('3 to send');
  await expect(costByProduct.filter({ hasText: BOOKS })).toContainText('1 to send');
  await app.screenshot('78-reopened-draft-gift-chosen');

  await app.wizard.openConfirm();
  await expect(app.wizard.confirmDialog.getByTestId('confirm-count')).toHaveText('4');
  await expect(app.wizard.confirmDialog.getByTestId('confirm-total')).toHaveText('USD 175.00');
  await app.wizard.confirmSend();
  await expect(app.campaign.root).toBeVisible();
  await app.campaign.checkUntilDelivered(4);
  await expect(app.campaign.rowByEmail('linus@example.com').getByTestId('row-product')).toHaveText(FIFTY);

  // The service's own record: one order for Linus, for the speakers' gift at its price.
  const linus = simulatorOrders(dataDir).filter((o) => o.recipientEmail === 'linus@example.com');
  expect(linus).toHaveLength(1);
  expect(linus[0]).toMatchObject({ productId: fiftyId, price: { currency: 'USD', minor: 5000 } });

  // The two rows that need fixing, fixed where they are: Alan is given the speakers' gift and sent alone.
  expect(simulatorOrders(dataDir)).toHaveLength(4);
  await expect(app.campaign.rows('invalid')).toHaveCount(2);
  await page.getByTestId('campaign-fix-rows').filter({ hasText: 'Fix 2 rows…' }).click();
  const panel = page.getByTestId('fix-rows');
  await expect(panel.getByTestId('draft-row')).toHaveCount(2);
  const fix = await app.wizard.openEditor(6);
  await fix.getByLabel('Gift, line 6').selectOption({ label: `${FIFTY} · USD 50.00` });
  await expect(fix.getByLabel('Gift, line 6')).toHaveAttribute('aria-invalid', 'false');
  await fix.getByTestId('edit-save').click();
  await expect(fix).toHaveCount(0);
  await expect(app.wizard.row(6)).toHaveAttribute('data-status', 'ready');
  await expect(app.wizard.row(7)).toHaveAttribute('data-status', 'invalid');
  await expect(panel.getByTestId('fix-rows-send')).toHaveText('Send 1 corrected row…');
  await app.screenshot('79-campaign-fix-rows-corrected');
  await panel.getByTestId('fix-rows-send').click();
  await expect(app.wizard.confirmDialog.getByTestId('confirm-count')).toHaveText('1');
  await expect(app.wizard.confirmDialog.getByTestId('confirm-total')).toHaveText('USD 50.00');
  await expect(app.wizard.confirmDialog).toContainText('1 row that still needs fixing will not be sent');
  await app.wizard.confirmSend();
  await expect(panel).toHaveCount(0);
  await expect(app.campaign.rowByEmail('alan@example.com')).toHaveAttribute('data-status', /^(ordered|delivered)$/, { timeout: 30_000 });
  await expect(app.campaign.rowByEmail('bea-at-example.com')).toHaveAttribute('data-status', 'invalid');
  await expect(page.getByTestId('campaign-fix-rows')).toHaveText('Fix 1 row…');
  await app.screenshot('80-campaign-fix-rows-sent');
  // Exactly one more order, Alan's, for the gift chosen; nothing already sent went again.
  const after = simulatorOrders(dataDir);
  expect(after).toHaveLength(5);
  expect(new Set(after.map((o) => o.externalReferenceId)).size).toBe(5);
  expect(after.filter((o) => o.recipientEmail === 'alan@example.com')).toMatchObject([{ productId: fiftyId, price: { currency: 'USD', minor: 5000 } }]);
});
