// The giftbatch command: `npm run -s giftbatch -- <command> [options]`.
import { classifyError } from '../core/app/errors.ts';
import { DISK_FULL_MESSAGE, isDiskFull } from '../core/db/open.ts';
import { EXIT, UsageError, exitCodeFor } from './exit-codes.ts';
import { didYouMean } from './nearest-command.ts';
import { shellWord } from './shell-word.ts';

type Command = (argv: string[]) => Promise<number>;

interface CommandEntry {
  summary: string;
  load: () => Promise<Command>;
}

const COMMANDS: Record<string, CommandEntry> = {
  products: {
    summary: 'list the products that can be ordered: products --country CC [--json]',
    load: async () => (await import('./commands/catalog.ts')).productsCommand,
  },
  validate: {
    summary: 'check a CSV or workbook against a product, store nothing: validate FILE.csv|.xlsx|.ods --product ID [--sheet NAME] [--amount N] [--json]',
    load: async () => (await import('./commands/catalog.ts')).validateCommand,
  },
  send: {
    summary: 'import a CSV or workbook and send one gift per row ready to send: send FILE.csv|.xlsx|.ods --product ID [--name NAME] [--sheet NAME] [--amount N] [--sender NAME] [--message TEXT] [--yes]',
    load: async () => (await import('./commands/sending.ts')).sendCommand,
  },
  resume: {
    summary: 'reconcile an interrupted campaign, then send what is left: resume CAMPAIGN_ID [--yes]',
    load: async () => (await import('./commands/sending.ts')).resumeCommand,
  },
  revalidate: {
    summary: "check a campaign's unsent rows again against its product as it is now, keys kept: revalidate CAMPAIGN_ID",
    load: async () => (await import('./commands/sending.ts')).revalidateCommand,
  },
  'record-order': {
    summary: "give a row left mid-send the order found under its reference in the service's records: record-order CAMPAIGN_ID --line N --order ORDER_ID",
    load: async () => (await import('./commands/sending.ts')).recordOrderCommand,
  },
  retry: {
    summary: 'put the failed rows back and send them (keys kept, never paid twice): retry CAMPAIGN_ID [--failed] [--yes]',
    load: async () => (await import('./commands/sending.ts')).retryCommand,
  },
  status: {
    summary: "a campaign's counts and charged totals: status [CAMPAIGN_ID] [--json]",
    load: async () => (await import('./commands/tracking.ts')).statusCommand,
  },
  poll: {
    summary: 'ask the service about undelivered orders: poll [CAMPAIGN_ID] [--until-settled] [--timeout S]',
    load: async () => (await import('./commands/tracking.ts')).pollCommand,
  },
  report: {
    summary: 'write the delivery report: report CAMPAIGN_ID --out FILE.csv [--json]',
    load: async () => (await import('./commands/tracking.ts')).reportCommand,
  },
  'follow-up': {
    summary: 'a new draft campaign (new keys: new gifts) from rows that failed, were cancelled or expired: follow-up CAMPAIGN_ID [--failed] [--cancelled] [--expired] [--name NAME]',
    load: async () => (await import('./commands/follow-up.ts')).followUpCommand,
  },
  template: {
    summary: 'write an empty recipient list with the columns Giftbatch reads and a note on each: template --out FILE.xlsx|FILE.csv [--json]',
    load: async () => (await import('./commands/template.ts')).templateCommand,
  },
  simulator: {
    summary: 'run the built-in gift service simulator: simulator [--port N] [--latency MS] [--rate RPS] [--fault-… P] …',
    load: async () => (await import('../simulator/index.ts')).runSimulatorCli,
  },
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return ['Usage: giftbatch <command> [options]', '', 'Commands:', ...lines, '', 'Run `giftbatch <command> --help` for its options.'].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  // `giftbatch help send`: the command's own help, as `giftbatch send --help` prints it.
  if (name === 'help' && rest[0] !== undefined) return main([rest[0], '--help']);
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${usage()}\n`);
    return name ? EXIT.ok : EXIT.usage;
  }
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!entry) {
    // Options given before the command (`giftbatch --data-dir D status`): say where they go, with the line to run.
    const at = name.startsWith('-') ? rest.findIndex((arg) => Object.hasOwn(COMMANDS, arg)) : -1;
    if (at >= 0) {
      const reordered = [rest[at]!, name, ...rest.slice(0, at), ...rest.slice(at + 1)].map(shellWord).join(' ');
      throw new UsageError(`The command comes first, then its options: giftbatch ${reordered}`);
    }
    throw new UsageError(`Unknown command "${name}".${didYouMean(name, Object.keys(COMMANDS))}\n\n${usage()}`);
  }
  return (await entry.load())(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`giftbatch: ${error.message}\n`);
      process.exitCode = EXIT.usage;
    } else if (isDiskFull(error)) {
      process.stderr.write(`giftbatch: ${DISK_FULL_MESSAGE}\n`);
      process.exitCode = EXIT.rowsFailed;
    } else {
      // What the handlers threw, classified as the app classifies it; an unexpected error says its own
      // words here (a command has no log to point to).
      const { code, message, expected } = classifyError(error, 'this command');
      process.stderr.write(`giftbatch: ${expected ? message : error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = exitCodeFor(code);
    }
  },
);
