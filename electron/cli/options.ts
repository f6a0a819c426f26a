// Options every command shares, and the small helpers commands use to open the engine and answer.
import { parseArgs, type ParseArgsConfig } from 'node:util';

type ParsedValues = Record<string, string | boolean | (string | boolean)[] | undefined>;
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ENVIRONMENTS, isEnvironment, type Environment } from '../../shared/domain/campaigns.ts';
import type { CallInput, CallName, CallOutput } from '../../shared/contract.ts';
import { createAppService, type AppService, type AppServiceOptions } from '../core/app/service.ts';
import { openEngine } from '../core/engine.ts';
import { checkDataFolder, DataFolderError, defaultDataDir } from '../core/paths.ts';
import { UsageError } from './exit-codes.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

export const COMMON_OPTIONS = {
  env: { type: 'string' },
  'base-url': { type: 'string' },
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;

export const COMMON_HELP = `Common options:
  --env ${ENVIRONMENTS.join('|')}   default simulator (the built-in simulator, in-process)
  --base-url URL                       any service speaking the gift service's API (overrides the
                                       environment's address)
  --data-dir DIR                       where campaigns are kept (default: the app's data folder)
  --json                               print exactly one JSON document on stdout
The API key comes from GIFTBATCH_API_KEY, else the keychain entry of the environment.`;

/** The options of a command that asks no service and opens no data folder: only --json (template lists its own, --force and --json). */
export const OFFLINE_HELP = `Options:
  --json  print exactly one JSON document on stdout`;

export interface Parsed<V> {
  values: V;
  positionals: string[];
}

/**
 * Parses a command's arguments with the common options; `--help` prints `help` and `commonHelp` (the
 * common options, or OFFLINE_HELP for a command that uses none of the service ones). Every command
 * takes at most one argument (a file or a campaign id): a second one is refused, not ignored (a
 * script's `send *.csv` would otherwise send only the first file, and an unquoted path with a space
 * would be read as its first word). A command that takes none (template, products) passes `noArgument`:
 * what to say of the first argument given, naming the option it belongs to.
 */
export function parseCommand<O extends Options>(
  argv: string[],
  options: O,
  help: string,
  commonHelp: string = COMMON_HELP,
  noArgument?: (given: string) => string,
): { values: ParsedValues & { [K in keyof (typeof COMMON_OPTIONS & O)]?: (typeof COMMON_OPTIONS & O)[K] extends { type: 'boolean' } ? boolean : string }; positionals: string[] } | null {
  const config = {
    args: argv,
    options: { ...COMMON_OPTIONS, ...options } as typeof COMMON_OPTIONS & O,
    allowPositionals: true as const,
    strict: true as const,
  };
  let parsed: ReturnType<typeof parseArgs<typeof config>>;
  try {
    parsed = parseArgs(config);
  } catch (error) {
    // Node's advice on positionals that start with '-' is for a mistyped option's value, not for an unknown option.
    const message = (error instanceof Error ? error.message : String(error)).replace(/ To specify a positional argument starting with a '-'.*$/s, '');
    throw new UsageError(`${message}\n\n${help}\n\n${commonHelp}`);
  }
  if ((parsed.values as { help?: boolean }).help) {
    process.stdout.write(`${help}\n\n${commonHelp}\n`);
    return null;
  }
  const [first, ...extra] = parsed.positionals;
  if (noArgument && first !== undefined) throw new UsageError(`${noArgument(first)}\n\n${help}`);
  if (extra.length > 0) {
    throw new UsageError(
      `${extra.map((arg) => JSON.stringify(arg)).join(' ')} ${extra.length === 1 ? 'is one argument' : 'are arguments'} too many after ${JSON.stringify(first)}: ` +
        `name one file or campaign per command, and put a path that holds spaces in quotes.\n\n${help}`,
    );
  }
  return parsed;
}

export interface Common {
  env: Environment;
  baseUrl: string | undefined;
  dataDir: string;
  /** The data folder was given with --data-dir (else it is the app's own, or GIFTBATCH_DATA_DIR). */
  dataDirNamed?: boolean;
  json: boolean;
}

export function commonOf(values: { env?: string; 'base-url'?: string; 'data-dir'?: string; json?: boolean }): Common {
  const env = values.env ?? 'simulator';
  if (!isEnvironment(env)) {
    throw new UsageError(`--env must be one of ${ENVIRONMENTS.join(', ')} (got "${env}").`);
  }
  const named = Boolean(values['data-dir']);
  const dataDir = values['data-dir'] ? resolve(values['data-dir']) : defaultDataDir();
  // A file named as the data folder (a recipients file put after --data-dir): said here, before any work.
  try {
    checkDataFolder(dataDir);
  } catch (error) {
    throw asUsage(error, dataDir, named);
  }
  return {
    env,
    baseUrl: values['base-url'],
    dataDir,
    dataDirNamed: named,
    json: values.json ?? false,
  };
}

/**
 * A DataFolderError as a usage error (exit 2), naming the folder as the person gave it: --data-dir,
 * or the app's own folder; any other error as it is.
 */
function asUsage(error: unknown, dataDir: string, named: boolean): unknown {
  if (!(error instanceof DataFolderError)) return error;
  return new UsageError(
    named
      ? `--data-dir ${dataDir} ${error.problem}: name the folder that keeps the campaigns (or leave --data-dir out for the app's).`
      : `The data folder ${dataDir} ${error.problem}: name the folder that keeps the campaigns with --data-dir (or GIFTBATCH_DATA_DIR).`,
  );
}

/** Refuses an --out FILE that cannot be written, before any work: its folder is missing, or it names a folder. */
export function checkOutFile(file: string): void {
  const why = !statSync(dirname(file), { throwIfNoEntry: false })?.isDirectory()
    ? 'its folder does not exist'
    : statSync(file, { throwIfNoEntry: false })?.isDirectory()
      ? 'it is a folder; name the file to write in it'
      : null;
  if (why) throw new UsageError(`Cannot write ${file}: ${why}.`);
}

export function positiveInt(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) <= 0) throw new UsageError(`${flag} takes a positive whole number (got "${text}").`);
  return Number(text);
}

export function positiveNumber(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || value <= 0) throw new UsageError(`${flag} takes a positive number (got "${text}").`);
  return value;
}

/** A command's way into the engine: the contract's calls, as the app makes them, in this process. */
export interface Cli {
  readonly dataDir: string;
  /** A call of the contract; errors are thrown as they are (index.ts turns them into exit codes). */
  call<C extends CallName>(name: C, input: CallInput<C>): Promise<CallOutput<C>>;
  on: AppService['on'];
}

export interface ServiceChoices {
  /** --rate: this process's request rate, for every connection it opens. */
  rate?: number | undefined;
  /** Where `campaigns:report` writes (report --out). */
  saveReport?: AppServiceOptions['saveReport'];
  /**
   * When it aborts (Ctrl-C, SIGTERM, poll's --timeout), the service's background work stops at once,
   * as when the app closes: a poll round in progress cancels its request and starts no other (its
   * call answers how far it got), a send pauses as interrupted. Calls made after still answer.
   */
  stopOn?: AbortSignal | undefined;
}

/**
 * Opens the engine on the data folder and the app service over it, as the desktop app and the
 * browser shell do, with nothing in the background: no polling by timer (poll runs its own loop),
 * and a send is waited for by the command that started it.
 */
export async function withService<T>(common: Common, choices: ServiceChoices, fn: (cli: Cli) => Promise<T>): Promise<T> {
  const connection = { ...(common.baseUrl ? { baseUrl: common.baseUrl } : {}), ...(choices.rate ? { rate: choices.rate } : {}) };
  // A data folder that cannot be created (under /proc, in a read-only folder) ends here, at once.
  const engine = await openEngine({ dataDir: common.dataDir, connection }).catch((error: unknown) => {
    throw asUsage(error, common.dataDir, common.dataDirNamed ?? true);
  });
  const service = createAppService({
    engine,
    shell: 'cli',
    polling: { auto: false },
    // The background's own failures ("the details are in the log"): a command has stderr for a log.
    log: (level, message) => {
      if (level === 'error') say(`error: ${message}`);
    },
    ...(choices.saveReport ? { saveReport: choices.saveReport } : {}),
  });
  // Its failure, if any, is met again by the close below.
  const stopBackground = () => void service.close().catch(() => undefined);
  if (choices.stopOn?.aborted) stopBackground();
  else choices.stopOn?.addEventListener('abort', stopBackground, { once: true });
  try {
    return await fn({ dataDir: engine.dataDir, call: (name, input) => service.request(name, input), on: (event, listener) => service.on(event, listener) });
  } finally {
    choices.stopOn?.removeEventListener('abort', stopBackground);
    await service.close();
    await engine.close();
  }
}

/** stdout carries results (and only the JSON document with --json); everything else goes to stderr. */
export const out = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
export const say = (text: string) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
export const printJson = (value: unknown) => out(JSON.stringify(value, null, 2));
