import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { cspHtmlPlugin } from './electron/core/app/csp.ts';

const root = import.meta.dirname;

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        // The import worker is a second entry, out/main/import-worker.js beside index.js, and the
        // chunks they share are written beside them too: the code that starts the worker finds it
        // at new URL('./import-worker.js', import.meta.url) from whichever of these files it is in
        // (electron/core/app/import-runner.ts, importWorkerUrl).
        input: { index: resolve(root, 'electron/main/index.ts'), 'import-worker': resolve(root, 'electron/core/app/import-worker.ts') },
        output: { chunkFileNames: '[name]-[hash].js' },
        // Native modules stay outside the bundle (and are unpacked from asar by electron-builder).
        external: ['better-sqlite3', 'keytar'],
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(root, 'electron/preload/index.ts') },
        // A sandboxed preload cannot be an ES module: emit CommonJS even though package.json says "module".
        output: { format: 'cjs', entryFileNames: '[name].cjs', inlineDynamicImports: true },
      },
    },
  },
  renderer: {
    root: resolve(root, 'renderer'),
    plugins: [react(), cspHtmlPlugin()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      // electron-vite leaves bundles unminified by default; the renderer is shipped to a window, so minify it.
      minify: true,
      rollupOptions: { input: { index: resolve(root, 'renderer/index.html') } },
    },
  },
});
