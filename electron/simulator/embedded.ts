// The simulator as the app's "Simulator" environment runs it: in-process, on 127.0.0.1, with its
// state in the data folder so orders outlive each CLI command and app session; the state file names
// accounts by a hash of their API key, never the key (account-id.ts). No test endpoints (the audit
// names accounts by their full key once presented), no latency, no faults.

import { resolve } from 'node:path';
import { createSimulator } from './server.ts';
import type { Dialect } from './types.ts';

export interface EmbeddedSimulatorOptions {
  /**
   * The state file, e.g. `<data dir>/simulator-state.jsonl`. A relative path (a relative
   * --data-dir) is resolved against the working directory now, as the CLI's --state-file is.
   */
  stateFile: string;
  now?: () => number;
  /** Default 3000 (DEFAULT_ITEM_DELAY_MS). */
  itemDelayMs?: number;
  /** Answers to the spec's "not shown" questions (DIALECTS); default: our client's guesses. */
  dialect?: Partial<Dialect>;
  /** Receives state-file warnings (skipped lines) and one line per request. */
  log?: (line: string) => void;
}

export interface EmbeddedSimulator {
  url: string;
  stop: () => Promise<void>;
}

export async function startEmbeddedSimulator(options: EmbeddedSimulatorOptions): Promise<EmbeddedSimulator> {
  const sim = createSimulator({
    stateFile: resolve(options.stateFile),
    testEndpoints: false,
    latencyMs: 0,
    ...(options.now ? { now: options.now } : {}),
    ...(options.itemDelayMs !== undefined ? { itemDelayMs: options.itemDelayMs } : {}),
    ...(options.dialect ? { dialect: options.dialect } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  const { url } = await sim.start(0, '127.0.0.1');
  return { url, stop: () => sim.stop() };
}
