// `npm run web -- [--port N] [--data-dir DIR] [--open] [--renderer-dir DIR] [--no-build]`
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

export interface WebArgs {
  port: number;
  dataDir: string | null;
  open: boolean;
  rendererDir: string | null;
  build: boolean;
  help: boolean;
}

export const WEB_USAGE = `Usage: npm run web -- [options]
  --port N            port on 127.0.0.1 (default 0: any free port)
  --data-dir DIR      where campaigns are kept (default: the app's data folder)
  --open              open the address in the default browser (when a display is available)
  --renderer-dir DIR  serve this built renderer instead of out/renderer
  --no-build          never build the renderer; fail if it is missing
Prints exactly one line on stdout once ready: GIFTBATCH_URL=http://127.0.0.1:<port>/#token=<token>
Stops on Ctrl-C or SIGTERM, pausing any campaign being sent.`;

export class WebArgsError extends Error {
  override readonly name = 'WebArgsError';
}

export function parseWebArgs(argv: readonly string[]): WebArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        open: { type: 'boolean' },
        'renderer-dir': { type: 'string' },
        'no-build': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    throw new WebArgsError(error instanceof Error ? error.message : String(error));
  }
  const v = parsed.values;
  const port = v.port === undefined ? 0 : Number(v.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new WebArgsError(`--port must be a whole number from 0 to 65535, got "${v.port ?? ''}".`);
  return {
    port,
    dataDir: v['data-dir'] ? resolve(v['data-dir']) : null,
    open: v.open === true,
    rendererDir: v['renderer-dir'] ? resolve(v['renderer-dir']) : null,
    build: v['no-build'] !== true,
    help: v.help === true,
  };
}
