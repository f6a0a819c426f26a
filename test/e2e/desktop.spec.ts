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
  const env: Record<string, string> = { GIFTBATCH_DATA_DIR: data.path };
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'GIFTBATCH_API_KEY' && k !== 'GIFTBATCH_DATA_DIR') env[k] = v;
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
