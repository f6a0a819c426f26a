// End-to-end tests in Chromium against the browser shell (`npm run web`): the real renderer, the
// real engine, the embedded simulator. Each test starts its own shell on its own data folder.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  testDir: './e2e',
  testMatch: '*.spec.ts',
  outputDir: './.artifacts/playwright-results',
  globalSetup: './e2e/support/global-setup.ts',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  // Two cores, shared: two shells at a time keeps the suite short without starving the engines.
  workers: 2,
  fullyParallel: true,
  retries: 0,
  // `npm test` names the JSON report's file through PLAYWRIGHT_JSON_OUTPUT_NAME; alone, it goes beside the screenshots.
  reporter: [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? join(here, '.artifacts', 'playwright.json') }]],
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 820 },
    acceptDownloads: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    },
  },
  metadata: { root: here },
});
