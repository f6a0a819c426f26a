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

export async function dispatch(handlers: Handlers, name: string, rawInput: unknown, opts: DispatchOptions = {}): Promise<Result<unknown>> {
  const redact = (text: string) => (opts.redactor ? opts.redactor.redact(text) : text);
  if (!isCallName(name)) {
    return { ok: false, error: { code: 'invalid-input', message: `There is no call named "${name.slice(0, 80)}".` } };
  }
  try {
    const input = contract[name].input.parse((rawInput ?? {}) as unknown);
    const run = handlers[name] as (input: unknown) => Promise<unknown>;
    const output: unknown = await run(input);
    const parsed = contract[name].output.safeParse(output);
    if (!parsed.success) {
      opts.log?.('error', redact(`${name} returned an output that does not match the contract: ${parsed.error.message}`));
      return { ok: false, error: { code: 'internal', message: `Giftbatch produced an unexpected answer for ${name}. The details are in the log.` } };
    }
    return { ok: true, value: parsed.data };
  } catch (error) {
    const classified = classifyError(error, name);
    if (!classified.expected) opts.log?.('error', redact(`${name} failed: ${errorText(error)}`));
    return { ok: false, error: { code: classified.code, message: redact(classified.message) } };
  }
}

/** Typed convenience for tests and the desktop glue. */
export function call<C extends CallName>(handlers: Handlers, name: C, input: CallInput<C>, opts?: DispatchOptions): Promise<Result<CallOutput<C>>> {
  return dispatch(handlers, name, input, opts) as Promise<Result<CallOutput<C>>>;
}
