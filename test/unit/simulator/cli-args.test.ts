import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSimulatorArgs, SimulatorArgsError } from '../../../electron/simulator/index.ts';

describe('parseSimulatorArgs', () => {
  it('reads every flag into options', () => {
    const o = parseSimulatorArgs([
      '--port', '4010', '--latency', '25', '--rate', '5', '--item-delay', '100', '--seed', '9',
      '--fault-reset', '0.1', '--fault-500', '0.1', '--fault-503', '0.1', '--fault-slow', '0.1',
      '--slow-ms', '2000', '--fault-truncate', '0.1', '--keys', 'a,b', '--fault-routes', 'all', '--log', 'problems',
    ]);
    expect(o).toMatchObject({
      logRequests: false,
      port: 4010, latencyMs: 25, rateLimit: 5, itemDelayMs: 100, keys: ['a', 'b'],
      faults: {
        seed: 9, resetAfterCommit: 0.1, error500BeforeCommit: 0.1, error503: 0.1, slow: 0.1,
        slowMs: 2000, truncate: 0.1, faultRoutes: 'all',
      },
    });
  });

  it('defaults to any free port on 127.0.0.1', () => {
    expect(parseSimulatorArgs([])).toEqual({ port: 0, host: '127.0.0.1' });
  });

  it('--state-file is resolved to an absolute path against the working directory', () => {
    expect(parseSimulatorArgs(['--state-file', '/data/sim.jsonl']).stateFile).toBe('/data/sim.jsonl');
    expect(parseSimulatorArgs(['--state-file=rel/sim.jsonl']).stateFile).toBe(resolve(process.cwd(), 'rel/sim.jsonl'));
    expect(() => parseSimulatorArgs(['--state-file='])).toThrow(/--state-file needs a file path/);
  });

  it('accepts --flag=value', () => {
    expect(parseSimulatorArgs(['--port=0', '--fault-503=0.5']).faults?.error503).toBe(0.5);
  });

  it.each([
    [['--nope', '1'], /unknown flag "--nope"/],
    [['--port'], /--port needs a value/],
    [['--port', '--latency', '5'], /--port needs a value/],
    [['--port', 'abc'], /--port must be a number/],
    [['--port', '70000'], /--port must be a whole number from 0 to 65535/],
    [['--latency', '-1'], /--latency must not be negative/],
    [['--fault-500', '1.5'], /--fault-500 is a probability from 0 to 1/],
    [['--fault-500', '0.6', '--fault-503', '0.6'], /add up to/],
    [['--fault-routes', 'get'], /"post" or "all"/],
    [['--keys', ','], /at least one key/],
    [['--log', 'verbose'], /--log must be "requests" or "problems"/],
    [['--seed', '1.5'], /--seed must be a whole number/],
  ])('refuses %j with a clear message', (argv, message) => {
    expect(() => parseSimulatorArgs(argv)).toThrow(SimulatorArgsError);
    expect(() => parseSimulatorArgs(argv)).toThrow(message);
  });
});
