// The desktop shell over the same page objects, with Playwright's Electron driver. Runs where
// Electron's binary exists; elsewhere it is reported as skipped with the reason.
import { _electron as electron, expect, test } from '@playwright/test';
import { join } from 'node:path';
import { AppShell } from './pages/app-shell.ts';
import { electronBinary } from './support/electron-binary.ts';
import { ROOT } from './support/paths.ts';
import { tempDir } from './support/processes.ts';

const binary = electronBinary();

test('desktop: first launch on the Simulator shows the welcome and the badge', async () => {
  test.skip('missing' in binary, 'missing' in binary ? binary.missing : '');
  if (!('path' in binary)) return;
  const data = tempDir('desktop');
  const env: Record<string, string | undefined> = { ...process.env, GIFTBATCH_DATA_DIR: data.path };
  delete env.GIFTBATCH_API_KEY;
  const app = await electron.launch({ executablePath: binary.path, args: [join(ROOT, 'out', 'main', 'index.js')], env });
  try {
    const page = await app.firstWindow();
    const shell = new AppShell(page);
    await expect(shell.root).toHaveAttribute('data-state', 'ready');
    await expect(shell.welcome.root).toBeVisible();
    await expect(shell.simulatorBadge).toBeVisible();
  } finally {
    await app.close();
    data.remove();
  }
});
