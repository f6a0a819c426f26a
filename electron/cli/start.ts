// `npm start`: the desktop app where Electron's binary is (or can be fetched), else the browser shell.
import { withoutSecrets } from './child-env.ts';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const electronDir = join(root, 'node_modules', 'electron');

function electronBinaryPresent(): boolean {
  const pathFile = join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return false;
  return existsSync(join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim()));
}

function tryFetchElectron(): boolean {
  process.stderr.write("Fetching Electron's binary (first start only)…\n");
  const env = withoutSecrets(process.env);
  delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  const result = spawnSync(process.execPath, [join(electronDir, 'install.js')], {
    cwd: electronDir,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 120_000,
  });
  return result.status === 0 && electronBinaryPresent();
}

function run(command: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

const bin = (name: string) => join(root, 'node_modules', '.bin', name);

if (electronBinaryPresent() || tryFetchElectron()) {
  // Native modules must match Electron's ABI while it runs; `.ci/setup.sh` switches them back for Node.
  const rebuilt = await run(bin('electron-builder'), ['install-app-deps']);
  if (rebuilt !== 0) {
    process.stderr.write('Could not rebuild better-sqlite3 and keytar for Electron; see the messages above.\n');
    process.exit(rebuilt);
  }
  process.exit(await run(bin('electron-vite'), ['preview']));
} else {
  const shell = join(root, 'electron', 'cli', 'web.ts');
  if (existsSync(shell)) {
    process.stderr.write("Electron's binary could not be downloaded here, so Giftbatch starts in your browser instead.\n");
    // --open: hand the address to the desktop's browser when there is a display; it is printed either way.
    process.exit(await run(process.execPath, ['--import', 'tsx', shell, '--open', ...process.argv.slice(2)]));
  }
  process.stderr.write(
    "Electron's binary could not be downloaded here, and the browser shell is not built yet: " +
      'use the command line meanwhile (npm run -s giftbatch -- --help).\n',
  );
  process.exit(1);
}
