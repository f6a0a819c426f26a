// A draft kept for later and reopened from the campaigns list (after a reload: nothing of the wizard
// that made it is left) checks an edited row against the campaign's own default amount, as the
// new-campaign flow checks it against the one typed: an amount cleared in the editor is fine when the
// campaign has a default (and saving gives the row that default), and is "no amount" when it has none.
import { expectNoAxeViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { simulatorOrders } from './support/simulator-state.ts';
import type { AppShell } from './pages/app-shell.ts';

const MARKET = 'Harborline Market eGift';
const CSV = ['Name,Email,Amount', 'Ada Helper,ada@example.com,40', 'Grace Helper,grace@example.com,', 'Linus Helper,linus@example.com,20'].join('\r\n');

async function keepDraft(app: AppShell, url: string, name: string, defaultAmount?: string): Promise<void> {
  await app.open(url);
  await app.nav('new');
  await app.wizard.chooseProduct(MARKET);
  await app.wizard.fillSetup({ name, sender: 'Events team', ...(defaultAmount !== undefined ? { defaultAmount } : {}) });
  await app.wizard.next();
  await app.wizard.uploadFile({ name: 'helpers.csv', mimeType: 'text/csv', buffer: Buffer.from(`${CSV}\r\n`, 'utf8') });
  await app.wizard.expectPreviewReady();
  await app.wizard.createDraft();
  await app.page.getByRole('button', { name: 'Keep as draft for later' }).click();
  await expect(app.campaigns.root).toBeVisible();
}

async function reopen(app: AppShell, url: string, name: string): Promise<void> {
  await app.open(url);
  await app.nav('campaigns');
  await app.campaigns.campaign(name).getByTestId('campaign-open').click();
  await app.wizard.expectStep('review');
}

test("a reopened draft checks a cleared amount against the campaign's default amount, and without one says it is missing", async ({ app, shell, page }) => {
  await keepDraft(app, shell.url, 'Helpers, with a default', '30');
  await keepDraft(app, shell.url, 'Helpers, no default');

  await reopen(app, shell.url, 'Helpers, with a default');
  const amount = (line: number) => app.wizard.row(line).locator('[data-field="amount"] .cell-value');
  await expect(amount(2)).toHaveText('USD 40.00');
  await expect(amount(3)).toHaveText('USD 30.00');
  await expect(app.wizard.costTotal).toHaveText('USD 90.00');

  const editor = await app.wizard.openEditor(2);
  // Checked as typed: out of the product's range is an error; cleared, the default applies.
  await editor.getByTestId('edit-amount').fill('700');
  await expect(editor.getByTestId('edit-amount')).toHaveAttribute('aria-invalid', 'true');
  await expect(editor.locator('.cell-error').first()).toContainText('USD 700.00');
  await editor.getByTestId('edit-amount').fill('');
  await expect(editor.getByTestId('edit-amount')).toHaveAttribute('aria-invalid', 'false');
  // The empty field shows, greyed, what the row is given.
  await expect(editor.getByTestId('edit-amount')).toHaveAttribute('placeholder', '30.00');
  await expect(editor.locator('.cell-error')).toHaveCount(0);
  await app.screenshot('79-reopened-draft-default-amount');
  await expectNoAxeViolations(page, 'wizard: a reopened draft with a default amount, a row\'s amount cleared');
  await editor.getByTestId('edit-save').click();
  await expect(editor).toHaveCount(0);
  await expect(app.wizard.row(2)).toHaveAttribute('data-status', 'ready');
  await expect(amount(2)).toHaveText('USD 30.00');
  await expect(app.wizard.costTotal).toHaveText('USD 80.00');

  // A draft made without a default: the cleared amount is missing, as the engine says on save.
  await reopen(app, shell.url, 'Helpers, no default');
  await expect(app.wizard.row(3)).toHaveAttribute('data-status', 'invalid');
  const bare = await app.wizard.openEditor(2);
  await bare.getByTestId('edit-amount').fill('');
  await expect(bare.getByTestId('edit-amount')).toHaveAttribute('aria-invalid', 'true');
  await expect(bare.getByTestId('edit-amount')).not.toHaveAttribute('placeholder', /.+/);
  await expect(bare.locator('.cell-error').first()).toHaveText('no amount and no default amount: enter an amount or set a default amount');
  await app.screenshot('79b-reopened-draft-no-default-amount');
});

// A file whose Product column names only the campaign's own product (or nothing) chooses a gift per
// row all the same: the new draft's review shows the Gift column, and so does the draft reopened
// from the list after a reload, though every row is of the campaign's product. A row is moved to
// another gift there and sent, and the service's order for it is for that gift.
const BOOKS = 'Northwind Books Gift Card $25';
const OWN_PRODUCT_CSV = ['Name,Email,Amount,Product', `Ada Helper,ada@example.com,40,${MARKET}`, 'Grace Helper,grace@example.com,30,', `Linus Helper,linus@example.com,20,${MARKET}`].join('\r\n');

test("a reopened draft whose Product column named only the campaign's product shows its Gift column, and a row moved to another gift is sent as it", async ({ app, shell, page, dataDir }) => {
  const giftHeader = app.wizard.root.getByRole('columnheader', { name: 'Gift' });
  const gift = (line: number) => app.wizard.row(line).getByTestId('row-product');
  await app.open(shell.url);
  await app.nav('new');
  await app.wizard.chooseProduct(MARKET);
  await app.wizard.fillSetup({ name: 'Helpers, one product named', sender: 'Events team' });
  await app.wizard.next();
  await app.wizard.uploadFile({ name: 'helpers.csv', mimeType: 'text/csv', buffer: Buffer.from(`${OWN_PRODUCT_CSV}\r\n`, 'utf8') });
  await app.wizard.expectPreviewReady();
  await expect(page.getByTestId('map-product').locator('option:checked')).toHaveText('Product (detected)');
  await app.wizard.createDraft();
  // The new draft: every row's gift is the campaign's own, and the column is there.
  await expect(giftHeader).toBeVisible();
  await expect(gift(3)).toHaveText(MARKET);
  await page.getByRole('button', { name: 'Keep as draft for later' }).click();
  await expect(app.campaigns.root).toBeVisible();

  await reopen(app, shell.url, 'Helpers, one product named');
  await expect(giftHeader).toBeVisible();
  await expect(gift(2)).toHaveText(MARKET);
  await expect(gift(3)).toHaveText(MARKET);
  await expect(gift(4)).toHaveText(MARKET);
  await expect(app.wizard.costTotal).toHaveText('USD 90.00');
  await app.screenshot('79c-reopened-draft-own-product-gift-column');

  const editor = await app.wizard.openEditor(3);
  const choice = editor.getByLabel('Gift, line 3');
  await expect(choice.locator('option:checked')).toHaveText(`${MARKET} · USD 5.00 – 500.00`);
  await choice.selectOption({ label: `${BOOKS} · USD 25.00` });
  const booksId = Number(await choice.inputValue());
  expect(booksId).toBeGreaterThan(0);
  // Its $30 is checked against the $25 gift as it is typed.
  await expect(editor.getByTestId('edit-amount')).toHaveAttribute('aria-invalid', 'true');
  await editor.getByTestId('edit-amount').fill('25');
  await expect(editor.getByTestId('edit-amount')).toHaveAttribute('aria-invalid', 'false');
  await app.screenshot('79d-reopened-draft-own-product-choose-gift');
  await expectNoAxeViolations(page, "wizard: a reopened draft whose Product column named only its product, choosing a row's gift");
  await editor.getByTestId('edit-save').click();
  await expect(editor).toHaveCount(0);
  await expect(app.wizard.row(3)).toHaveAttribute('data-status', 'ready');
  await expect(gift(3)).toHaveText(BOOKS);
  await expect(app.wizard.costTotal).toHaveText('USD 85.00');

  await app.wizard.openConfirm();
  await expect(app.wizard.confirmDialog.getByTestId('confirm-count')).toHaveText('3');
  await expect(app.wizard.confirmDialog.getByTestId('confirm-total')).toHaveText('USD 85.00');
  await app.wizard.confirmSend();
  await expect(app.campaign.root).toBeVisible();
  await app.campaign.checkUntilDelivered(3);
  await expect(app.campaign.rowByEmail('grace@example.com').getByTestId('row-product')).toHaveText(BOOKS);
  const grace = simulatorOrders(dataDir).filter((o) => o.recipientEmail === 'grace@example.com');
  expect(grace).toHaveLength(1);
  expect(grace[0]).toMatchObject({ productId: booksId, price: { currency: 'USD', minor: 2500 } });
});
