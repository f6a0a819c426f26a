// One entry for every transport (IPC, HTTP, tests): look the call up by name, parse its input with
// the contract's schema, run it, parse its output (catches drift between handler and contract), and
// return a Result. Nothing throws out of here.
import type { z } from 'zod';
import { contract, type CallInput, type CallName, type CallOutput, type Result } from '../../../shared/contract.ts';
import { classifyError, errorText, type AppLog, type Redactor } from './errors.ts';

/** What a handler receives: the input after the schema parsed it and applied its defaults. */
export type HandlerInput<C extends CallName> = z.output<(typeof contract)[C]['input']>;

export type Handlers = { [C in CallName]: (input: HandlerInput<C>) => Promise<CallOutput<C>> };

export interface DispatchOptions {
  log?: AppLog;
  redactor?: Redactor;
}

export function isCallName(name: string): name is CallName {
  return Object.hasOwn(contract, name);
}

/**
 * Parses the input with the call's schema (applying its defaults), runs the handler and parses its
 * output (a handler drifting from the contract throws ContractDriftError). Errors are thrown as they
 * are: the CLI, in the same process, answers them itself; every other transport goes through
 * `dispatch`, which turns them into data.
 */
export async function runCall<C extends CallName>(handlers: Handlers, name: C, rawInput: unknown): Promise<CallOutput<C>> {
  const input = contract[name].input.parse((rawInput ?? {}) as unknown);
  const run = handlers[name] as (input: unknown) => Promise<unknown>;
  const output: unknown = await run(input);
  const parsed = contract[name].output.safeParse(output);
  if (!parsed.success) throw new ContractDriftError(name, parsed.error.message);
  return parsed.data as CallOutput<C>;
}

export class ContractDriftError extends Error {
  override readonly name = 'ContractDriftError';
  constructor(
    readonly call: CallName,
    readonly details: string,
  ) {
    super(`Giftbatch produced an unexpected answer for ${call}. The details are in the log.`);
  }
}

export async function dispatch(handlers: Handlers, name: string, rawInput: unknown, opts: DispatchOptions = {}): Promise<Result<unknown>> {
  const redact = (text: string) => (opts.redactor ? opts.redactor.redact(text) : text);
  if (!isCallName(name)) {
    return { ok: false, error: { code: 'invalid-input', message: `There is no call named "${name.slice(0, 80)}".` } };
  }
  try {
    return { ok: true, value: await runCall(handlers, name, rawInput) };
  } catch (error) {
    if (error instanceof ContractDriftError) {
      opts.log?.('error', redact(`${name} returned an output that does not match the contract: ${error.details}`));
      return { ok: false, error: { code: 'internal', message: error.message } };
    }
    const classified = classifyError(error, name);
    if (!classified.expected) opts.log?.('error', redact(`${name} failed: ${errorText(error)}`));
    return { ok: false, error: { code: classified.code, message: redact(classified.message) } };
  }
}

/** Typed convenience for tests and the desktop glue. */
export function call<C extends CallName>(handlers: Handlers, name: C, input: CallInput<C>, opts?: DispatchOptions): Promise<Result<CallOutput<C>>> {
  return dispatch(handlers, name, input, opts) as Promise<Result<CallOutput<C>>>;
}
