// Repeated recipients, decided on purpose (issue 13): an address on several lines of the file is
// skipped by default with its reason said, and taking one back makes the confirmation say who gets
// more than one gift; a second import of the same file with "one gift per row" checked keeps every
// row and says so before sending; once those are sent, a third import skips them as earlier
// recipients.
import { SKIP_POLICY_TEXT } from '../../shared/domain/skips.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';

const CSV = [
  'Name,Email',
  'Ada Lovelace,ada@example.com',
  'Grace Hopper,grace@example.com',
  'Ada again,ADA@example.com',
  'Alan Turing,alan@example.com',
  'Grace again,grace@example.com',
  'Grace thrice,grace@example.com',
].join('\r\n');
const FILE = { name: 'speakers.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV, 'utf8') };

test('a repeated address is skipped by default; one gift per row sends it and the confirmation says who gets more than one', async ({ app, shell, page }) => {
  await app.open(shell.url);
  const importFile = async (name: string): Promise<void> => {
    await app.nav('new');
    await app.wizard.chooseProduct('Brightleaf Coffee');
    await app.wizard.fillSetup({ name, sender: 'Events team' });
    await app.wizard.next();
    await app.wizard.uploadFile(FILE);
    await app.wizard.expectPreviewReady();
  };
  const inCampaign = page.getByTestId('repeats-in-campaign');
  const duplicates = page.locator('[data-testid="draft-row"]');

  // 1. By default: the three repeated lines are skipped at import, each saying why.
  await importFile('Speakers, one gift each');
  await expect(inCampaign).not.toBeChecked();
  // Each hint says what ticking its box adds to the send.
  await expect(page.getByTestId('repeats-in-campaign-hint')).toHaveText(
    'Ticking this adds 3 rows to the send: valid rows whose address repeats an earlier line, left out now (one gift per person).',
  );
  await expect(page.getByTestId('repeats-earlier-hint')).toHaveText('Adds no row to the send: no valid row is for someone who has a gift from an earlier campaign here.');
  // "Ready to send" and the cost are what the draft will send: the repeats left out, said beside.
  const readyCount = page.getByTestId('preview-valid');
  const leftOut = page.getByTestId('preview-left-out');
  const previewCost = page.getByTestId('preview-cost');
  await expect(readyCount).toHaveText('3');
  await expect(leftOut).toHaveText('3 repeated rows will be left out');
  await expect(previewCost).toHaveText('USD 30.00');
  await app.screenshot('85-import-repeats-left-out');
  await expectNoAxeViolations(page, 'wizard: import step, repeated rows left out');
  await app.wizard.createDraft();
  await expect(app.wizard.costCount).toHaveText('3');
  await app.wizard.filter('duplicates');
  await expect(page.getByTestId('filter-duplicates')).toHaveText('Repeated recipients 3');
  await expect(duplicates).toHaveCount(3);
  for (const line of [4, 6, 7]) {
    await expect(app.wizard.row(line)).toHaveAttribute('data-status', 'skipped');
    await expect(app.wizard.row(line).getByTestId('skip-reason')).toContainText('Repeated address');
    await expect(app.wizard.row(line).getByTestId('skip-reason')).toHaveAttribute('title', `Skipped by policy: ${SKIP_POLICY_TEXT['repeat-in-campaign']}`);
  }
  await app.screenshot('80-review-repeats-skipped');
  await expectNoAxeViolations(page, 'wizard: review step, repeated addresses skipped by policy');

  // Taken back, the row sends like any other, and the confirmation says Ada would get two gifts.
  await app.wizard.row(4).getByTestId('row-unskip').click();
  await expect(app.wizard.row(4)).toHaveAttribute('data-status', 'ready');
  await expect(app.wizard.row(4).getByTestId('skip-reason')).toHaveCount(0);
  await expect(app.wizard.costCount).toHaveText('4');
  await app.wizard.openConfirm();
  await expect(page.getByTestId('confirm-count')).toHaveText('4');
  await expect(page.getByTestId('confirm-repeats-in-campaign')).toContainText('1 person would get more than one gift from this campaign (1 extra gift)');
  await expect(page.getByTestId('confirm-repeats')).toHaveCount(0);
  await app.screenshot('81-confirm-one-person-twice');
  await expectNoAxeViolations(page, 'wizard: confirmation, one person gets two gifts');
  await app.wizard.confirmDialog.getByRole('button', { name: 'Cancel' }).click();
  // Skipped again, the confirmation has nothing to say about it.
  await app.wizard.skipRow(4);
  await app.wizard.openConfirm();
  await expect(page.getByTestId('confirm-count')).toHaveText('3');
  await expect(page.getByTestId('confirm-repeats-in-campaign')).toHaveCount(0);
  await app.wizard.confirmDialog.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Keep as draft for later' }).click();

  // 2. The same file again, one gift per row: every line is kept and the confirmation counts the people.
  await importFile('Speakers, one gift per row');
  await expect(readyCount).toHaveText('3');
  await inCampaign.check();
  await expect(page.getByTestId('repeats-in-campaign-hint')).toHaveText('Adds 3 rows to the send: valid rows whose address repeats an earlier line, each with its own gift.');
  await expect(readyCount).toHaveText('6');
  await expect(leftOut).toHaveCount(0);
  await expect(previewCost).toHaveText('USD 60.00');
  await app.screenshot('82-import-one-gift-per-row');
  await expectNoAxeViolations(page, 'wizard: import step, one gift per row chosen');
  await app.wizard.createDraft();
  await expect(app.wizard.costCount).toHaveText('6');
  await expect(page.locator('[data-testid="draft-row"][data-status="skipped"]')).toHaveCount(0);
  await app.wizard.filter('duplicates');
  await expect(duplicates).toHaveCount(3);
  await app.wizard.openConfirm();
  await expect(page.getByTestId('confirm-count')).toHaveText('6');
  await expect(page.getByTestId('confirm-total')).toHaveText('USD 60.00');
  await expect(page.getByTestId('confirm-repeats-in-campaign')).toContainText('2 people would get more than one gift from this campaign (3 extra gifts)');
  await app.screenshot('83-confirm-people-more-than-one-gift');
  await expectNoAxeViolations(page, 'wizard: confirmation, people with more than one gift');
  await app.wizard.confirmSend();
  await expect(app.campaign.root).toBeVisible();
  await app.campaign.checkUntilDelivered(6);
  await expect(app.campaign.rows('delivered')).toHaveCount(6);

  // 3. A third import: everyone already has a gift from this environment, so every row is skipped and listed.
  await importFile('Speakers, once more');
  await expect(page.getByTestId('repeats-earlier')).not.toBeChecked();
  // Six rows are for earlier recipients, but ticking that box alone adds three: the other three repeat a line.
  await expect(page.getByTestId('repeats-earlier-hint')).toHaveText(
    'Ticking this adds 3 rows to the send: valid rows for people who have a gift from an earlier campaign, left out now and listed in the draft.',
  );
  await expect(page.getByTestId('repeats-in-campaign-hint')).toHaveText(
    'Adds no row to the send on its own: the valid rows that repeat an earlier line are for people who have a gift from an earlier campaign. With the box below ticked too, it adds 3 rows.',
  );
  await expect(readyCount).toHaveText('0');
  await expect(leftOut).toHaveText('6 repeated rows will be left out');
  // Sending to earlier recipients keeps one gift per person (the repeats of a line stay out); both keep every row.
  await page.getByTestId('repeats-earlier').check();
  await expect(readyCount).toHaveText('3');
  await expect(page.getByTestId('repeats-earlier-hint')).toHaveText(
    'Adds 3 rows to the send: valid rows for people who have a gift from an earlier campaign; the confirmation asks again before a second gift is sent.',
  );
  await expect(page.getByTestId('repeats-in-campaign-hint')).toHaveText(
    'Ticking this adds 3 rows to the send: valid rows whose address repeats an earlier line, left out now (one gift per person).',
  );
  // A full-page shot of a scrolled page draws the sticky header mid-page: from the top.
  await page.locator('html').evaluate((el) => el.ownerDocument.defaultView?.scrollTo(0, 0));
  await app.screenshot('86-import-repeat-hints-earlier-ticked');
  await expect(leftOut).toHaveText('3 repeated rows will be left out');
  await expect(previewCost).toHaveText('USD 30.00');
  await inCampaign.check();
  await expect(readyCount).toHaveText('6');
  await expect(leftOut).toHaveCount(0);
  await inCampaign.uncheck();
  await page.getByTestId('repeats-earlier').uncheck();
  await expect(readyCount).toHaveText('0');
  await app.wizard.createDraft();
  await expect(page.locator('[data-testid="draft-row"][data-status="skipped"]')).toHaveCount(6);
  await expect(app.wizard.row(2).getByTestId('skip-reason')).toContainText('Had a gift before');
  await expect(page.getByTestId('wiz-send')).toBeDisabled();
  await app.screenshot('84-review-earlier-recipients-skipped');
  await expectNoAxeViolations(page, 'wizard: review step, earlier recipients skipped by policy');
});
