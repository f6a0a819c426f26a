// Seeded fault injection. One PRNG draw per eligible request picks at most one fault, so a seed
// and a request order always give the same faults, whatever the probabilities add up to.

import { FAULT_KINDS, SimulatorError, type FaultKind, type FaultSettings } from './types.ts';

/** mulberry32: a tiny, well-mixed 32-bit PRNG; returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const DEFAULT_FAULTS: Readonly<FaultSettings> = {
  seed: 1,
  resetAfterCommit: 0,
  error500BeforeCommit: 0,
  error503: 0,
  slow: 0,
  truncate: 0,
  error503AfterCommit: 0,
  gatewayTimeoutWhileProcessing: 0,
  slowMs: 5000,
  faultRoutes: 'post',
};

export function validateFaults(settings: FaultSettings): FaultSettings {
  let sum = 0;
  for (const kind of FAULT_KINDS) {
    const p = settings[kind];
    if (typeof p !== 'number' || !Number.isFinite(p) || p < 0 || p > 1) {
      throw new SimulatorError(`fault probability ${kind} must be a number from 0 to 1, got ${String(p)}`);
    }
    sum += p;
  }
  if (sum > 1 + 1e-9) {
    throw new SimulatorError(`fault probabilities add up to ${sum}; they must add up to at most 1`);
  }
  if (!Number.isInteger(settings.seed)) throw new SimulatorError(`fault seed must be an integer, got ${settings.seed}`);
  if (!Number.isFinite(settings.slowMs) || settings.slowMs < 0) {
    throw new SimulatorError(`slowMs must be a non-negative number, got ${settings.slowMs}`);
  }
  if (settings.faultRoutes !== 'post' && settings.faultRoutes !== 'all' && settings.faultRoutes !== 'reads') {
    throw new SimulatorError(`faultRoutes must be 'post', 'all' or 'reads', got ${String(settings.faultRoutes)}`);
  }
  return settings;
}

export class FaultInjector {
  private settings: FaultSettings;
  private random: () => number;

  constructor(initial: Partial<FaultSettings> = {}) {
    this.settings = validateFaults({ ...DEFAULT_FAULTS, ...initial });
    this.random = mulberry32(this.settings.seed);
  }

  get current(): Readonly<FaultSettings> {
    return { ...this.settings };
  }

  /** Merges `partial` into the settings; a new seed restarts the PRNG sequence. */
  set(partial: Partial<FaultSettings>): FaultSettings {
    const next = validateFaults({ ...this.settings, ...stripUndefined(partial) });
    this.settings = next;
    if (partial.seed !== undefined) this.random = mulberry32(next.seed);
    return { ...next };
  }

  /** Decides the fault for one request, or null. `isOrderPost` is true for POST /v1/orders. */
  draw(isOrderPost: boolean): FaultKind | null {
    if (isOrderPost ? this.settings.faultRoutes === 'reads' : this.settings.faultRoutes === 'post') return null;
    const u = this.random();
    let edge = 0;
    for (const kind of FAULT_KINDS) {
      edge += this.settings[kind];
      if (u < edge) return kind;
    }
    return null;
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
