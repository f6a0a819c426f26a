// `giftbatch simulator`: serve until SIGTERM/SIGINT. While serving, stdout carries exactly one line,
// SIMULATOR_URL=..., so a parent process can read the address; everything else goes to stderr.
// `--help` prints the usage on stdout (exit 0), as every other command's help does.

import { parseSimulatorArgs, SimulatorArgsError, simulatorUsage } from './cli-args.ts';
import { createSimulator } from './server.ts';

export interface SimulatorCliIo {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
}

const processIo: SimulatorCliIo = {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
};

/** Resolves with the exit code (0 after a clean shutdown, 2 on bad flags, 1 if it cannot listen). */
export async function runSimulatorCli(argv: readonly string[], io: SimulatorCliIo = processIo): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout(simulatorUsage());
    return 0;
  }
  let parsed;
  try {
    parsed = parseSimulatorArgs(argv);
  } catch (err) {
    if (!(err instanceof SimulatorArgsError)) throw err;
    io.stderr(`giftbatch simulator: ${err.message}`);
    io.stderr(simulatorUsage());
    return 2;
  }
  const { port, host, ...options } = parsed;
  const sim = createSimulator({ ...options, log: (line) => io.stderr(`[simulator] ${line}`) });
  let url: string;
  try {
    ({ url } = await sim.start(port, host));
  } catch (err) {
    io.stderr(`giftbatch simulator: cannot listen on ${host}:${port}: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
  io.stdout(`SIMULATOR_URL=${url}`);
  io.stderr(`[simulator] listening on ${url}; simulated gifts only, nothing real is sent. Stop with Ctrl+C.`);

  await new Promise<void>((resolve) => {
    const onSignal = (signal: NodeJS.Signals): void => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      io.stderr(`[simulator] ${signal}: shutting down`);
      resolve();
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
  await sim.stop();
  return 0;
}
