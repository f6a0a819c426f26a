// Where Electron's binary is, or why there is none (it is downloaded at install time, which a
// machine without access to GitHub skips).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './paths.ts';

export function electronBinary(): { path: string } | { missing: string } {
  const dir = join(ROOT, 'node_modules', 'electron');
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return { missing: "Electron's binary is not installed here (node_modules/electron/path.txt is absent: its download was skipped)." };
  const binary = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  if (!existsSync(binary)) return { missing: `Electron's binary is not at ${binary}.` };
  if (!existsSync(join(ROOT, 'out', 'main', 'index.js'))) return { missing: 'The desktop app is not built (out/main/index.js): run npx electron-vite build.' };
  return { path: binary };
}
