import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSimulatorArgs, SimulatorArgsError, simulatorUsage } from '../../../electron/simulator/index.ts';

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
    expect(parseSimulatorArgs(['--fault-504-while-processing=0.25']).faults?.gatewayTimeoutWhileProcessing).toBe(0.25);
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
    // Every other flag's bad values, and what is not a flag at all.
    [['--nope=1'], /^unknown flag "--nope=1"; known flags: --port --host /],
    [['extra'], /^unknown flag "extra"/],
    [['--port', '0', 'extra'], /^unknown flag "extra"/],
    [['--'], /^unknown flag "--"/],
    [['-p', '4010'], /^unknown flag "-p"/],
    [['-abc'], /^unknown flag "-abc"/],
    [['toString'], /^unknown flag "toString"/],
    [['--constructor', '1'], /^unknown flag "--constructor"/],
    [['--host'], /^--host needs a value$/],
    [['--host', '--port', '1'], /^--host needs a value$/],
    [['--port='], /^--port must be a number, got ""$/],
    [['--port', ' '], /^--port must be a number, got " "$/],
    [['--port=--5'], /^--port must be a number, got "--5"$/],
    [['--port', '-1'], /^--port must be a whole number from 0 to 65535, got "-1"$/],
    [['--port', '80.5'], /^--port must be a whole number from 0 to 65535, got "80.5"$/],
    [['--jitter', '-5'], /^--jitter must not be negative, got -5$/],
    [['--rate', 'fast'], /^--rate must be a number, got "fast"$/],
    [['--rate', 'Infinity'], /^--rate must be a number, got "Infinity"$/],
    [['--burst', '0'], /^--burst must be a whole number from 1 to 1000000, got "0"$/],
    [['--burst', '2.5'], /^--burst must be a whole number from 1 to 1000000/],
    [['--item-delay', '-1'], /^--item-delay must not be negative, got -1$/],
    [['--recipient-expiry', 'soon'], /^--recipient-expiry must be a number, got "soon"$/],
    [['--seed', '4294967296'], /^--seed must be a whole number from -2147483648 to 4294967295/],
    [['--seed', '-2147483649'], /^--seed must be a whole number from -2147483648 to 4294967295/],
    [['--slow-ms', '-1'], /^--slow-ms must not be negative, got -1$/],
    [['--fault-reset', '-0.1'], /^--fault-reset is a probability from 0 to 1, got -0.1$/],
    [['--fault-503', 'half'], /^--fault-503 must be a number, got "half"$/],
    [['--fault-truncate', '2'], /^--fault-truncate is a probability from 0 to 1, got 2$/],
    [['--fault-slow', '1.01'], /^--fault-slow is a probability from 0 to 1/],
    [['--fault-503-after-commit', '1.5'], /^--fault-503-after-commit is a probability from 0 to 1/],
    [['--fault-504-while-processing', '-0.1'], /^--fault-504-while-processing is a probability from 0 to 1/],
    [['--fault-reset', '0.5', '--fault-slow', '0.3', '--fault-truncate', '0.3'], /^the --fault-\* probabilities add up to 1\.1\d*; they must add up to at most 1$/],
    [['--fault-routes'], /^--fault-routes needs a value$/],
    [['--fault-routes', 'POST'], /^--fault-routes must be "post" or "all", got "POST"$/],
    [['--dialect', 'ours,nope'], /^--dialect: unknown dialect "nope"/],
    [['--list-lag', '-10'], /^--list-lag must not be negative, got -10$/],
    [['--custom-amount', ' , '], /^--custom-amount needs one or more of minor, clamp, account$/],
    [['--custom-amount', 'minor,cents'], /^--custom-amount: unknown reading "cents"; known: minor, clamp, account$/],
    [['--state-file', ' '], /^--state-file needs a file path$/],
    [['--log', ''], /^--log must be "requests" or "problems", got ""$/],
    [['--keys', ' , '], /^--keys needs at least one key, e\.g\. --keys key-a,key-b$/],
  ])('refuses %j with a clear message', (argv, message) => {
    expect(() => parseSimulatorArgs(argv)).toThrow(SimulatorArgsError);
    expect(() => parseSimulatorArgs(argv)).toThrow(message);
  });

  it('--custom-amount sets the custom amount switches it names, on top of --dialect', () => {
    expect(parseSimulatorArgs(['--dialect', 'item-custom-amount', '--custom-amount', 'minor,account']).dialect).toEqual({
      customAmount: 'item-or-minimum', customAmountUnits: 'minor', customAmountCurrency: 'account',
    });
    expect(parseSimulatorArgs(['--custom-amount=clamp']).dialect).toEqual({ customAmountBounds: 'clamp' });
  });

  it('takes a negative number as the value it follows, and a later flag wins over an earlier one', () => {
    expect(parseSimulatorArgs(['--seed', '-5']).faults?.seed).toBe(-5);
    expect(parseSimulatorArgs(['--seed=-5', '--seed', '7']).faults?.seed).toBe(7);
    expect(parseSimulatorArgs(['--port', '1', '--port=2']).port).toBe(2);
    expect(parseSimulatorArgs(['--host', '::1', '--latency=0']).host).toBe('::1');
    expect(parseSimulatorArgs(['--fault-500', '0', '--fault-500', '1']).faults?.error500BeforeCommit).toBe(1);
  });

  it('lists every flag with its help in the usage', () => {
    const usage = simulatorUsage().split('\n');
    expect(usage[0]).toBe('Usage: giftbatch simulator [flags]');
    const flags = usage.slice(1).map((line) => line.trim().split(/\s+/)[0]);
    expect(flags).toEqual([
      '--port', '--host', '--latency', '--jitter', '--rate', '--burst', '--item-delay', '--recipient-expiry', '--seed',
      '--fault-reset', '--fault-500', '--fault-503', '--fault-slow', '--slow-ms', '--fault-truncate', '--fault-503-after-commit',
      '--fault-504-while-processing', '--fault-routes', '--dialect', '--list-lag', '--custom-amount', '--state-file', '--log', '--keys',
    ]);
    expect(usage.find((line) => line.includes('--port'))).toMatch(/port to listen on \(0 = any free port; default 0\)/);
  });
});
