// The README's commands work on a fresh clone: each npm script a person runs first sets the machine
// up (.ci/setup.sh installs the npm packages and builds the native modules for Node), so
// `npm run web` or `npm run -s giftbatch -- …` before any `npm start` does not end in
// "Cannot find package 'tsx'", and after the desktop app rebuilt the native modules for Electron
// the CLI and the browser shell get them back for Node.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const scripts = (JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts;

describe('package.json scripts a person runs set the machine up first', () => {
  it.each(['start', 'web', 'giftbatch'])('npm run %s runs `.ci/setup.sh app` before it', (name) => {
    expect(scripts[`pre${name}`]).toBe('bash .ci/setup.sh app');
  });

  it('npm test sets up what the test suites need too', () => {
    expect(scripts.pretest).toBe('bash .ci/setup.sh test');
  });
});
