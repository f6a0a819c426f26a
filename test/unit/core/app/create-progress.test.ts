// The create's progress as the import worker reports it: throttled to a few a second, the first of
// each phase and the last always through, parts mapped to rows stored.
import { describe, expect, it } from 'vitest';
import { CREATE_PROGRESS_INTERVAL_MS, storedBeforePart, throttleCreateProgress, type CreateProgress } from '../../../../electron/core/app/create-progress.ts';

function throttled(intervalMs = 250) {
  let clock = 0;
  const sent: { at: number; progress: CreateProgress }[] = [];
  const report = throttleCreateProgress((progress) => sent.push({ at: clock, progress }), { intervalMs, now: () => clock });
  return { sent, report, advance: (ms: number) => (clock += ms) };
}

const storing = (stored: number, total: number): CreateProgress => ({ phase: 'storing', stored, total });

describe('create progress', () => {
  it('passes the first report of each phase at once, then at most one per interval, and always the last', () => {
    const t = throttled(250);
    t.report({ phase: 'checking', stored: 0, total: null });
    t.advance(5);
    // The file checked quickly: storing starts well within the interval, and still goes out.
    t.report(storing(0, 100_000));
    // 100 parts of 1,000 rows, one every 50 ms (a part and its pause).
    for (let part = 1; part < 100; part++) {
      t.advance(50);
      t.report(storing(storedBeforePart(part, 1_000, 100_000), 100_000));
    }
    t.advance(50);
    t.report(storing(100_000, 100_000));

    const figures = t.sent.map((s) => [s.progress.phase, s.progress.stored]);
    expect(figures[0]).toEqual(['checking', 0]);
    expect(figures[1]).toEqual(['storing', 0]);
    expect(figures.at(-1)).toEqual(['storing', 100_000]);
    // 5 s of storing at four a second at most: about 20, never one per part.
    expect(t.sent.length).toBeGreaterThanOrEqual(18);
    expect(t.sent.length).toBeLessThanOrEqual(23);
    // In order, and spaced by the interval but for the phase changes and the last.
    for (let i = 1; i < t.sent.length; i++) {
      const [previous, current] = [t.sent[i - 1]!, t.sent[i]!];
      if (current.progress.phase === 'storing' && previous.progress.phase === 'storing') {
        expect(current.progress.stored).toBeGreaterThan(previous.progress.stored);
        if (i < t.sent.length - 1) expect(current.at - previous.at).toBeGreaterThanOrEqual(250);
      }
    }
  });

  it('sends the last report (every row stored) even right after another, but never the same figure twice', () => {
    const t = throttled(250);
    t.report(storing(0, 2_500));
    t.advance(10);
    t.report(storing(0, 2_500));
    t.advance(10);
    t.report(storing(1_000, 2_500));
    t.advance(10);
    t.report(storing(2_500, 2_500));
    t.report(storing(2_500, 2_500));
    expect(t.sent.map((s) => s.progress.stored)).toEqual([0, 2_500]);
  });

  it('defaults to four a second', () => {
    expect(CREATE_PROGRESS_INTERVAL_MS).toBe(250);
    let clock = 0;
    const sent: number[] = [];
    const report = throttleCreateProgress((p) => sent.push(p.stored), { now: () => clock });
    for (let stored = 0; stored < 10_000; stored += 100) {
      report(storing(stored, 10_000));
      clock += 10;
    }
    // 1 s of reports every 10 ms: the first, then one per 250 ms.
    expect(sent).toEqual([0, 2_500, 5_000, 7_500]);
  });

  it('maps the part about to be written to the rows stored before it, never beyond the total', () => {
    expect(storedBeforePart(0, 1_000, 3_500)).toBe(0);
    expect(storedBeforePart(1, 1_000, 3_500)).toBe(1_000);
    expect(storedBeforePart(3, 1_000, 3_500)).toBe(3_000);
    expect(storedBeforePart(4, 1_000, 3_500)).toBe(3_500);
  });
});
