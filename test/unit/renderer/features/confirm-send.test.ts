// The send confirmation's words that depend on the count: "the first order goes alone … before the
// others follow" is said only when others follow it (a single corrected row has none).
import { describe, expect, it } from 'vitest';
import { firstOrderNote } from '../../../../renderer/src/features/new-campaign/ConfirmSendDialog.tsx';

describe('confirm send: the first-order note', () => {
  it('is left out for one gift, which has no others to follow it', () => {
    expect(firstOrderNote(1)).toBeNull();
    expect(firstOrderNote(0)).toBeNull();
  });

  it('says the first order goes alone when several are sent', () => {
    expect(firstOrderNote(2)).toBe('The first order goes alone and is checked against what its row asked before the others follow.');
  });
});
