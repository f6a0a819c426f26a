import { describe, expect, it } from 'vitest';
import { EXIT, exitCodeFor } from '../../../electron/cli/exit-codes.ts';

// The exit code index.ts gives a call's error that no command handled: README's documented codes.
describe('exitCodeFor', () => {
  it("maps 'stopped' (a create stopped on request) to the interrupted code, as send does", () => {
    expect(exitCodeFor('stopped')).toBe(EXIT.interrupted);
    expect(EXIT.interrupted).toBe(130);
  });

  it('keeps the documented codes: bad input 2, the service or the key 3, anything else 1', () => {
    expect(exitCodeFor('invalid-input')).toBe(2);
    expect(exitCodeFor('not-found')).toBe(2);
    expect(exitCodeFor('configuration')).toBe(2);
    expect(exitCodeFor('service-auth')).toBe(3);
    expect(exitCodeFor('service-unreachable')).toBe(3);
    expect(exitCodeFor('internal')).toBe(1);
    expect(exitCodeFor('preflight')).toBe(1);
  });
});
