// Issue 13, follow-up campaigns: a campaign whose orders were refused for the balance has failed
// rows; "Follow-up campaign…" shows the counts per kind and says plainly that cancelled or expired
// rows had orders; it makes a new draft of the failed rows, which opens for review and is sent the
// usual way (pre-flight, confirmation), each row as a new order under a new reference.
import { setSimulatorBalance } from '../support/cli.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { startSimulator, type Child } from './support/processes.ts';

const KEY = 'e2e-follow-up-key-0413';
const PRODUCT = 'Brightleaf Coffee eGift $10';
const ROWS = 8;

let service: Child;

test.use({ shellEnv: { GIFTBATCH_API_KEY: KEY } });

test.beforeAll(async () => {
  service = await startSimulator(['--item-delay', '60000']);
});

test.afterAll(async () => {
  await service.stop();
});

const setBalance = (balance: string): Promise<void> => setSimulatorBalance(service.url, KEY, balance);

type Audit = { accounts: Record<string, { orders: { externalReferenceId: string }[] }> };

test('a follow-up campaign of the failed rows is a new draft, reviewed and sent as new gifts', async ({ app, shell, page }) => {
  await setBalance('30.00');
  await app.open(shell.url);
  await app.nav('environments');
  await app.environments.setAddress('sandbox', service.url);
  await app.environments.use('sandbox');

  await app.nav('new');
  await app.wizard.chooseProduct(PRODUCT);
  await app.wizard.fillSetup({ name: 'Coffee for the crew', sender: 'Events team' });
  await app.wizard.next();
  const csv = ['Name,Email', ...Array.from({ length: ROWS }, (_, i) => `Crew ${i + 1},crew${i + 1}@example.net`)].join('\r\n');
  await app.wizard.uploadFile({ name: 'crew.csv', mimeType: 'text/csv', buffer: Buffer.from(`${csv}\r\n`, 'utf8') });
  await app.wizard.expectPreviewReady();
  await app.wizard.createDraft();
  await app.wizard.openConfirm();
  await app.wizard.confirmSend();

  // Room for three gifts; the next three are refused for the balance and the campaign pauses.
  await expect(page.getByTestId('banner-refused')).toBeVisible({ timeout: 30_000 });
  await expect(app.campaign.count('failed')).toHaveText('3');
  await expect(page.getByTestId('campaign-retry-failed')).toHaveText('Retry 3 failed');
  // The pause is announced by an error notice that names the campaign and, for now, advises the retry.
  const notices = page.getByTestId('notice');
  const pauseNotice = notices.filter({ hasText: 'refused 3 orders in a row' });
  await expect(pauseNotice).toHaveAttribute('role', 'alert');
  await expect(pauseNotice).toContainText('Coffee for the crew: The service refused');
  await expect(pauseNotice).toContainText('retry the failed rows, then resume.');

  await page.getByTestId('campaign-follow-up').click();
  const dialog = page.getByTestId('follow-up-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('the same product, sender and environment');
  await expect(dialog.getByTestId('follow-up-failed')).toContainText('3 rows that failed');
  await expect(dialog.getByTestId('follow-up-failed').getByRole('checkbox')).toBeChecked();
  await expect(dialog.getByTestId('follow-up-cancelled').getByRole('checkbox')).toBeDisabled();
  await expect(dialog.getByTestId('follow-up-expired').getByRole('checkbox')).toBeDisabled();
  // When Retry is the better choice (the same rows, their own references, this campaign), and what a follow-up is for.
  await expect(dialog.getByTestId('follow-up-or-retry')).toContainText('then press "Retry 3 failed": the same rows, under their own references, in this campaign');
  await expect(dialog.getByTestId('follow-up-or-retry')).toContainText('Choose a follow-up for rows whose order was cancelled or whose link expired, or that you want to send differently');
  await expect(dialog.getByTestId('follow-up-orders-note')).toContainText('Cancelled and expired rows had orders');
  await expect(dialog.getByTestId('follow-up-orders-note')).toContainText('a new gift');
  await expect(dialog.getByTestId('follow-up-name')).toHaveValue('Coffee for the crew (follow-up)');
  await expect(dialog.getByTestId('follow-up-confirm')).toHaveText('Make a draft with 3 rows');
  await app.screenshot('40-follow-up-dialog');
  await expectNoAxeViolations(page, 'follow-up dialog');

  await dialog.getByTestId('follow-up-confirm').click();
  // The new draft opens for review, with the three failed rows and what they cost.
  await app.wizard.expectStep('review');
  await expect(app.wizard.costCount).toContainText('3');
  await expect(app.wizard.costTotal).toContainText('30.00');
  await expect(page.getByTestId('draft-row')).toHaveCount(3);
  // No notice still tells the person to retry the rows the follow-up just took: the pause's notice
  // now says what its banner says (where they went, what Resume still sends there).
  await expect(pauseNotice).toContainText('Coffee for the crew: ');
  await expect(pauseNotice).toContainText('3 failed rows went to follow-up campaign "Coffee for the crew (follow-up)" and are sent from there');
  await expect(pauseNotice).toContainText('then resume to send the 2 rows still to send here.');
  await expect(notices.filter({ hasText: /retry the( \d+ other)? failed rows/ })).toHaveCount(0);
  await app.screenshot('41-follow-up-draft-review');
  await expectNoAxeViolations(page, 'follow-up draft: review');

  await setBalance('500.00');
  await app.wizard.openConfirm();
  await app.wizard.confirmSend();
  await expect(app.campaign.root).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Coffee for the crew (follow-up)');
  await expect(app.campaign.count('ordered')).toHaveText('3', { timeout: 30_000 });
  await app.screenshot('42-follow-up-sent');

  // Six orders in all, each under its own reference; the first campaign still has its three failed rows.
  const audit = (await (await fetch(`${service.url}/__audit`)).json()) as Audit;
  const orders = audit.accounts[KEY]?.orders ?? [];
  expect(orders).toHaveLength(6);
  expect(new Set(orders.map((o) => o.externalReferenceId)).size).toBe(6);
  await app.nav('campaigns');
  await expect(app.campaigns.root.getByTestId('campaign-row')).toHaveCount(2);
  // Each row's border runs the table's full width: every cell, the actions one included, ends on one line (the actions cell was a flex box that stopped short of it).
  const cellBottoms = await app.campaigns.root
    .getByTestId('campaign-row')
    .evaluateAll((rows) => rows.map((tr) => [...new Set([...tr.children].map((td) => Math.round(td.getBoundingClientRect().bottom)))].length));
  expect(cellBottoms).toEqual([1, 1]);
  await app.campaigns.root.getByTestId('campaign-open').filter({ hasText: /^Coffee for the crew$/ }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Coffee for the crew');
  await expect(app.campaign.count('failed')).toHaveText('3');
  await expect(app.campaign.count('ordered')).toHaveText('3');
  // Those failed rows were sent from the follow-up: a retry here would put back none, so it is not offered.
  await expect(page.getByTestId('campaign-retry-failed')).toHaveCount(0);
  // Nor is another follow-up: the follow-up took every row there was to follow up.
  await expect(page.getByTestId('campaign-follow-up')).toHaveCount(0);
  // The pause no longer asks to retry the failed rows: it says where they went and what Resume still sends.
  const banner = page.getByTestId('banner-refused');
  await expect(banner).toContainText('3 failed rows went to follow-up campaign "Coffee for the crew (follow-up)" and are sent from there');
  await expect(banner).toContainText('then resume to send the 2 rows still to send here.');
  await expect(banner).not.toContainText('retry the failed rows');
  await expect(notices.filter({ hasText: /retry the( \d+ other)? failed rows/ })).toHaveCount(0);
  await expect(page.getByTestId('campaign-resume')).toBeVisible();
  await app.screenshot('43-follow-up-source-no-retry');
  await expectNoAxeViolations(page, 'campaign whose failed rows a follow-up took');
});
