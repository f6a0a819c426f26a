import { describe, expect, it } from 'vitest';
import { EXTERNAL_REFERENCE_ID_PATTERN, newCampaignId, newExternalReferenceId } from '../../../../electron/core/db/ids.ts';

describe('newExternalReferenceId', () => {
  it('is short plain ASCII: "gb-" and 26 Crockford base32 characters, at most 40 in all', () => {
    const key = newExternalReferenceId();
    expect(key).toMatch(EXTERNAL_REFERENCE_ID_PATTERN);
    expect(key.length).toBe(29);
    expect(key.length).toBeLessThanOrEqual(40);
    expect(/^[\x21-\x7e]+$/.test(key)).toBe(true);
  });

  it('never repeats, even for many keys minted in the same millisecond', () => {
    const keys = new Set<string>();
    for (let i = 0; i < 50_000; i++) keys.add(newExternalReferenceId(1_700_000_000_000));
    expect(keys.size).toBe(50_000);
  });

  it('keys minted in the same millisecond increase strictly, so an import appends to the unique index', () => {
    const keys = Array.from({ length: 2000 }, () => newExternalReferenceId(1_800_000_000_000));
    for (let i = 1; i < keys.length; i++) expect(keys[i]! > keys[i - 1]!).toBe(true);
  });

  it('sorts by the time it was minted, so a large import appends to the unique index', () => {
    const early = newExternalReferenceId(Date.UTC(2026, 0, 1));
    const late = newExternalReferenceId(Date.UTC(2026, 0, 1, 0, 0, 1));
    expect(early < late).toBe(true);
    // The ULID time field: 10 base32 characters, big-endian (the epoch is all zeros, 2^48 - 1 is 7ZZZZZZZZZ).
    expect(newExternalReferenceId(0).slice(3, 13)).toBe('0000000000');
    expect(newExternalReferenceId(2 ** 48 - 1).slice(3, 13)).toBe('7ZZZZZZZZZ');
    expect(newExternalReferenceId(32).slice(3, 13)).toBe('0000000010');
  });
});

describe('newCampaignId', () => {
  it('is "c_" and 10 lower-case base32 characters, distinct each time', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newCampaignId()));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^c_[0-9a-z]{10}$/);
  });
});
