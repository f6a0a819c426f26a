// The send confirmation's words that depend on the count: "the first order goes alone … before the
// others follow" is said only when others follow it (a single corrected row has none).
import { describe, expect, it } from 'vitest';
import { firstOrderNote, notSentNote } from '../../../../renderer/src/features/new-campaign/ConfirmSendDialog.tsx';

describe('confirm send: the first-order note', () => {
  it('is left out for one gift, which has no others to follow it', () => {
    expect(firstOrderNote(1)).toBeNull();
    expect(firstOrderNote(0)).toBeNull();
  });

  it('says the first order goes alone when several are sent', () => {
    expect(firstOrderNote(2)).toBe('The first order goes alone and is checked against what its row asked before the others follow.');
  });
});

describe('confirm send: rows left behind', () => {
  it('says one row in the singular and several in the plural, never "row(s)"', () => {
    expect(notSentNote(0)).toBeNull();
    expect(notSentNote(1)).toBe('1 row that still needs fixing will not be sent.');
    expect(notSentNote(3)).toBe('3 rows that still need fixing will not be sent.');
    expect(notSentNote(1250)).toBe('1,250 rows that still need fixing will not be sent.');
  });
});
