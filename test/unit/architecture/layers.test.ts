import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const eslint = new ESLint({ cwd: root, overrideConfigFile: 'test/eslint.config.js' });

async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-globals')
    .map((m) => m.message);
}

describe('layer rules (docs/architecture.md, "Layers")', () => {
  it.each([
    ['shared/domain/x.ts', "import { readFileSync } from 'node:fs';\nexport const f = readFileSync;\n"],
    ['shared/domain/x.ts', "import { app } from 'electron';\nexport const a = app;\n"],
    ['shared/domain/x.ts', "import { x } from '../../electron/core/engine.ts';\nexport const y = x;\n"],
    ['shared/domain/x.ts', 'export const w = window.innerWidth;\n'],
    ['shared/domain/x.ts', 'export const b = Buffer.from([1]);\n'],
    ['renderer/src/x.ts', "import { x } from '../../electron/core/engine.ts';\nexport const y = x;\n"],
    ['renderer/src/x.ts', "import { ipcRenderer } from 'electron';\nexport const i = ipcRenderer;\n"],
    ['renderer/src/x.ts', "import fs from 'fs';\nexport const f = fs;\n"],
    ['electron/core/x.ts', "import { app } from 'electron';\nexport const a = app;\n"],
    ['electron/simulator/x.ts', "import { app } from 'electron';\nexport const a = app;\n"],
    ['electron/cli/x.ts', "import { app } from 'electron';\nexport const a = app;\n"],
    ['electron/core/x.ts', "import { App } from '../../renderer/src/App.tsx';\nexport const a = App;\n"],
    ['electron/cli/commands/x.ts', "import { countByState } from '../../core/db/repos/recipients.ts';\nexport const c = countByState;\n"],
    ['electron/cli/commands/x.ts', "import { pollRound } from '../../core/campaigns/poller.ts';\nexport const p = pollRound;\n"],
  ])('%s may not do this: %s', async (file, code) => {
    expect(await layerErrors(file, code)).not.toEqual([]);
  });

  it.each([
    ['electron/main/x.ts', "import { app } from 'electron';\nexport const a = app;\n"],
    ['electron/preload/x.ts', "import { contextBridge } from 'electron';\nexport const c = contextBridge;\n"],
    ['electron/core/x.ts', "import { readFileSync } from 'node:fs';\nexport const f = readFileSync;\n"],
    ['electron/cli/commands/x.ts', "import { writeFileAtomically } from '../../core/campaigns/report.ts';\nexport const w = writeFileAtomically;\n"],
    ['shared/domain/x.ts', "import { z } from 'zod';\nexport const s = z.string();\n"],
    ['renderer/src/x.ts', "import { money } from '../../shared/domain/money.ts';\nexport const m = money;\n"],
  ])('%s may do this: %s', async (file, code) => {
    expect(await layerErrors(file, code)).toEqual([]);
  });
});
