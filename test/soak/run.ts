// `npm run soak -- [--rows N] [--kills K] [--seconds S] [--seed N] [--service-rate R] [--fault-503 P] [--json]`: the soak by hand
// (default 5,000 rows, 30 kills, 15 minutes at most). Prints a summary, or with --json exactly one
// JSON document on stdout; exits 1 when an invariant broke.
import { parseArgs } from 'node:util';
import { formatSummary, runSoak } from './soak.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '5000' },
    kills: { type: 'string', default: '30' },
    seconds: { type: 'string', default: '900' },
    seed: { type: 'string' },
    'service-rate': { type: 'string' },
    'fault-503': { type: 'string' },
    json: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});

function positive(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n <= 0) {
    process.stderr.write(`soak: ${flag} takes a positive whole number (got "${text}")\n`);
    process.exit(2);
  }
  return n;
}

const json = values.json ?? false;
const seed = positive(values.seed, '--seed');
const serviceRate = positive(values['service-rate'], '--service-rate');
const fault503 = values['fault-503'] === undefined ? undefined : Number(values['fault-503']);
if (fault503 !== undefined && !(fault503 >= 0 && fault503 <= 0.5)) {
  process.stderr.write('soak: --fault-503 takes a probability from 0 to 0.5\n');
  process.exit(2);
}
const summary = await runSoak({
  rows: positive(values.rows, '--rows') ?? 5000,
  kills: positive(values.kills, '--kills') ?? 30,
  seconds: positive(values.seconds, '--seconds') ?? 900,
  ...(seed !== undefined ? { seed } : {}),
  ...(serviceRate !== undefined ? { serviceRate } : {}),
  ...(fault503 !== undefined ? { fault503 } : {}),
  keepData: values.keep ?? false,
  log: (line) => process.stderr.write(`${line}\n`),
});
if (json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
else process.stdout.write(`${formatSummary(summary)}\n`);
process.exitCode = summary.ok ? 0 : 1;
