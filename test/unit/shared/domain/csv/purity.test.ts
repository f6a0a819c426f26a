// The shared/ modules the renderer loads run in its sandbox: they may not reach for Node or the DOM,
// nor load iconv-lite, which requires Node's 'buffer' module when it loads. Decoding a file
// (csv/decode.ts, and importCsv that calls it) runs in the engine only: the renderer
// sends the file's bytes. The modules checked are the ones the renderer's code imports, followed
// from import to import (type-only imports load nothing and are not followed).
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const repo = new URL('../../../../../', import.meta.url);
const FORBIDDEN = /from ['"](node:|fs|path|buffer|electron|iconv-lite)|\b(Buffer|window|document|require)\s*[.(]/;
const COMMENT = /\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm;
const VALUE_IMPORT = /^\s*(?:import|export)\s+(?!type\s)[^;]*?from\s+['"](\.[^'"]+)['"]/gm;

function sharedModulesOfRenderer(): string[] {
  const renderer = new URL('renderer/src/', repo);
  const pending = readdirSync(renderer, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => new URL(f, renderer).href);
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const [, path] of readFileSync(new URL(file), 'utf8').matchAll(VALUE_IMPORT)) {
      const target = new URL(path!, file).href;
      if (!target.startsWith(new URL('shared/', repo).href)) continue;
      shared.add(target.slice(repo.href.length));
      pending.push(target);
    }
  }
  return [...shared].sort();
}

describe('the shared/ modules the renderer loads stay pure', () => {
  const modules = sharedModulesOfRenderer();

  it('are found by following the renderer\'s imports', () => {
    expect(modules).toEqual(expect.arrayContaining(['shared/contract.ts', 'shared/domain/validation.ts', 'shared/domain/email.ts', 'shared/domain/csv/amount.ts']));
    expect(modules).not.toContain('shared/domain/csv/decode.ts');
  });

  it.each(modules)('%s imports no Node, DOM or Electron API', (path) => {
    expect(readFileSync(new URL(path, repo), 'utf8').replace(COMMENT, '')).not.toMatch(FORBIDDEN);
  });
});
