// The suite's fixtures: a fresh data folder and a browser shell on it for each test, and the page
// objects over the test's page.
import { test as base } from '@playwright/test';
import { AppShell } from '../pages/app-shell.ts';
import { startWebShell, tempDir, type Child } from './processes.ts';

interface Fixtures {
  /** Extra environment of the browser shell (`test.use({ shellEnv: { GIFTBATCH_API_KEY: '…' } })`). */
  shellEnv: Record<string, string>;
  dataDir: string;
  shell: Child;
  app: AppShell;
}

export const test = base.extend<Fixtures>({
  shellEnv: [{}, { option: true }],
  // eslint-disable-next-line no-empty-pattern
  dataDir: async ({}, use) => {
    const dir = tempDir('data');
    await use(dir.path);
    dir.remove();
  },
  shell: async ({ dataDir, shellEnv }, use, testInfo) => {
    const shell = await startWebShell(dataDir, shellEnv);
    await use(shell);
    await shell.stop();
    if (testInfo.status !== testInfo.expectedStatus) await testInfo.attach('web shell output', { body: shell.output() });
  },
  app: async ({ page }, use) => {
    await use(new AppShell(page));
  },
});

export { expect } from '@playwright/test';
