// Command-line flags of `giftbatch simulator`. Every flag takes a value, as `--flag V` or `--flag=V`.
// node:util's parseArgs splits the command line; its tokens are then applied in order, so a later
// flag wins over an earlier one it overlaps (--dialect and --list-lag), and each value is checked
// here, with messages that name the flag and say what it takes. It runs non-strict for that: strict
// parseArgs would refuse a negative number as "ambiguous" before our check could say "must not be
// negative", and would word unknown flags and missing values its own way.

import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DIALECT_NAMES, parseDialect } from './dialects.ts';
import { FAULT_KINDS, SimulatorError, type Dialect, type FaultSettings, type SimulatorOptions } from './types.ts';

export class SimulatorArgsError extends Error {
  override readonly name = 'SimulatorArgsError';
}

type Apply = (opts: ParsedSimulatorArgs, value: string, flag: string) => void;

// --custom-amount's words: each one of the dialect's custom amount switches set unlike our guess.
const CUSTOM_AMOUNT = {
  minor: { customAmountUnits: 'minor' },
  clamp: { customAmountBounds: 'clamp' },
  account: { customAmountCurrency: 'account' },
} as const satisfies Record<string, Partial<Dialect>>;
const CUSTOM_AMOUNT_READINGS = Object.keys(CUSTOM_AMOUNT);
const isCustomAmountReading = (r: string): r is keyof typeof CUSTOM_AMOUNT => Object.hasOwn(CUSTOM_AMOUNT, r);
export type ParsedSimulatorArgs = SimulatorOptions & { port: number; host: string };

const fault = (name: keyof FaultSettings): Apply => (o, v, f) => {
  o.faults = { ...o.faults, [name]: probability(v, f) };
};

const FLAGS: Readonly<Record<string, { help: string; apply: Apply }>> = {
  '--port': { help: 'port to listen on (0 = any free port; default 0)', apply: (o, v, f) => { o.port = integer(v, f, 0, 65535); } },
  '--host': { help: 'address to listen on (default 127.0.0.1)', apply: (o, v) => { o.host = v; } },
  '--latency': { help: 'milliseconds added to every /v1 response', apply: (o, v, f) => { o.latencyMs = nonNegative(v, f); } },
  '--jitter': { help: 'up to this many extra milliseconds of latency, random', apply: (o, v, f) => { o.latencyJitterMs = nonNegative(v, f); } },
  '--rate': { help: 'requests per second per key (token bucket); 0 = unlimited', apply: (o, v, f) => { o.rateLimit = nonNegative(v, f); } },
  '--burst': { help: 'token bucket size (default: the rate, at least 1)', apply: (o, v, f) => { o.rateBurst = integer(v, f, 1, 1_000_000); } },
  '--item-delay': { help: 'milliseconds before an item goes PENDING → COMPLETED (default 3000)', apply: (o, v, f) => { o.itemDelayMs = nonNegative(v, f); } },
  '--recipient-expiry': { help: 'milliseconds a recipient acceptance link stays valid (default 7 days)', apply: (o, v, f) => { o.recipientExpiryMs = nonNegative(v, f); } },
  '--seed': { help: 'seed of the fault PRNG (integer)', apply: (o, v, f) => { o.faults = { ...o.faults, seed: integer(v, f, -(2 ** 31), 2 ** 32 - 1) }; } },
  '--fault-reset': { help: 'probability that a POST is committed, then the connection is reset', apply: fault('resetAfterCommit') },
  '--fault-500': { help: 'probability of a 500 before anything is committed', apply: fault('error500BeforeCommit') },
  '--fault-503': { help: 'probability of a 503 with Retry-After, nothing committed', apply: fault('error503') },
  '--fault-slow': { help: 'probability of a response held back by --slow-ms (committed first)', apply: fault('slow') },
  '--slow-ms': { help: 'how long a slow response is held back (default 5000)', apply: (o, v, f) => { o.faults = { ...o.faults, slowMs: nonNegative(v, f) }; } },
  '--fault-truncate': { help: 'probability of a 200 whose JSON body is cut in half (committed)', apply: fault('truncate') },
  '--fault-503-after-commit': { help: 'probability that a POST is committed, then answered 503 (with Retry-After)', apply: fault('error503AfterCommit') },
  '--fault-504-while-processing': {
    help: "probability of a gateway's 504 at once while the service goes on and commits (after racyKeyCheckMs)",
    apply: fault('gatewayTimeoutWhileProcessing'),
  },
  '--fault-routes': {
    help: "'post' (POST /v1/orders only, default) or 'all' (every /v1 route)",
    apply: (o, v, f) => {
      if (v !== 'post' && v !== 'all') throw new SimulatorArgsError(`${f} must be "post" or "all", got "${v}"`);
      o.faults = { ...o.faults, faultRoutes: v };
    },
  },
  '--dialect': {
    help: `answer the spec's "not shown" questions unlike our client guesses: comma-separated presets, later ones win (${DIALECT_NAMES.join(', ')})`,
    apply: (o, v, f) => {
      try {
        o.dialect = { ...o.dialect, ...parseDialect(v) };
      } catch (err) {
        if (err instanceof SimulatorError) throw new SimulatorArgsError(`${f}: ${err.message}`);
        throw err;
      }
    },
  },
  '--list-lag': {
    help: 'milliseconds a new order stays missing from GET /v1/orders lists (default 0; overrides --dialect if later)',
    apply: (o, v, f) => { o.dialect = { ...o.dialect, listLagMs: nonNegative(v, f) }; },
  },
  '--custom-amount': {
    help: "read a range product's custom_amount unlike our client guesses, comma-separated: minor (in minor units: 500 is USD 5.00), clamp (out of bounds: issued at the nearest bound), account (in the account's currency)",
    apply: (o, v, f) => {
      const readings = v.split(',').map((r) => r.trim()).filter((r) => r !== '');
      if (readings.length === 0) throw new SimulatorArgsError(`${f} needs one or more of ${CUSTOM_AMOUNT_READINGS.join(', ')}`);
      for (const r of readings) {
        if (!isCustomAmountReading(r)) throw new SimulatorArgsError(`${f}: unknown reading "${r}"; known: ${CUSTOM_AMOUNT_READINGS.join(', ')}`);
        o.dialect = { ...o.dialect, ...CUSTOM_AMOUNT[r] };
      }
    },
  },
  '--state-file': {
    help: 'keep orders and accounts in this file across restarts (created if missing; default: memory only)',
    apply: (o, v, f) => {
      if (v.trim() === '') throw new SimulatorArgsError(`${f} needs a file path`);
      o.stateFile = resolve(v);
    },
  },
  '--log': {
    help: '"requests" (default): a line per request on stderr; "problems": only resets and internal errors',
    apply: (o, v, f) => {
      if (v !== 'requests' && v !== 'problems') throw new SimulatorArgsError(`${f} must be "requests" or "problems", got "${v}"`);
      o.logRequests = v === 'requests';
    },
  },
  '--keys': {
    help: 'comma-separated API keys to accept (default: any non-empty key)',
    apply: (o, v, f) => {
      const keys = v.split(',').map((k) => k.trim()).filter((k) => k !== '');
      if (keys.length === 0) throw new SimulatorArgsError(`${f} needs at least one key, e.g. ${f} key-a,key-b`);
      o.keys = keys;
    },
  },
};

export function simulatorUsage(): string {
  const width = Math.max(...Object.keys(FLAGS).map((f) => f.length));
  return ['Usage: giftbatch simulator [flags]', ...Object.entries(FLAGS).map(([f, { help }]) => `  ${f.padEnd(width)}  ${help}`)].join('\n');
}

/** Every flag, to parseArgs, as an option that takes a value. */
const PARSE_OPTIONS = Object.fromEntries(Object.keys(FLAGS).map((flag) => [flag.slice(2), { type: 'string' as const }]));

export function parseSimulatorArgs(argv: readonly string[]): ParsedSimulatorArgs {
  const args = [...argv];
  const { tokens } = parseArgs({ args, options: PARSE_OPTIONS, strict: false, allowPositionals: true, tokens: true });
  const opts: ParsedSimulatorArgs = { port: 0, host: '127.0.0.1' };
  for (const token of tokens) {
    // Anything that is not a known --flag (a positional, "--", a short or unknown option) is
    // reported as written on the command line.
    const spec = token.kind === 'option' && Object.hasOwn(FLAGS, token.rawName) ? FLAGS[token.rawName] : undefined;
    if (token.kind !== 'option' || !spec) {
      throw new SimulatorArgsError(`unknown flag "${args[token.index] ?? ''}"; known flags: ${Object.keys(FLAGS).join(' ')}`);
    }
    const flag = token.rawName;
    // `--flag V` takes the next word whatever it is; a missing one, or another --flag, is no value.
    const value = token.value;
    if (value === undefined || (!token.inlineValue && value.startsWith('--'))) throw new SimulatorArgsError(`${flag} needs a value`);
    spec.apply(opts, value, flag);
  }
  const f = opts.faults;
  if (f) {
    const sum = FAULT_KINDS.reduce((total, kind) => total + (f[kind] ?? 0), 0);
    if (sum > 1 + 1e-9) throw new SimulatorArgsError(`the --fault-* probabilities add up to ${sum}; they must add up to at most 1`);
  }
  return opts;
}

function number(v: string, flag: string): number {
  const n = v.trim() === '' ? NaN : Number(v);
  if (!Number.isFinite(n)) throw new SimulatorArgsError(`${flag} must be a number, got "${v}"`);
  return n;
}

function nonNegative(v: string, flag: string): number {
  const n = number(v, flag);
  if (n < 0) throw new SimulatorArgsError(`${flag} must not be negative, got ${v}`);
  return n;
}

function integer(v: string, flag: string, min: number, max: number): number {
  const n = number(v, flag);
  if (!Number.isInteger(n) || n < min || n > max) throw new SimulatorArgsError(`${flag} must be a whole number from ${min} to ${max}, got "${v}"`);
  return n;
}

function probability(v: string, flag: string): number {
  const n = number(v, flag);
  if (n < 0 || n > 1) throw new SimulatorArgsError(`${flag} is a probability from 0 to 1, got ${v}`);
  return n;
}
