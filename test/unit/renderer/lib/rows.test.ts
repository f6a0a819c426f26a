import { describe, expect, it } from 'vitest';
import { expiryView, flagView, invalidReason, isDuplicate, issueText, issuesFor, matchesDraftFilter, rowStateLabel } from '../../../../renderer/src/lib/rows.ts';
import { row } from '../helpers/fakes.ts';

describe('row helpers', () => {
  it('puts each error under its own cell and drops the validator line prefix', () => {
    const errors = [
      { field: 'email', message: 'Line 6: "tim@example" is not a valid e-mail address' },
      { field: 'name', message: 'Line 6: the recipient name is missing' },
    ];
    expect(issuesFor(errors, 'email').map(issueText)).toEqual(['"tim@example" is not a valid e-mail address']);
    expect(issuesFor(errors, 'amount')).toEqual([]);
  });

  it('says on the campaign screen why a row that was never sent needs fixing, every error without the line prefix', () => {
    const errors = [
      { field: 'email', message: 'Line 3: "bob@example" is not a valid e-mail address' },
      { field: 'amount', message: 'Line 3: "ten" is not an amount' },
    ];
    expect(invalidReason(row(2, { state: 'invalid', errors }))).toBe('"bob@example" is not a valid e-mail address; "ten" is not an amount');
    expect(invalidReason(row(2, { state: 'invalid', errors: [] }))).toBeNull();
    // A skipped row says its own reason (SkipReason); a delivered one has nothing to fix.
    expect(invalidReason(row(2, { state: 'skipped', skippedBy: 'repeat-in-campaign', errors }))).toBeNull();
    expect(invalidReason(row(2, { state: 'delivered' }))).toBeNull();
  });

  it("labels a row held for a person 'To look up', not 'Sending': nothing sends it until a person decides", () => {
    expect(rowStateLabel(row(3, { state: 'sending', heldAt: 1_700_000_000_000 }))).toBe('To look up');
    expect(rowStateLabel(row(3, { state: 'sending', heldAt: null }))).toBe('Sending');
    expect(rowStateLabel(row(3, { state: 'ordered', heldAt: null }))).toBe('Ordered');
  });

  it('filters draft rows: errors are invalid rows, duplicates are rows with an e-mail warning', () => {
    const ok = row(1);
    const bad = row(2, { state: 'invalid', errors: [{ field: 'email', message: 'x' }] });
    const dup = row(3, { warnings: [{ field: 'email', message: 'also appears on line 2' }] });
    expect([ok, bad, dup].filter((r) => matchesDraftFilter(r, 'errors')).map((r) => r.id)).toEqual([2]);
    expect([ok, bad, dup].filter((r) => matchesDraftFilter(r, 'duplicates')).map((r) => r.id)).toEqual([3]);
    expect(isDuplicate(ok)).toBe(false);
    // Skipped by the person: the cost card says 'Skipped 1', so 'Need fixing' no longer counts it.
    const skippedBad = row(4, { state: 'skipped', errors: [{ field: 'email', message: 'x' }] });
    expect(matchesDraftFilter(skippedBad, 'errors')).toBe(false);
  });

  it('flags a recipient-details item whose acceptance link has expired, and not a delivered or cancelled one', () => {
    const now = 1_700_000_000_000;
    expect(expiryView(row(1, { state: 'ordered', acceptanceExpiry: now - 3_600_000 }), now)).toEqual({ text: 'Link expired 1 h ago', expired: true });
    expect(expiryView(row(1, { state: 'ordered', acceptanceExpiry: now + 2 * 86_400_000 }), now)?.expired).toBe(false);
    expect(expiryView(row(1, { state: 'delivered', acceptanceExpiry: now - 1000 }), now)).toBeNull();
    expect(expiryView(row(1, { state: 'cancelled', acceptanceExpiry: now - 1000 }), now)).toBeNull();
    expect(expiryView(row(1, { state: 'ordered', acceptanceExpiry: now + 1000, acceptanceExpired: true }), now)?.expired).toBe(true);
    expect(expiryView(row(1, { state: 'ordered' }), now)).toBeNull();
  });

  it('flags a row whose order the service issued otherwise, naming what was asked and what was issued', () => {
    expect(flagView(row(1))).toBeNull();
    const mismatch = flagView(
      row(1, {
        findings: [
          { kind: 'mismatch', field: 'amount', asked: 'USD 11.50', stated: 'USD 5.00', message: 'the service issued USD 5.00 for a USD 11.50 gift' },
          { kind: 'unreadable', field: 'record', stated: 'fee_rate: "x"', message: 'unexpected value in the answer: fee_rate: "x"' },
        ],
      }),
    );
    expect(mismatch).toEqual({
      kind: 'mismatch',
      text: 'The service issued USD 5.00 for a USD 11.50 gift.',
      detail: 'The service issued USD 5.00 for a USD 11.50 gift (asked USD 11.50, the service stated USD 5.00). Unexpected value in the answer: fee_rate: "x" (the service stated fee_rate: "x").',
      issuedDiffers: true,
    });
  });

  it('an answer that could not be read is flagged, but not as a difference in what was issued', () => {
    const view = flagView(row(1, { findings: [{ kind: 'unreadable', field: 'record', stated: 'x', message: 'unexpected value in the answer: x' }] }));
    expect(view?.kind).toBe('unreadable');
    expect(view?.issuedDiffers).toBe(false);
  });
});
