// A fingerprint of the contract (every call's input and output schema, every event, the error
// codes), the same on both sides only when both were built from the same contract. The engine
// states its own in `app:info`; a window compares it with its own before drawing anything, so a
// window rebuilt against an engine still running older code (or the reverse) says so, rather than
// draw screens from answers it misreads. Computed once, on first use (about 10 ms).
import { z } from 'zod';
import { contract, errorCodes, events } from './contract.ts';

let memo: string | null = null;

/** This build's contract's fingerprint. */
export function contractFingerprint(): string {
  memo ??= fingerprintOf(contract, events, errorCodes);
  return memo;
}

/** The fingerprint of a contract's calls, events and error codes. */
export function fingerprintOf(
  calls: Readonly<Record<string, { input: z.ZodType; output: z.ZodType }>>,
  eventSchemas: Readonly<Record<string, z.ZodType>>,
  codes: readonly string[],
): string {
  const shape = (schema: z.ZodType, io: 'input' | 'output') => JSON.stringify(z.toJSONSchema(schema, { io, unrepresentable: 'any' }));
  const parts = [
    ...Object.entries(calls).map(([name, c]) => `${name} ${shape(c.input, 'input')} ${shape(c.output, 'output')}`),
    ...Object.entries(eventSchemas).map(([name, schema]) => `${name} ${shape(schema, 'output')}`),
    `errors ${codes.join(',')}`,
  ];
  return fnv1a(parts.join('\n'));
}

/** FNV-1a, 32 bits, as 8 hex digits: enough to tell two builds apart, and no Node or DOM API. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
