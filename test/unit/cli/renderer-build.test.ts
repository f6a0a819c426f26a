// The browser shell builds the renderer when its build is older than the sources. A source saved
// while a build was running is newer than that build's stamp, so it is built again (a stale build
// served a blank page to the e2e suite once).
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rendererIsFresh, writeBuildStamp } from '../../../electron/cli/web/renderer-build.ts';
import { tempDir } from '../../support/index.ts';

function tree(sourceMs: number) {
  const root = tempDir();
  for (const dir of ['renderer', 'shared']) mkdirSync(join(root, dir), { recursive: true });
  const source = join(root, 'renderer', 'App.tsx');
  writeFileSync(source, 'export {};\n');
  utimesSync(source, sourceMs / 1000, sourceMs / 1000);
  const out = join(root, 'out');
  mkdirSync(out);
  writeFileSync(join(out, 'index.html'), '<!doctype html>');
  return { root, out, source };
}

describe('the renderer build stamp', () => {
  it('a build started after the last save is fresh; a save during the build makes it stale', () => {
    const started = Date.now() - 60_000;
    const before = tree(started - 1_000);
    writeBuildStamp(before.out, started);
    expect(rendererIsFresh(before.root, before.out)).toBe(true);

    const during = tree(started + 500);
    writeBuildStamp(during.out, started);
    expect(rendererIsFresh(during.root, during.out)).toBe(false);
  });

  it('no stamp, no build: not fresh', () => {
    const { root, out } = tree(Date.now() - 5_000);
    expect(rendererIsFresh(root, out)).toBe(false);
  });
});
