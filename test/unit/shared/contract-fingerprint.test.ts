// The contract's fingerprint tells a window and an engine of different builds apart: any change to a
// call's schema, an event's or the error codes gives another; the same contract, the same one.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { contract, errorCodes, events } from '../../../shared/contract.ts';
import { contractFingerprint, fingerprintOf } from '../../../shared/contract-fingerprint.ts';

describe('contractFingerprint', () => {
  it('is the same for the same contract, and 8 hex digits', () => {
    expect(contractFingerprint()).toMatch(/^[0-9a-f]{8}$/);
    expect(fingerprintOf({ ...contract }, { ...events }, [...errorCodes])).toBe(contractFingerprint());
  });

  it('changes when an output gains a field, an event changes or an error code is added', () => {
    const info = contract['app:info'];
    const widened = { ...contract, 'app:info': { input: info.input, output: info.output.extend({ added: z.string() }) } };
    expect(fingerprintOf(widened, events, errorCodes)).not.toBe(contractFingerprint());
    expect(fingerprintOf(contract, { ...events, 'campaign:finished': z.object({ message: z.string() }) }, errorCodes)).not.toBe(contractFingerprint());
    expect(fingerprintOf(contract, events, [...errorCodes, 'new-code'])).not.toBe(contractFingerprint());
  });
});
