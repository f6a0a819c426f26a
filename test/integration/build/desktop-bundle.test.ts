// The desktop app as electron-vite builds it (Electron's binary cannot run here, so this is as close
// as the suite gets to a real organiser's machine): one build into a folder inside the repo (so the
// bundle's bare imports resolve from node_modules as they do from app.asar's), then
// - the layout: every file the main process loads at run time is where the code looks for it;
// - the bundle's bare imports: only Node, 'electron' and package.json's `dependencies` (what
//   electron-builder packs), never a devDependency or tsx; the sandboxed preload requires 'electron' only;
// - the built main process RUN under Node with a recording fake of Electron
//   (test/support/fake-electron/): data folder, single-instance lock, one IPC handler per contract
//   call registered before the window exists, calls from the window and a forged frame, the sample
//   file from the resources folder, the BUILT import worker through a preview and a create whose
//   progress reaches the window, a quit held until the engine closed, then the process ends by
//   itself; and a start that fails says so in a dialog and exits 1.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative as relativePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, events } from '../../../shared/contract.ts';
import { documentPolicy } from '../../../electron/core/app/csp.ts';
import { CALL_NAMES } from '../../../electron/preload/channels.ts';
import { DATABASE_FILE } from '../../../electron/core/paths.ts';
import { tempDir } from '../../support/index.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
const buildRoot = join(root, 'node_modules', '.cache', `giftbatch-desktop-build-${process.pid}`);
const out = join(buildRoot, 'out');

function run(file: string, args: string[], env: NodeJS.ProcessEnv = {}, timeout = 60_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: root, env: { ...process.env, ...env }, timeout, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

let buildMs = 0;
beforeAll(async () => {
  mkdirSync(buildRoot, { recursive: true });
  const started = performance.now();
  const built = await run(process.execPath, [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build', '--outDir', out, '--logLevel', 'warn']);
  buildMs = performance.now() - started;
  if (built.code !== 0) throw new Error(`electron-vite build failed (${built.code}):\n${built.stderr}`);
}, 120_000);

afterAll(() => {
  rmSync(buildRoot, { recursive: true, force: true });
});

const mainFiles = () => readdirSync(join(out, 'main')).map((name) => join(out, 'main', name));

/** Every module specifier a built file loads: static imports, re-exports, dynamic imports and requires. */
function specifiers(code: string): string[] {
  const found = new Set<string>();
  for (const pattern of [/^\s*(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']/gm, /^\s*import\s*["']([^"']+)["']/gm, /\bimport\(\s*["']([^"']+)["']\s*\)/g, /\brequire\(\s*["']([^"']+)["']\s*\)/g]) {
    for (const match of code.matchAll(pattern)) found.add(match[1]!);
  }
  return [...found];
}

const packageOf = (specifier: string) => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!);

describe('the built desktop app', () => {
  it('builds within the time the suite allows', () => {
    expect(buildMs).toBeLessThan(60_000);
  });

  it('puts every file the main process loads where it looks: the worker beside the entry, one flat folder, the preload and the page where window.ts points', () => {
    const files = readdirSync(join(out, 'main'), { withFileTypes: true });
    // import.meta.dirname and import.meta.url are the same in every chunk only if none is in a subfolder.
    expect(files.filter((f) => !f.isFile()).map((f) => f.name)).toEqual([]);
    expect(files.map((f) => f.name)).toEqual(expect.arrayContaining(['index.js', 'import-worker.js']));
    expect(files.map((f) => f.name).filter((n) => !n.endsWith('.js'))).toEqual([]);
    // Every relative import of every chunk is a file of the build.
    for (const file of mainFiles()) {
      for (const spec of specifiers(readFileSync(file, 'utf8')).filter((s) => s.startsWith('.'))) {
        expect(existsSync(fileURLToPath(new URL(spec, `file://${file}`))), `${file} imports ${spec}`).toBe(true);
      }
    }
    // window.ts: join(import.meta.dirname, '../preload/index.cjs') and '../renderer/index.html'.
    expect(existsSync(join(out, 'main', '../preload/index.cjs'))).toBe(true);
    expect(existsSync(join(out, 'main', '../renderer/index.html'))).toBe(true);
    // The source-only starter of the worker (tsx) is never part of the build.
    for (const file of mainFiles()) expect(readFileSync(file, 'utf8')).not.toMatch(/from\s*["'][^"']*\.ts["']|tsx\/esm/);
  });

  it('loads only Node, electron and package.json dependencies at run time: no devDependency, no tsx', () => {
    const allowed = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`), 'electron', ...Object.keys(pkg.dependencies)]);
    const bare = new Set(mainFiles().flatMap((file) => specifiers(readFileSync(file, 'utf8'))).filter((s) => !s.startsWith('.')));
    const packages = [...bare].map((s) => (s.startsWith('node:') ? s : packageOf(s)));
    expect(packages.filter((p) => !allowed.has(p))).toEqual([]);
    expect(packages.filter((p) => p in pkg.devDependencies && p !== 'electron')).toEqual([]);
    // The native modules are imported, not bundled (electron-builder unpacks them from asar).
    expect(packages).toEqual(expect.arrayContaining(['better-sqlite3', 'keytar']));
    const yml = readFileSync(join(root, 'electron-builder.yml'), 'utf8');
    for (const native of ['better-sqlite3', 'keytar']) expect(yml).toContain(`  - node_modules/${native}/**`);
  });

  it('makes the preload one CommonJS file that requires electron only (a sandboxed preload can load nothing else)', () => {
    const preload = readFileSync(join(out, 'preload/index.cjs'), 'utf8');
    expect(specifiers(preload)).toEqual(['electron']);
    expect(preload).not.toMatch(/^\s*(import|export)\s/m);
    expect(readdirSync(join(out, 'preload'))).toEqual(['index.cjs']);
  });

  it('makes a page that loads from file://: relative assets that exist, and the policy in its <meta>', () => {
    const html = readFileSync(join(out, 'renderer/index.html'), 'utf8');
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      expect(asset, 'an absolute path would point at the root of the disk under file://').toMatch(/^\.\//);
      expect(existsSync(join(out, 'renderer', asset)), asset).toBe(true);
    }
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${documentPolicy()}"`);
  });
});

interface SmokeResult {
  userData: string | null;
  lockRequested: boolean;
  errorBoxes: { title: string; content: string }[];
  exitCode: number | null;
  windows?: number;
  handlersAtWindowCreation?: number;
  preload?: string;
  loaded?: string;
  handlers?: string[];
  info?: { ok: boolean; value?: { shell: string; version: string } };
  forged?: { ok: boolean; error?: { code: string } };
  sample?: { ok: boolean; bytes?: number };
  productFound?: boolean;
  preview?: { ok: boolean };
  created?: { ok: boolean; ready?: number };
  progressSent?: { progressId: string; stored: number; total: number | null }[];
  ended: string;
  quits: string[];
}

async function driveBuiltMain(dataDir: string, mode: 'smoke' | 'start'): Promise<{ result: SmokeResult; code: number | null; stderr: string; ms: number }> {
  const support = join(root, 'test/support/fake-electron');
  const started = performance.now();
  const ran = await run(process.execPath, ['--import', join(support, 'register.mjs'), join(support, 'drive-main.mjs'), join(out, 'main/index.js'), mode], { GIFTBATCH_DATA_DIR: dataDir }, 45_000);
  const line = ran.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`the built main process gave no result (exit ${ran.code}):\n${ran.stderr}`);
  return { result: JSON.parse(line.slice('RESULT '.length)) as SmokeResult, code: ran.code, stderr: ran.stderr, ms: performance.now() - started };
}

describe('the built main process, run under Node with a fake Electron', () => {
  it('opens the data folder, answers the window over IPC, runs the built import worker, forwards progress, and quits cleanly', async () => {
    const dataDir = join(tempDir(), 'data');
    const { result, code, stderr, ms } = await driveBuiltMain(dataDir, 'smoke');
    expect(result.errorBoxes, stderr).toEqual([]);
    // The data folder is core/paths.ts's (GIFTBATCH_DATA_DIR here), the one the CLI uses; the lock lives in it.
    expect(result.userData).toBe(dataDir);
    expect(result.lockRequested).toBe(true);
    expect(existsSync(join(dataDir, DATABASE_FILE))).toBe(true);
    // One window, made only once every handler was registered (a second launch during start made none).
    expect(result.windows).toBe(1);
    expect(result.handlers?.slice().sort()).toEqual(Object.keys(contract).sort());
    expect(result.handlersAtWindowCreation).toBe(Object.keys(contract).length);
    expect([...CALL_NAMES].sort()).toEqual(Object.keys(contract).sort());
    expect(Object.keys(events)).toContain('campaigns:createProgress');
    expect(result.preload).toBe(join(out, 'preload/index.cjs'));
    expect(result.loaded).toBe(join(out, 'renderer/index.html'));
    // Calls from the window's own page are answered; a forged frame is refused.
    expect(result.info).toMatchObject({ ok: true, value: { shell: 'desktop', version: '9.9.9-fake' } });
    expect(result.forged).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    // The sample file is found under process.resourcesPath, where extraResources puts it.
    expect(result.sample).toMatchObject({ ok: true });
    expect(result.sample?.bytes).toBeGreaterThan(0);
    // The built worker (out/main/import-worker.js) checks and stores the file.
    expect(result.productFound).toBe(true);
    expect(result.preview).toMatchObject({ ok: true });
    expect(result.created).toEqual({ ok: true, ready: 1_500 });
    expect(result.progressSent?.map((p) => p.progressId)).toEqual(expect.arrayContaining(['built-1']));
    expect(result.progressSent?.at(-1)).toMatchObject({ stored: 1_500, total: 1_500 });
    // The quit was held while the service and the engine closed, then went through; and nothing the
    // app started (server, worker, timer) kept the process alive.
    expect(result.quits).toEqual(['prevented', 'quit']);
    expect(result.ended).toBe('quit');
    expect(code).toBe(0);
    expect(ms).toBeLessThan(30_000);
    const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) AS n FROM recipients').get()).toEqual({ n: 1_500 });
    } finally {
      db.close();
    }
  });

  it('takes a relative GIFTBATCH_DATA_DIR as the absolute folder it names (Electron refuses a relative userData)', async () => {
    const parent = tempDir();
    const relative = relativePath(root, join(parent, 'relative-data'));
    const { result, stderr } = await driveBuiltMain(relative, 'start');
    expect(result.errorBoxes, stderr).toEqual([]);
    expect(result.userData).toBe(join(parent, 'relative-data'));
  });

  it('a start that fails (the data folder cannot be made) says so in a dialog and exits 1, not silently', async () => {
    const blocker = join(tempDir(), 'not-a-folder');
    writeFileSync(blocker, 'x');
    const { result } = await driveBuiltMain(blocker, 'start');
    expect(statSync(blocker).isFile()).toBe(true);
    expect(result.exitCode).toBe(1);
    expect(result.errorBoxes).toEqual([{ title: 'Giftbatch could not start', content: expect.stringContaining(blocker) }]);
  });
});
