// The browser shell serves the renderer built by `npx electron-vite build` (out/renderer). When
// that build is missing or older than the renderer's sources, it is built here with Vite first, so
// `npm run web` works on a fresh checkout. Built into a temporary folder and renamed, so a second
// shell starting at the same moment never serves half a build.
import { cspHtmlPlugin } from '../../core/app/csp.ts';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const STAMP = '.giftbatch-build';

function newestMtime(dir: string): number {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    if (full.includes('node_modules')) continue;
    newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

export function rendererIsFresh(root: string, outDir: string): boolean {
  const stamp = join(outDir, STAMP);
  if (!existsSync(join(outDir, 'index.html')) || !existsSync(stamp)) return false;
  const built = statSync(stamp).mtimeMs;
  return newestMtime(join(root, 'renderer')) <= built && newestMtime(join(root, 'shared')) <= built;
}

/**
 * Marks a build as made from the sources as they were at `startedMs`, the time it STARTED: a source
 * saved while Vite was reading the sources is newer than the stamp, so the next start builds again
 * instead of serving a build without it.
 */
export function writeBuildStamp(outDir: string, startedMs: number): void {
  const stamp = join(outDir, STAMP);
  writeFileSync(stamp, `${new Date(startedMs).toISOString()}\n`);
  utimesSync(stamp, startedMs / 1000, startedMs / 1000);
}

/** Builds renderer/ into outDir with Vite; Vite's chatter goes to stderr (stdout carries one line only). */
export async function buildRenderer(root: string, outDir: string, log: (line: string) => void): Promise<void> {
  const started = Date.now();
  const temp = `${outDir}.building-${process.pid}`;
  const [{ build, createLogger }, { default: react }] = await Promise.all([import('vite'), import('@vitejs/plugin-react')]);
  const logger = createLogger('warn');
  const toStderr = (msg: string) => log(msg);
  Object.assign(logger, { info: toStderr, warn: toStderr, warnOnce: toStderr, error: toStderr });
  mkdirSync(temp, { recursive: true });
  try {
    await build({
      root: join(root, 'renderer'),
      base: './',
      configFile: false,
      plugins: [react(), cspHtmlPlugin()],
      customLogger: logger,
      logLevel: 'warn',
      build: { outDir: temp, emptyOutDir: true, reportCompressedSize: false },
    });
    writeBuildStamp(temp, started);
    rmSync(outDir, { recursive: true, force: true });
    renameSync(temp, outDir);
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
  log(`Built the renderer into ${outDir} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}
