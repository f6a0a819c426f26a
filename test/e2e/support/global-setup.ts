// Builds the renderer once before the shells start (each shell then runs with --no-build, so two
// shells never build at the same moment).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildRenderer, rendererIsFresh } from '../../../electron/cli/web/renderer-build.ts';
import { ROOT, SCREENSHOTS } from './paths.ts';

export default async function globalSetup(): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const out = join(ROOT, 'out', 'renderer');
  if (!rendererIsFresh(ROOT, out)) await buildRenderer(ROOT, out, () => {});
}
