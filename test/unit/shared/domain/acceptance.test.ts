import { describe, expect, it } from 'vitest';
import { isAcceptanceExpired } from '../../../../shared/domain/acceptance.ts';
import { ROW_STATES } from '../../../../shared/domain/rows.ts';

describe('isAcceptanceExpired', () => {
  const now = 1_700_000_000_000;

  it('is an ordered row whose link expiry has passed', () => {
    expect(isAcceptanceExpired({ state: 'ordered', acceptanceExpiry: now - 1 }, now)).toBe(true);
    expect(isAcceptanceExpired({ state: 'ordered', acceptanceExpiry: now }, now)).toBe(false);
    expect(isAcceptanceExpired({ state: 'ordered', acceptanceExpiry: now + 1 }, now)).toBe(false);
    expect(isAcceptanceExpired({ state: 'ordered', acceptanceExpiry: null }, now)).toBe(false);
    expect(isAcceptanceExpired({ state: 'ordered', acceptanceExpiry: undefined }, now)).toBe(false);
  });

  it('is never a row in any other state: delivered was accepted, cancelled will never deliver', () => {
    for (const state of ROW_STATES.filter((s) => s !== 'ordered')) {
      expect(isAcceptanceExpired({ state, acceptanceExpiry: now - 1 }, now)).toBe(false);
    }
  });
});
