// Personal messages: a default message with the row's fields, typed on the gift step, is checked
// against the file on the import step; the review shows each row's message as it will be sent (a
// long one cut short, whole in its title), a row naming a field the file lacks is an error on its
// line, and fixing that row's message fills it in.
import { expectNoAxeViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';

const LONG = `Dear {name}, ${'thank you for the late nights and the early mornings, '.repeat(4)}— the whole {Event} crew`;
const CSV = [
  'First name,Last name,Email,Event,Message',
  'Ada,Lovelace,ada@example.com,Gala 2026,',
  'Grace,Hopper,grace@example.com,Gala 2026,Thanks for the {Evnt} keynote!',
  'Mary Ann,Lee,mary@example.com,Crew night,',
  `Alan,Turing,alan@example.com,Gala 2026,"${LONG}"`,
  'Linus,Torvalds,linus@example.com,,',
].join('\r\n');

test('the review shows each row\'s personal message as it will be sent, with unknown fields as row errors', async ({ app, shell, page }) => {
  await app.open(shell.url);
  await app.nav('new');
  await app.wizard.chooseProduct('Brightleaf Coffee');
  await app.wizard.fillSetup({ name: 'Speakers', sender: 'Events team' });
  // A default message naming a column the file lacks is said on the import step, before the draft keeps it.
  await page.getByLabel('Message', { exact: true }).fill('Hi {first_name}, thank you for {Evnt}!');
  await expect(page.locator('#wiz-message-help')).toContainText('{first_name}');
  await app.wizard.next();
  await app.wizard.uploadFile({ name: 'speakers.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV, 'utf8') });
  await app.wizard.expectPreviewReady();
  await expect(page.getByTestId('default-message-problem')).toContainText(
    'The message from the gift step cannot be sent on 3 rows (the first on line 2): the message uses {Evnt}, which is neither a column of the file nor a field',
  );
  await app.screenshot('19-import-default-message-problem');
  await expectNoAxeViolations(page, 'wizard: import step, default message naming an unknown column');
  await page.getByRole('button', { name: 'Back' }).click();
  await app.wizard.expectStep('setup');
  await page.getByLabel('Message', { exact: true }).fill('Hi {first_name}, thank you for {Event}! Enjoy {amount}.');
  await app.wizard.next();
  await app.wizard.expectPreviewReady();
  await expect(page.getByTestId('default-message-problem')).toHaveCount(0);
  await expect(page.getByTestId('preview-valid')).toHaveText('4');
  await expect(page.getByTestId('preview-invalid')).toHaveText('1');
  await app.wizard.createDraft();

  const message = (line: number) => app.wizard.row(line).getByTestId('row-message');
  await expect(message(2)).toHaveText('Hi Ada, thank you for Gala 2026! Enjoy USD 10.00.');
  // The first-name column gives the first name whole.
  await expect(message(4)).toHaveText('Hi Mary Ann, thank you for Crew night! Enjoy USD 10.00.');
  // A long message is cut short on screen and whole in its title.
  const whole = LONG.replace('{name}', 'Alan Turing').replace('{Event}', 'Gala 2026');
  await expect(message(5)).toHaveText(whole);
  await expect(app.wizard.row(5).locator('[data-field="message"] .cell-value')).toHaveAttribute('title', whole);
  const box = await app.wizard.row(5).locator('[data-field="message"]').boundingBox();
  const cut = await message(5).evaluate((el) => {
    const value = el.parentElement;
    return value !== null && (value.scrollHeight > value.clientHeight || value.scrollWidth > value.clientWidth);
  });
  expect(cut).toBe(true);
  expect(box?.height ?? 0).toBeLessThan(60);

  // A column empty on its line is a warning: the message reads as it will be sent.
  await expect(message(6)).toHaveText('Hi Linus, thank you for ! Enjoy USD 10.00.');
  await expect(app.wizard.row(6).locator('[data-field="message"]').getByTestId('cell-warning')).toContainText("the message's {Event} is empty on this line");
  await expect(app.wizard.row(6)).toHaveAttribute('data-status', 'ready');

  // The row naming a field the file lacks is an error on its line, shown under its message.
  await expect(app.wizard.row(3)).toHaveAttribute('data-status', 'invalid');
  await expect(app.wizard.row(3).locator('[data-field="message"]').getByTestId('cell-error')).toContainText(
    'the message uses {Evnt}, which is neither a column of the file nor a field',
  );
  await expect(message(3)).toHaveText('Thanks for the {Evnt} keynote!');
  await app.screenshot('20-review-personal-messages');
  await expectNoAxeViolations(page, 'wizard: review step, personal messages');

  // The editor checks the message as it is typed, with the row's cells; the fix is filled in.
  const editor = await app.wizard.openEditor(3);
  await expect(editor.getByTestId('edit-message')).toHaveAttribute('aria-invalid', 'true');
  await expect(editor.locator('.cell-error').first()).toContainText('the message uses {Evnt}');
  await app.screenshot('20-review-personal-message-editor');
  await expectNoAxeViolations(page, 'wizard: review step, editing a personal message');
  await editor.getByTestId('edit-message').fill('Thanks for the {Event} keynote, {first_name}! {{with braces}}');
  await expect(editor.getByTestId('edit-message')).toHaveAttribute('aria-invalid', 'false');
  await editor.getByTestId('edit-save').click();
  await expect(editor).toHaveCount(0);
  await expect(app.wizard.row(3)).toHaveAttribute('data-status', 'ready');
  await expect(message(3)).toHaveText('Thanks for the Gala 2026 keynote, Grace! {with braces}');
  await expect(app.wizard.costCount).toHaveText('5');
  await app.screenshot('21-review-personal-messages-fixed');
  await expectNoAxeViolations(page, 'wizard: review step, personal message fixed');
});
