// The stop cell of a campaigns:create (create-stop.ts): a stop and the job's last step race for it,
// and exactly one of them wins.
import { describe, expect, it } from 'vitest';
import { askStop, claimLastStep, CreateStoppedError, newStopCell, throwIfStopAsked } from '../../../../electron/core/app/create-stop.ts';
import { errorData, purposefulError } from '../../../../electron/core/app/import-jobs.ts';

describe('create stop cell', () => {
  it('a new cell lets the job go on at every check and claim its last step', () => {
    const cell = newStopCell();
    expect(cell.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(() => throwIfStopAsked(cell)).not.toThrow();
    expect(() => claimLastStep(cell)).not.toThrow();
    // Claimed twice (a job that claims before its one transaction) is still its own.
    expect(() => claimLastStep(cell)).not.toThrow();
  });

  it('a stop asked before the last step makes the next check throw CreateStoppedError, saying nothing was saved', () => {
    const cell = newStopCell();
    expect(askStop(cell)).toBe('stopping');
    expect(() => throwIfStopAsked(cell)).toThrow(CreateStoppedError);
    expect(() => throwIfStopAsked(cell)).toThrow(/nothing was saved and no campaign was created/);
  });

  it('a stop asked before the last step wins the race for it: the claim throws', () => {
    const cell = newStopCell();
    askStop(cell);
    expect(() => claimLastStep(cell)).toThrow(CreateStoppedError);
  });

  it('asking twice answers stopping both times', () => {
    const cell = newStopCell();
    expect(askStop(cell)).toBe('stopping');
    expect(askStop(cell)).toBe('stopping');
  });

  it('a stop after the job claimed its last step is too late: it answers saved and the job is not stopped', () => {
    const cell = newStopCell();
    claimLastStep(cell);
    expect(askStop(cell)).toBe('saved');
    expect(() => throwIfStopAsked(cell)).not.toThrow();
    expect(askStop(cell)).toBe('saved');
  });

  it('a create without a cell (no progressId) is never stopped', () => {
    expect(() => throwIfStopAsked(undefined)).not.toThrow();
    expect(() => claimLastStep(undefined)).not.toThrow();
  });

  it('the stop crosses back from the worker as itself, with its message (not as the worker failing)', () => {
    const rebuilt = purposefulError(errorData(new CreateStoppedError()));
    expect(rebuilt).toBeInstanceOf(CreateStoppedError);
    expect(rebuilt?.message).toBe(new CreateStoppedError().message);
  });
});
