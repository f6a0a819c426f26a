// The engine killed mid-send (SIGKILL) and started again on the same data: the campaign is shown
// as interrupted with what was sent and what is left, nothing is sent until Resume, and after
// Resume every recipient has exactly one order at the service.
import { expect, test } from '@playwright/test';
import { AppShell } from './pages/app-shell.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { recipientsCsv } from './support/csv.ts';
import { startWebShell, tempDir, type Child } from './support/processes.ts';
import { ordersByReference } from './support/simulator-state.ts';

const ROWS = 60;

test('a campaign killed mid-send is flagged as interrupted and resumed without a duplicate order', async ({ page }) => {
  const data = tempDir('interrupted');
  let shell: Child | null = await startWebShell(data.path);
  try {
    const app = new AppShell(page);
    await app.open(shell.url);

    // Slow the Simulator down so the kill lands mid-send.
    await page.getByRole('button', { name: 'Set up Sandbox or Production' }).click();
    await app.environments.setRate('simulator', 5);
    await expectNoAxeViolations(page, 'environments, rate saved');

    await app.nav('new');
    await app.wizard.chooseProduct('Brightleaf Coffee');
    await app.wizard.fillSetup({ name: 'Interrupted gala', sender: 'Gala team' });
    await app.wizard.next();
    await app.wizard.uploadFile(recipientsCsv(ROWS));
    await app.wizard.expectPreviewReady();
    await app.wizard.createDraft();
    await app.wizard.openConfirm();
    await expect(page.getByTestId('confirm-count')).toHaveText(String(ROWS));
    await app.wizard.confirmSend();
    await expect(app.campaign.root).toBeVisible();
    await expect.poll(async () => Number(await app.campaign.count('ordered').textContent()) + Number(await app.campaign.count('delivered').textContent())).toBeGreaterThanOrEqual(3);
    await expect(app.campaign.root).toHaveAttribute('data-send-state', 'sending');
    await expect(page.getByTestId('campaign-pause')).toBeVisible();
    await app.screenshot('06-campaign-sending');

    await shell.kill();
    shell = null;
    // Checked after the kill, not before: it takes seconds, and the send must still be under way when
    // the engine dies. The page still shows the campaign as sending, now with the engine gone.
    await expectNoAxeViolations(page, 'campaign: sending, engine stopped');
    shell = await startWebShell(data.path);
    await app.open(shell.url);

    // After the restart: flagged, with what was sent and what is left; nothing sends by itself.
    await expect(app.campaigns.root).toBeVisible();
    const row = app.campaigns.campaign('Interrupted gala');
    await expect(row).toHaveAttribute('data-paused-reason', 'interrupted');
    const flag = row.getByTestId('campaign-interrupted');
    await expect(flag).toContainText(/Interrupted: \d+ sent, \d+ left to send/);
    const [, sent, left] = /(\d+) sent, (\d+) left/.exec((await flag.textContent()) ?? '') ?? [];
    expect(Number(sent) + Number(left)).toBe(ROWS);
    expect(Number(left)).toBeGreaterThan(0);
    await app.screenshot('08-campaigns-interrupted');
    await expectNoAxeViolations(page, 'campaigns list, one interrupted');

    await app.nav('environments');
    await app.environments.setRate('simulator', 100);
    await app.nav('campaigns');
    await app.campaigns.campaign('Interrupted gala').getByTestId('campaign-resume').click();
    await expect(page.getByTestId('resume-dialog')).toBeVisible();
    await expectNoAxeViolations(page, 'resume dialog');
    await page.getByTestId('resume-confirm').click();
    await expect(app.campaign.root).toBeVisible();
    await expect(app.campaign.count('to-send')).toHaveText('0', { timeout: 60_000 });
    await expect(app.campaign.count('failed')).toHaveText('0');
    await expect.poll(async () => Number(await app.campaign.count('ordered').textContent()) + Number(await app.campaign.count('delivered').textContent())).toBe(ROWS);

    // The service's own record: one order per recipient, none twice.
    const orders = ordersByReference(data.path);
    expect(orders.size).toBe(ROWS);
    expect([...orders.values()].every((n) => n === 1)).toBe(true);
  } finally {
    await shell?.stop();
    data.remove();
  }
});
