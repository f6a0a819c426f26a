// App settings as key → JSON value (environment base URLs, request rate per environment, the
// current environment). API keys never come here: they live in the OS keychain
// (core/secrets/secret-store.ts), and a key name that looks like a secret is refused outright.

import { z } from 'zod';
import type { Db } from '../open.ts';
import { CorruptRowError, jsonText, parseRow } from '../parse.ts';
import { statement } from '../statements.ts';

export class SecretSettingError extends Error {
  override readonly name = 'SecretSettingError';
}

const KEY_PATTERN = /^[a-z][a-zA-Z0-9]*(\.[a-zA-Z0-9-]+)*$/;
const SECRET_LIKE = /api[-_.]?key|secret|token|passw|credential/i;

function checkKey(key: string): void {
  if (!KEY_PATTERN.test(key)) throw new Error(`"${key}" is not a setting name (use dotted words, e.g. "rate.sandbox")`);
  if (SECRET_LIKE.test(key)) {
    throw new SecretSettingError(
      `The setting "${key}" looks like a secret, and secrets are never stored in the data file; they belong in the OS keychain.`,
    );
  }
}

/** The setting's value parsed with `schema`, or `fallback` when it was never set. */
export function getSetting<S extends z.ZodType>(db: Db, key: string, schema: S, fallback: z.output<S>): z.output<S> {
  checkKey(key);
  const raw = statement(db, 'SELECT key AS id, value FROM settings WHERE key = ?').get(key);
  if (raw === undefined) return fallback;
  const { value } = parseRow(z.object({ id: z.string(), value: z.string() }), 'settings', raw);
  const result = jsonText(schema).safeParse(value);
  if (result.success) return result.data;
  throw new CorruptRowError(
    `The setting "${key}" holds an unexpected value: ${z.prettifyError(result.error)}. Set it again in Settings.`,
  );
}

/** Stores any JSON-serialisable value under `key`, replacing what was there. */
export function setSetting(db: Db, key: string, value: unknown, now: number): void {
  checkKey(key);
  // A secret nested in a value ({ sandbox: { apiKey } }) is refused as well as one at the top.
  const json = JSON.stringify(value, (name: string, v: unknown) => {
    if (name && SECRET_LIKE.test(name)) {
      throw new SecretSettingError(
        `The setting "${key}" holds a field "${name}" that looks like a secret, and secrets are never stored in the data file.`,
      );
    }
    return v;
  });
  if (json === undefined) throw new Error(`the setting "${key}" cannot be stored: its value is not JSON`);
  statement(
    db,
    `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  ).run(key, json, now);
}

export function deleteSetting(db: Db, key: string): boolean {
  checkKey(key);
  return statement(db, 'DELETE FROM settings WHERE key = ?').run(key).changes > 0;
}
