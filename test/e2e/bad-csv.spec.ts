// Files that are not a list of recipients: each says what is wrong and what to do, and nothing is
// created from them until the columns are right.
import { expectNoAxeViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';

test('a bad CSV is explained and blocks the draft until its columns are chosen', async ({ app, shell, page }) => {
  await app.open(shell.url);
  await app.nav('campaigns');
  await expect(page.getByTestId('campaigns-empty')).toContainText('No campaigns yet');
  await app.screenshot('00-campaigns-empty');
  await expectNoAxeViolations(page, 'campaigns list, empty');
  await app.nav('new');
  await expectNoAxeViolations(page, 'wizard: gift step');
  await app.wizard.chooseProduct('Brightleaf Coffee');
  await app.wizard.fillSetup({ sender: 'Events team' });
  await app.wizard.next();

  // An empty file never reaches the engine (chosen with the button, as a person would).
  await app.wizard.chooseFile({ name: 'empty.csv', mimeType: 'text/csv', buffer: Buffer.alloc(0) });
  await expect(page.getByTestId('file-error')).toContainText('"empty.csv" is empty');
  await expectNoAxeViolations(page, 'wizard: import step, empty file refused');

  // Headers that name nothing we know: the problems are listed and the draft is blocked.
  const unknown = 'Who;Where\r\nAda;ada@example.com\r\nAlan;not-an-address\r\n';
  await app.wizard.uploadFile({ name: 'export.csv', mimeType: 'text/csv', buffer: Buffer.from(unknown, 'utf8') });
  await app.wizard.expectPreviewReady();
  await expect(app.wizard.delimiter).toHaveValue(';');
  await expect(page.getByTestId('preview-problems')).toContainText('no column recognised as the e-mail address');
  await expect(page.getByTestId('import-blocker')).toContainText('e-mail address');
  await expect(app.wizard.createButton).toBeDisabled();
  await app.screenshot('09-bad-csv');
  await expectNoAxeViolations(page, 'wizard: import step, columns not recognised');

  // Choosing the columns by hand makes it usable; the bad address is found per row.
  await app.wizard.map('email', 'Where');
  await app.wizard.expectPreviewReady();
  await app.wizard.map('name', 'Who');
  await app.wizard.expectPreviewReady();
  await expect(page.getByTestId('import-blocker')).toHaveCount(0);
  await expect(page.getByTestId('preview-valid')).toHaveText('1');
  await expect(page.getByTestId('preview-invalid')).toHaveText('1');
  await expect(app.wizard.createButton).toBeEnabled();

  // A header and no rows.
  await app.wizard.uploadFile({ name: 'header-only.csv', mimeType: 'text/csv', buffer: Buffer.from('Name,Email\n', 'utf8') });
  await app.wizard.expectPreviewReady();
  await expect(page.getByTestId('import-blocker')).toContainText('no recipient rows');
  await expect(app.wizard.createButton).toBeDisabled();
});
