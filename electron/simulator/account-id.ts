// Accounts are keyed by a hash of their API key, never by the key: the state file (state-file.ts)
// is a plain file in a data folder or wherever --state-file points, and gets copied into bug
// reports, CI artifacts and backups, so it must not hand a key to whoever reads it. A request is
// matched to its account by hashing the key it presents.
//
// SHA-256 with a fixed domain prefix, not a slow KDF (scrypt, argon2): the point is that the file
// does not contain the key, not to resist guessing. The keys worth protecting are service API
// keys, long random strings nobody can guess through a fast hash; a test key like "key-a" is no
// secret, and a KDF would cost tens of ms on every first request of a key and on every replay. The
// prefix keeps these hashes apart from any other SHA-256 of the same key (the catalog's product-id
// offset, catalog.ts, is one). No salt: the same key must give the same account in every process.

import { createHash } from 'node:crypto';

export const ACCOUNT_HASH_PREFIX = 'giftbatch-simulator-account:';

/** What the audit names an account by when this process does not know its key. */
export const HIDDEN_KEY_LABEL_PREFIX = 'sha256:';

/** An account's id: lowercase hex SHA-256 of ACCOUNT_HASH_PREFIX + key. What the state file records. */
export function accountIdOf(key: string): string {
  return createHash('sha256').update(ACCOUNT_HASH_PREFIX + key, 'utf8').digest('hex');
}

/**
 * The audit's name for an account whose key has not been presented to this process (loaded from a
 * state file, and no request or control call with its key since the restart): `sha256:<account id>`.
 */
export function hiddenKeyLabel(key: string): string {
  return labelOfAccountId(accountIdOf(key));
}

export function labelOfAccountId(accountId: string): string {
  return HIDDEN_KEY_LABEL_PREFIX + accountId;
}
