// Where API keys live: the OS keychain through keytar, one entry per
// environment, shared by the desktop app, the CLI and the browser shell. Where no keychain answers
// (no Secret Service on a headless Linux, say), keys are kept for this session only, in memory, and
// the store says so. A key is read only here and in the service client; it never goes to SQLite,
// logs, reports, error messages or the renderer.

export const KEYCHAIN_SERVICE = 'Giftbatch';

export type SecretBackend = 'keychain' | 'memory';

export interface KeyDescription {
  readonly set: boolean;
  /** The last four characters, for "set, ending …a1b2"; absent when no key is set. */
  readonly endsWith?: string;
}

export interface SecretStore {
  readonly backend: SecretBackend;
  /** Why the keychain could not be used, when backend is 'memory' because of a failure. */
  readonly unavailableReason?: string;
  /** The keychain's own error behind unavailableReason (first line), for support: not a sentence for the person. */
  readonly unavailableError?: string;
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<boolean>;
  describe(account: string): Promise<KeyDescription>;
}

export function describeSecret(secret: string | null): KeyDescription {
  if (!secret) return { set: false };
  return { set: true, endsWith: secret.length > 8 ? secret.slice(-4) : '' };
}

export function createMemorySecretStore(unavailableReason?: string, unavailableError?: string): SecretStore {
  const secrets = new Map<string, string>();
  return {
    backend: 'memory',
    ...(unavailableReason ? { unavailableReason } : {}),
    ...(unavailableError ? { unavailableError } : {}),
    get: async (account) => secrets.get(account) ?? null,
    set: async (account, secret) => {
      secrets.set(account, validSecret(secret));
    },
    delete: async (account) => secrets.delete(account),
    describe: async (account) => describeSecret(secrets.get(account) ?? null),
  };
}

interface Keytar {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/**
 * The OS keychain when it answers, else an in-memory store that reports why. The probe is a real
 * read, because keytar loads fine on a machine without a Secret Service and only fails on use.
 */
export async function openSecretStore(opts: { service?: string } = {}): Promise<SecretStore> {
  const service = opts.service ?? KEYCHAIN_SERVICE;
  let keytar: Keytar;
  try {
    keytar = ((await import('keytar')) as { default: Keytar }).default;
    await keytar.getPassword(service, '__probe__');
  } catch (error) {
    const reason = shortReason(error);
    return createMemorySecretStore(`No OS keychain is available (${reason}). Keys are kept for this session only.`, reason);
  }
  return {
    backend: 'keychain',
    get: (account) => keytar.getPassword(service, account),
    set: (account, secret) => keytar.setPassword(service, account, validSecret(secret)),
    delete: (account) => keytar.deletePassword(service, account),
    describe: async (account) => describeSecret(await keytar.getPassword(service, account)),
  };
}

function validSecret(secret: string): string {
  const trimmed = secret.trim();
  if (trimmed === '') throw new Error('The API key is empty. Paste the key from your service account.');
  if ([...trimmed].some((ch) => ch.trim() === '' || ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) {
    throw new Error('The API key contains spaces or control characters. Paste it again without them.');
  }
  return trimmed;
}

function shortReason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]?.slice(0, 160) ?? 'unknown error';
}
