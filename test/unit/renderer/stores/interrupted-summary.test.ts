import { describe, expect, it } from 'vitest';
import { interruptedSummary } from '../../../../renderer/src/stores/campaigns-store.ts';
import { summary } from '../helpers/fakes.ts';

const counts = { invalid: 1, ready: 2, sending: 1, ordered: 3, delivered: 4, failed: 0, cancelled: 1, skipped: 5 };

describe('interruptedSummary (the paused and interrupted banners)', () => {
  it('counts rows that got an order as sent, and what is still to send', () => {
    expect(interruptedSummary(summary({ counts }))).toEqual({ sent: 8, left: 3, progress: '8 sent, 3 left to send' });
  });

  it('never counts a failed row as sent: it is said apart', () => {
    const c = summary({ counts: { ...counts, failed: 3 } });
    expect(interruptedSummary(c)).toEqual({ sent: 8, left: 3, progress: '8 sent, 3 failed, 3 left to send' });
  });
});
