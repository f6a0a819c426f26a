// Rows come back from SQLite as unknown and are parsed, not cast: a value the code does not expect
// (a hand-edited file, a bug in an older version) stops with a message naming the table and row
// instead of travelling on as a wrong type.

import { z } from 'zod';
import { isCurrencyCode } from '../../../shared/domain/money.ts';

export class CorruptRowError extends Error {
  override readonly name = 'CorruptRowError';
}

export function parseRow<S extends z.ZodType>(schema: S, table: string, raw: unknown): z.output<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const id = raw && typeof raw === 'object' && 'id' in raw ? String(raw.id) : '?';
  throw new CorruptRowError(
    `The data file holds an unexpected value in ${table} row ${id}: ${z.prettifyError(result.error)}. ` +
      `Run the integrity check, and keep a copy of the data folder before changing anything.`,
  );
}

export function parseRows<S extends z.ZodType>(schema: S, table: string, raws: readonly unknown[]): z.output<S>[] {
  return raws.map((raw) => parseRow(schema, table, raw));
}

/** A TEXT column holding JSON, parsed and then checked against `schema`. */
export function jsonText<S extends z.ZodType>(schema: S) {
  return z
    .string()
    .transform((text, ctx): unknown => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'is not valid JSON' });
        return z.NEVER;
      }
    })
    .pipe(schema);
}

export const currencyCode = z.string().refine(isCurrencyCode, 'is not an upper-case three-letter currency code');
export const timestamp = z.number().int().nonnegative();
export const minorUnits = z.number().int().refine(Number.isSafeInteger, 'is not a safe integer');
/** The service's decimal numbers (rates, fee rates), kept as their text. */
export const decimalText = z.string().regex(/^\d+(\.\d+)?$/, 'is not a plain decimal number');

/** Validation findings stored with a row: at least a message; whatever else the validator adds is kept. */
export const issueSchema = z.looseObject({ message: z.string(), field: z.string().optional(), code: z.string().optional() });
export type Issue = z.infer<typeof issueSchema>;

