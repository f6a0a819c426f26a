// The Sandbox environment pointed at a service that accepts one key only: a wrong key is stored
// (shown only by its last characters) and the connection test says plainly that it was refused.
import { expectNoAxeViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { startSimulator, type Child } from './support/processes.ts';

let service: Child;

test.beforeAll(async () => {
  service = await startSimulator(['--keys', 'good-key-5678']);
});

test.afterAll(async () => {
  await service.stop();
});

test('a rejected key is reported by the connection test, and the right key passes', async ({ app, shell, page }) => {
  await app.open(shell.url);
  await app.nav('environments');
  await expect(app.environments.root).toBeVisible();
  await expect(app.environments.card('simulator').getByTestId('env-simulator-in-use')).toBeVisible();
  await expectNoAxeViolations(page, 'environments');

  await app.environments.setAddress('sandbox', service.url);
  // A key the engine will not save says why by the key field, and still says it after a connection test.
  await app.environments.setKey('sandbox', 'wrong key 1234');
  const keyError = page.getByTestId('env-sandbox-key-error');
  await expect(keyError).toContainText('Key not saved: The API key contains spaces');
  await expect(page.getByTestId('env-sandbox-key')).toHaveAttribute('aria-describedby', 'env-sandbox-key-error');
  await app.screenshot('10a-environments-key-not-saved');
  await app.environments.testConnection('sandbox');
  await expect(keyError).toBeVisible();
  await app.environments.setKey('sandbox', 'wrong-key-1234');
  await expect(keyError).toHaveCount(0);
  await expect(app.environments.keyStatus('sandbox')).toContainText('Set, ending …1234');
  await expect(page.getByTestId('env-sandbox-key')).toHaveValue('');
  await expect(page.getByText('wrong-key-1234')).toHaveCount(0);

  const refused = await app.environments.testConnection('sandbox');
  await expect(refused).toContainText('✗');
  await expect(refused).toContainText(/key|refused|unauthori[sz]ed|401/i);
  await app.screenshot('10-environments-key-rejected');
  await expectNoAxeViolations(page, 'environments, key rejected');
  // Use Sandbox right after its test failed asks first.
  await page.getByTestId('env-sandbox-use').click();
  await expect(page.getByTestId('env-sandbox-use-warning')).toContainText('The last connection test of Sandbox failed (its answer is under Test connection below)');
  await app.screenshot('10b-environments-use-after-failed-test');
  await page.getByTestId('env-sandbox-use-warning').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('env-sandbox-use-warning')).toHaveCount(0);
  await expect(page.getByTestId('env-simulator-in-use')).toBeVisible();

  await app.environments.setKey('sandbox', 'good-key-5678');
  await expect(app.environments.keyStatus('sandbox')).toContainText('…5678');
  const accepted = await app.environments.testConnection('sandbox');
  await expect(accepted).toContainText('✓');

  // Switching to Sandbox takes the Simulator badge away: real service, real gifts.
  await app.environments.use('sandbox');
  await expect(app.simulatorBadge).toHaveCount(0);
  await expect(page.getByTestId('current-environment')).toHaveAttribute('data-environment', 'sandbox');
  await expectNoAxeViolations(page, 'environments, Sandbox in use');
});
