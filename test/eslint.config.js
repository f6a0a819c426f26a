// Lint for the whole repo (run from the root: `eslint --config test/eslint.config.js .`).
// Its main job is the layer rules (docs/architecture.md, "Layers"), which fail the build on a
// layer crossing:
//   shared/    imports no Node builtin, no DOM global, no 'electron', nothing from electron/ or renderer/
//   renderer/  imports nothing from electron/, no Node builtin, no 'electron'
//   only electron/main and electron/preload import 'electron'
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
const electronOnlyInShell = { name: 'electron', message: "Only electron/main and electron/preload may import 'electron'." };
const engineLayer = [
  { group: ['**/renderer/**'], message: 'The engine never imports the renderer.' },
  { group: ['**/electron/main/**', '**/main/**', '**/preload/**'], message: 'The engine never imports the Electron shell.' },
];
const nodeBuiltinPaths = (layer) =>
  nodeBuiltins.map((name) => ({ name, message: `${layer} runs in the browser too: no Node builtins.` }));

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'test/.artifacts/**', 'test-results/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': ['error', { paths: [electronOnlyInShell] }],
    },
  },
  {
    files: ['electron/main/**', 'electron/preload/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/renderer/**'], message: 'The shell talks to the renderer through the contract only.' }] }],
    },
  },
  {
    files: ['electron/core/**', 'electron/simulator/**', 'electron/cli/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [electronOnlyInShell], patterns: engineLayer }],
    },
  },
  {
    // One way into the engine: a command makes the contract's calls (cli.call), as the app does.
    files: ['electron/cli/commands/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [electronOnlyInShell],
        patterns: [
          ...engineLayer,
          {
            group: ['**/core/db/**', '**/core/campaigns/**', '**/core/service/**', '**/core/connections.ts', '!**/core/campaigns/report.ts'],
            message: "A command reaches the engine through the contract's calls (cli.call), as the app does.",
          },
        ],
      }],
    },
  },
  {
    files: ['shared/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [electronOnlyInShell, ...nodeBuiltinPaths('shared/')],
        patterns: [{ group: ['**/electron/**', '**/renderer/**'], message: 'shared/ depends on nothing but itself and pure libraries.' }],
      }],
      'no-restricted-globals': ['error',
        ...['window', 'document', 'navigator', 'localStorage', 'sessionStorage', 'location', 'fetch', 'XMLHttpRequest', 'process', 'Buffer', 'require', '__dirname', '__filename', 'global', 'setImmediate']
          .map((name) => ({ name, message: `shared/ is pure: no ${name} (Node or DOM).` })),
      ],
    },
  },
  {
    files: ['renderer/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [electronOnlyInShell, ...nodeBuiltinPaths('renderer/')],
        patterns: [{ group: ['**/electron/**'], message: 'The renderer reaches the engine only through the contract in shared/.' }],
      }],
    },
  },
);
