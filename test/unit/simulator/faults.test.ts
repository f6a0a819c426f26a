import { describe, expect, it } from 'vitest';
import { FaultInjector, mulberry32 } from '../../../electron/simulator/faults.ts';

describe('simulator faults', () => {
  it('mulberry32 gives the same sequence for the same seed and another for another seed', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const c = mulberry32(43);
    const seqA = Array.from({ length: 5 }, a);
    expect(Array.from({ length: 5 }, b)).toEqual(seqA);
    expect(Array.from({ length: 5 }, c)).not.toEqual(seqA);
    for (const x of seqA) expect(x >= 0 && x < 1).toBe(true);
  });

  it('the same seed and settings pick the same faults for the same request order', () => {
    const settings = { seed: 7, resetAfterCommit: 0.2, error500BeforeCommit: 0.2, error503: 0.2, truncate: 0.1 };
    const run = (): (string | null)[] => {
      const f = new FaultInjector(settings);
      return Array.from({ length: 50 }, () => f.draw(true));
    };
    const first = run();
    expect(run()).toEqual(first);
    expect(new Set(first).size).toBeGreaterThan(2);
  });

  it('faults apply only to POST /v1/orders unless faultRoutes is all', () => {
    const f = new FaultInjector({ error503: 1 });
    expect(f.draw(false)).toBeNull();
    expect(f.draw(true)).toBe('error503');
    f.set({ faultRoutes: 'all' });
    expect(f.draw(false)).toBe('error503');
  });

  it('setFaults turns faults off at run time, and a new seed restarts the sequence', () => {
    const f = new FaultInjector({ seed: 3, truncate: 0.5 });
    const first = Array.from({ length: 20 }, () => f.draw(true));
    f.set({ truncate: 0 });
    expect(Array.from({ length: 20 }, () => f.draw(true)).every((x) => x === null)).toBe(true);
    f.set({ seed: 3, truncate: 0.5 });
    expect(Array.from({ length: 20 }, () => f.draw(true))).toEqual(first);
  });

  it('refuses probabilities outside 0..1 or adding up to more than 1', () => {
    expect(() => new FaultInjector({ slow: 1.5 })).toThrow(/slow/);
    expect(() => new FaultInjector({ slow: -0.1 })).toThrow(/slow/);
    expect(() => new FaultInjector({ slow: 0.6, truncate: 0.6 })).toThrow(/at most 1/);
    const f = new FaultInjector();
    expect(() => f.set({ error503: 2 })).toThrow();
    expect(f.current.error503).toBe(0);
  });
});
