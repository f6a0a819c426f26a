// The giftbatch command: `npm run -s giftbatch -- <command> [options]`.
import { EXIT, ServiceUnreachableError, UsageError } from './exit-codes.ts';

type Command = (argv: string[]) => Promise<number>;

interface CommandEntry {
  summary: string;
  load: () => Promise<Command>;
}

const COMMANDS: Record<string, CommandEntry> = {
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
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${usage()}\n`);
    return name ? EXIT.ok : EXIT.usage;
  }
  const entry = COMMANDS[name];
  if (!entry) throw new UsageError(`Unknown command "${name}".\n\n${usage()}`);
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
    } else if (error instanceof ServiceUnreachableError) {
      process.stderr.write(`giftbatch: ${error.message}\n`);
      process.exitCode = EXIT.unreachable;
    } else {
      process.stderr.write(`giftbatch: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    }
  },
);
