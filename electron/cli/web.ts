// `npm run web`: the browser shell. The same renderer and the same contract as the desktop app,
// served on 127.0.0.1 with a per-launch token, backed by the same engine in this Node process.
// stdout carries exactly one line, GIFTBATCH_URL=…, once ready; everything else goes to stderr.
import { withoutSecrets } from './child-env.ts';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAppService } from '../core/app/index.ts';
import { openEngine } from '../core/engine.ts';
import { DataFolderError, defaultDataDir } from '../core/paths.ts';
import { parseWebArgs, WEB_USAGE, WebArgsError } from './web/args.ts';
import { buildRenderer, rendererIsFresh } from './web/renderer-build.ts';
import { newToken } from './web/security.ts';
import { startWebServer } from './web/server.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const say = (line: string) => process.stderr.write(`giftbatch web: ${line}\n`);

async function main(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseWebArgs(argv);
  } catch (error) {
    if (!(error instanceof WebArgsError)) throw error;
    process.stderr.write(`${error.message}\n\n${WEB_USAGE}\n`);
    return 2;
  }
  if (args.help) {
    process.stderr.write(`${WEB_USAGE}\n`);
    return 0;
  }

  const rendererDir = args.rendererDir ?? join(root, 'out', 'renderer');
  if (!args.rendererDir && !rendererIsFresh(root, rendererDir)) {
    if (!args.build) {
      say(`the renderer is not built (or is older than its sources). Run: npx electron-vite build   (or start without --no-build)`);
      return 1;
    }
    say('building the renderer (first start, or its sources changed)…');
    await buildRenderer(root, rendererDir, (line) => say(line));
  }

  const dataDir = args.dataDir ?? defaultDataDir();
  let engine;
  try {
    engine = await openEngine({ dataDir });
  } catch (error) {
    // A data folder that cannot be created (under /proc, in a read-only folder): said, exit 2.
    if (!(error instanceof DataFolderError)) throw error;
    say(`${error.message} Name the folder that keeps the campaigns with --data-dir${args.dataDir ? '' : ' (or GIFTBATCH_DATA_DIR)'}.`);
    return 2;
  }
  const service = createAppService({ engine, shell: 'browser', log: (level, message) => say(`${level}: ${message}`) });
  const token = newToken();
  const server = await startWebServer({ service, rendererDir, token, port: args.port, log: say });
  say(`data folder: ${dataDir}`);

  let stopping: Promise<void> | null = null;
  const stop = (signal: string) => {
    stopping ??= (async () => {
      say(`${signal}: pausing any campaign being sent and closing…`);
      await server.close();
      await service.close();
      await engine.close();
    })();
    return stopping;
  };
  const finished = new Promise<number>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.on(signal, () => {
        void stop(signal).then(
          () => resolve(0),
          (error: unknown) => {
            say(`closing failed: ${error instanceof Error ? error.message : String(error)}`);
            resolve(1);
          },
        );
      });
    }
  });

  process.stdout.write(`GIFTBATCH_URL=${server.url}\n`);
  if (args.open) openInBrowser(server.url);
  return finished;
}

/** Best effort: where a desktop session exists, hand the address to its browser. */
function openInBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer.exe' : 'xdg-open';
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    say('no display here: open the address above in a browser.');
    return;
  }
  try {
    // The browser is not the engine: it gets no API key.
    const child = spawn(command, [url], { stdio: 'ignore', detached: true, env: withoutSecrets(process.env) });
    child.on('error', () => say(`could not start ${command}: open the address above in a browser.`));
    child.unref();
  } catch {
    say(`could not start ${command}: open the address above in a browser.`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exit(code);
  },
  (error: unknown) => {
    say(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
