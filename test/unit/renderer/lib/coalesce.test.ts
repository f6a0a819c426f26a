import { describe, expect, it } from 'vitest';
import { createCoalescer } from '../../../../renderer/src/lib/coalesce.ts';
import { ManualClock } from '../helpers/fakes.ts';

function setup(intervalMs = 100) {
  const clock = new ManualClock();
  const flushed: number[][] = [];
  const c = createCoalescer<number, number[]>({
    initial: () => [],
    merge: (acc, n) => [...acc, n],
    flush: (acc) => flushed.push(acc),
    intervalMs,
    timers: clock,
    now: clock.now,
  });
  return { clock, flushed, c };
}

describe('createCoalescer', () => {
  it('hands a burst of events over in one flush', () => {
    const { clock, flushed, c } = setup();
    for (let i = 0; i < 50; i++) c.push(i);
    expect(flushed).toEqual([]);
    clock.advance(0);
    expect(flushed).toHaveLength(1);
    expect(flushed[0]).toHaveLength(50);
  });

  it('flushes at most once per interval however fast events come (at most ~10 renders a second)', () => {
    const { clock, flushed, c } = setup(100);
    for (let t = 0; t < 1000; t += 5) {
      c.push(t);
      clock.advance(5);
    }
    clock.advance(200);
    expect(flushed.length).toBeLessThanOrEqual(11);
    expect(flushed.flat()).toHaveLength(200);
  });

  it('drops what is pending on cancel and leaves no timer behind', () => {
    const { clock, flushed, c } = setup();
    c.push(1);
    c.cancel();
    clock.advance(1000);
    expect(flushed).toEqual([]);
    expect(clock.timerCount).toBe(0);
  });
});
