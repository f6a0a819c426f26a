import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));

// Two projects: unit tests are pure and fast; integration tests use real parts
// (a SQLite file, the simulator over HTTP, the OS keychain) and run one file at a time.
export default defineConfig({
  root,
  test: {
    // Removes the temp folders a test file made, after it (test/support/temp-dirs.ts).
    setupFiles: ['test/support/vitest-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
