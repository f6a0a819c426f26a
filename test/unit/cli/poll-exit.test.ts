// How `giftbatch poll` ends: a round the service left unfinished exits 3 (unreachable) whether its
// first request failed or a later one (the second page, an order's own record), and says so.
import { describe, expect, it } from 'vitest';
import { pollExitCode, unfinishedRound } from '../../../electron/cli/commands/tracking.ts';
import { EXIT } from '../../../electron/cli/exit-codes.ts';

const clean = { tracked: 5, requests: 6, settled: 4, delivered: 3, cancelled: 1, waiting: 1, expired: 0, error: null, nextCheckInMs: 30_000 };
const laterFailure = { ...clean, error: 'GET /v1/orders/1003: 500', serviceFailed: true as const };

describe('pollExitCode', () => {
  it('a round every request of which was answered exits 0', () => {
    expect(pollExitCode(clean, null, false)).toBe(EXIT.ok);
  });

  it('a round whose first request failed exits 3, as before', () => {
    expect(pollExitCode({ ...clean, requests: 1, settled: 0, waiting: 5, error: 'GET /v1/orders: unreachable', serviceFailed: true }, null, false)).toBe(EXIT.unreachable);
  });

  it('a round whose later request failed (an order fetched by id: a 500) exits 3, not 0', () => {
    expect(pollExitCode(laterFailure, null, false)).toBe(EXIT.unreachable);
  });

  it('--timeout cutting a round short still exits 0; Ctrl-C and SIGTERM 130', () => {
    const stopped = { ...clean, error: 'stopped after 2 of 5 orders' };
    expect(pollExitCode(stopped, 'timeout', true)).toBe(EXIT.ok);
    expect(pollExitCode(laterFailure, 'SIGINT', true)).toBe(EXIT.interrupted);
    expect(pollExitCode(laterFailure, 'SIGTERM', false)).toBe(EXIT.interrupted);
  });

  it('an error that is not the service failing (a row that could not be recorded) after the first request keeps exit 0', () => {
    expect(pollExitCode({ ...clean, error: 'line 3, order 1002: not recorded (disk I/O error)' }, null, false)).toBe(EXIT.ok);
  });
});

describe('unfinishedRound', () => {
  it('says the round did not finish, and that what it read is recorded', () => {
    expect(unfinishedRound(laterFailure)).toBe(
      'poll: the round did not finish: the service failed (said above). The orders it read before that are recorded; the others wait for the next round. Run poll again when the service answers.',
    );
  });
  it('after a first request that failed, says nothing of orders read', () => {
    expect(unfinishedRound({ ...clean, requests: 1, error: 'GET /v1/orders: the service could not be reached.', serviceFailed: true })).toBe(
      'poll: the round did not finish: the service failed (said above). Run poll again when the service answers.',
    );
  });
});
