// A draft kept for later and reopened from the campaigns list (after a reload: nothing of the wizard
// that made it is left) checks an edited row against the campaign's own default amount, as the
// new-campaign flow checks it against the one typed: an amount cleared in the editor is fine when the
// campaign has a default (and saving gives the row that default), and is "no amount" when it has none.
import { expectNoAxeViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
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
