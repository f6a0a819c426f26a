// The whole test suite, as `npm test` runs it: static checks, the vitest projects (inside a private
// D-Bus session with an unlocked gnome-keyring, so keychain tests use the real Secret Service), and
// the Playwright suite in Chromium when it has tests. Ends with one line: `N passed, N failed`.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const artifacts = join(root, 'test', '.artifacts');
mkdirSync(artifacts, { recursive: true });

interface SuiteResult {
  name: string;
  passed: number;
  failed: number;
  skipped: number;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, ...env },
    });
    child.on('error', (error) => {
      console.error(`could not start ${command}: ${error.message}`);
      resolve(127);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

const bin = (name: string) => join(root, 'node_modules', '.bin', name);

async function check(name: string, command: string, args: string[]): Promise<SuiteResult> {
  console.log(`\n▶ ${name}`);
  const code = await run(command, args);
  return { name, passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1, skipped: 0 };
}

interface VitestJson {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  numTotalTestSuites: number;
  numFailedTestSuites: number;
}

async function vitest(): Promise<SuiteResult> {
  console.log('\n▶ vitest (unit + integration)');
  const report = join(artifacts, 'vitest.json');
  rmSync(report, { force: true });
  // A throwaway keyring home: tests never touch the user's real keychain.
  const keyringHome = mkdtempSync(join(tmpdir(), 'giftbatch-keyring-'));
  const inner = [
    'printf giftbatch-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1 || true',
    `exec "${bin('vitest')}" run --config test/vitest.config.ts --reporter=default --reporter=json --outputFile.json="${report}"`,
  ].join('; ');
  const hasDbus = existsSync('/usr/bin/dbus-run-session');
  const code = hasDbus
    ? await run('dbus-run-session', ['--', 'sh', '-c', inner], { XDG_DATA_HOME: keyringHome, GIFTBATCH_REQUIRE_KEYCHAIN: '1' })
    : await run(bin('vitest'), ['run', '--config', 'test/vitest.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`]);
  rmSync(keyringHome, { recursive: true, force: true });
  if (!existsSync(report)) return { name: 'vitest', passed: 0, failed: 1, skipped: 0 };
  const json = JSON.parse(readFileSync(report, 'utf8')) as VitestJson;
  // A file that fails to load has no tests to count: count it as a failure so it cannot hide.
  const brokenFiles = code !== 0 && json.numFailedTests === 0 ? Math.max(1, json.numFailedTestSuites) : 0;
  return {
    name: 'vitest',
    passed: json.numPassedTests,
    failed: json.numFailedTests + brokenFiles,
    skipped: json.numPendingTests + json.numTodoTests,
  };
}

interface PlaywrightJson {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
}

async function playwright(): Promise<SuiteResult | null> {
  const e2e = join(root, 'test', 'e2e');
  if (!existsSync(e2e) || !readdirSync(e2e).some((f) => f.endsWith('.spec.ts'))) return null;
  console.log('\n▶ playwright (Chromium, end to end)');
  const report = join(artifacts, 'playwright.json');
  rmSync(report, { force: true });
  const code = await run(bin('playwright'), ['test', '--config', 'test/playwright.config.ts'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: report,
  });
  if (!existsSync(report)) return { name: 'playwright', passed: 0, failed: 1, skipped: 0 };
  const { stats } = JSON.parse(readFileSync(report, 'utf8')) as PlaywrightJson;
  const failed = stats.unexpected + (code !== 0 && stats.unexpected === 0 ? 1 : 0);
  return { name: 'playwright', passed: stats.expected + stats.flaky, failed, skipped: stats.skipped };
}

const only = process.argv.slice(2);
const wanted = (name: string) => only.length === 0 || only.includes(name);
const results: SuiteResult[] = [];
if (wanted('lint')) results.push(await check('lint (layers and code rules)', bin('eslint'), ['--config', 'test/eslint.config.js', '.']));
if (wanted('typecheck')) results.push(await check('typecheck (node and web)', bin('tsc'), ['-b']));
if (wanted('electronegativity')) {
  results.push(await check('electronegativity (no finding at medium or above)', process.execPath, ['--import', 'tsx', 'test/support/electronegativity.ts']));
}
if (wanted('vitest')) results.push(await vitest());
if (wanted('playwright')) {
  const e2e = await playwright();
  if (e2e) results.push(e2e);
}

console.log('\nSuites:');
for (const r of results) {
  console.log(`  ${r.name}: ${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''}`);
}
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
const skipped = results.reduce((n, r) => n + r.skipped, 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exitCode = failed === 0 ? 0 : 1;
