// shared/ runs in the sandboxed renderer as well as in the engine: it may not reach for Node or the DOM,
// nor load iconv-lite, which requires Node's 'buffer' module when it loads.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../../../shared/domain/', import.meta.url);
const files = [
  ...readdirSync(new URL('csv/', root)).map((f) => new URL(`csv/${f}`, root)),
  new URL('validation.ts', root),
  new URL('email.ts', root),
];
const FORBIDDEN = /from ['"](node:|fs|path|buffer|electron|iconv-lite)|\b(Buffer|window|document|require)\s*[.(]/;

describe('CSV import modules stay pure', () => {
  it.each(files.map((f) => [f.pathname.split('/shared/')[1]!, f] as const))('%s imports no Node, DOM or Electron API', (_name, file) => {
    expect(readFileSync(file, 'utf8')).not.toMatch(FORBIDDEN);
  });
});
