// A large file's "Save as draft and review": the import step shows how far the saving is (the
// engine's campaigns:createProgress) with a bar and "N of 60,000 rows saved", and nothing of it once
// the draft is made.
import { expect, test } from './support/fixtures.ts';
import { recipientsCsv } from './support/csv.ts';

const ROWS = 60_000;

test('saving a draft of 60,000 rows shows the rows saved as it goes, then the review', async ({ app, shell, page }) => {
  test.slow();
  await app.open(shell.url);
  await app.nav('new');
  await app.wizard.chooseProduct('Northwind Books');
  await app.wizard.fillSetup({ name: 'Sixty thousand', sender: 'Big event' });
  await app.wizard.next();
  await app.wizard.uploadFile(recipientsCsv(ROWS));
  await app.wizard.expectPreviewReady();
  await expect(page.getByTestId('preview-valid')).toHaveText('60,000');
  await expect(page.getByTestId('create-progress')).toHaveCount(0);

  await app.wizard.createButton.click();
  await expect(app.wizard.createButton).toHaveText('Saving the draft…');
  const text = page.getByTestId('create-progress-text');
  // A figure part-way: some rows saved, not yet all of them.
  await expect(text).toHaveText(/^(?!60,000 of)\d{1,2},\d{3} of 60,000 rows saved$/, { timeout: 30_000 });
  const bar = page.getByTestId('create-progress').getByRole('progressbar', { name: 'Saving the draft' });
  await expect(bar).toHaveAttribute('aria-valuemax', '60000');
  const now = Number(await bar.getAttribute('aria-valuenow'));
  expect(now).toBeGreaterThan(0);
  expect(now).toBeLessThan(ROWS);
  await app.screenshot('90-saving-draft-progress');
  // It moves on while the rows go in (or the draft is already made).
  await expect
    .poll(async () => (await bar.isVisible()) ? Number(await bar.getAttribute('aria-valuenow')) : ROWS, { timeout: 30_000 })
    .toBeGreaterThan(now);

  await app.wizard.expectStep('review');
  await expect(page.getByTestId('draft-table')).toBeVisible();
  await expect(page.getByTestId('filter-all')).toContainText('60000');
  await expect(page.getByTestId('create-progress')).toHaveCount(0);
});

test('Stop while a large draft is being saved: nothing is saved, the file and choices stay, and it saves again', async ({ app, shell, page }) => {
  test.slow();
  await app.open(shell.url);
  await app.nav('new');
  await app.wizard.chooseProduct('Northwind Books');
  await app.wizard.fillSetup({ name: 'Stopped then saved', sender: 'Big event' });
  await app.wizard.next();
  await app.wizard.uploadFile(recipientsCsv(ROWS));
  await app.wizard.expectPreviewReady();

  await app.wizard.createButton.click();
  const stop = page.getByRole('button', { name: 'Stop saving' });
  // Reached by the keyboard while the file is checked; pressed once some rows are saved.
  await app.focusByTab(stop);
  await expect(page.getByTestId('create-progress-text')).toHaveText(/^\d{1,2},\d{3} of 60,000 rows saved$/, { timeout: 30_000 });
  await expect(stop).toBeFocused();
  await page.keyboard.press('Enter');

  const stopped = page.getByTestId('create-stopped');
  await expect(stopped).toHaveText(/^Saving the draft was stopped: nothing was saved and no campaign was created\./, { timeout: 30_000 });
  await expect(page.getByTestId('create-progress')).toHaveCount(0);
  await expect(page.getByTestId('create-error')).toHaveCount(0);
  // Still the import step, with the file read as before and the button ready.
  await expect(page.getByTestId('preview-valid')).toHaveText('60,000');
  await expect(app.wizard.createButton).toHaveText('Save as draft and review');
  await expect(app.wizard.createButton).toBeEnabled();
  await app.screenshot('91-saving-draft-stopped');

  await app.wizard.createButton.click();
  await expect(stopped).toHaveCount(0);
  await app.wizard.expectStep('review');
  await expect(page.getByTestId('filter-all')).toContainText('60000');
  // One campaign: the stopped save made none.
  await app.nav('campaigns');
  await expect(page.getByTestId('campaign-row')).toHaveCount(1);
  await expect(page.getByTestId('campaign-row')).toContainText('Stopped then saved');
});

test('a Stop that comes too late says the draft is being saved, never "Stopping…", and the draft is shown', async ({ app, shell, page }) => {
  test.slow();
  await app.open(shell.url);
  await app.nav('new');
  await app.wizard.chooseProduct('Northwind Books');
  await app.wizard.fillSetup({ name: 'Saved anyway', sender: 'Big event' });
  await app.wizard.next();
  await app.wizard.uploadFile(recipientsCsv(3_000));
  await app.wizard.expectPreviewReady();

  // The create goes to the real server and saves; its answer is held back from the page (a slow
  // network, injected) until the Stop pressed meanwhile has been answered by the engine: 'saved'.
  let saved!: () => void;
  const savedOnServer = new Promise<void>((resolve) => (saved = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/campaigns:create', async (route) => {
    const response = await route.fetch();
    saved();
    await released;
    await route.fulfill({ response });
  });
  await app.wizard.createButton.click();
  await savedOnServer;
  await page.getByRole('button', { name: 'Stop saving' }).click();
  const late = page.getByTestId('create-stop-late');
  await expect(late).toHaveText(/^Too late to stop: the draft is already saved, with all its rows\./);
  await expect(page.getByRole('button', { name: /Stop saving|Stopping/ })).toHaveCount(0);
  await expect(page.getByTestId('create-progress-text')).not.toHaveText(/Stopping/);
  await app.screenshot('93-stop-too-late');

  release();
  await app.wizard.expectStep('review');
  await expect(page.getByTestId('filter-all')).toContainText('3000');
  await expect(page.getByTestId('create-progress')).toHaveCount(0);
});
