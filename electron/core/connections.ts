// An environment resolved to something we can talk to: its base URL, its key (from
// GIFTBATCH_API_KEY or the keychain, never from the database), one rate limiter shared by every
// request to it, and a client. The Simulator environment starts the built-in simulator in-process,
// keeping its state beside our database so it outlives this process like a real service would.
import type { Clock } from './clock.ts';
import type { Db } from './db/open.ts';
import type { Environment } from './db/repos/campaigns.ts';
import { getSetting } from './db/repos/settings.ts';
import { openEmbeddedService } from './embedded-simulator.ts';
import type { SecretStore } from './secrets/secret-store.ts';
import { createRateLimiter, createServiceClient, type RateLimiter, type ServiceClient } from './service/index.ts';
import { randomBytes, scryptSync } from 'node:crypto';
import { z } from 'zod';

/** Stored as the campaign's base URL for the built-in simulator, whose port changes every run. */
export const EMBEDDED_SIMULATOR_URL = 'simulator://embedded';
/** The built-in simulator opens an account for any key; this one is ours. */
export const SIMULATOR_LOCAL_KEY = 'giftbatch-local-simulator';

export const DEFAULT_RATES: Readonly<Record<Environment, number>> = { simulator: 20, sandbox: 5, production: 5 };

// Once the bucket is dry, requests leave in groups a fifth of a second apart (10 at a time at
// 50/s, one at a time at 5/s), never more than a fifth of a second's worth back to back: the same
// average rate, a fraction of the wake-ups.
const LIMITER_TICK_MS = 200;
const burstFor = (rate: number): number => Math.max(1, Math.ceil(rate / 5));

/**
 * The service a connection talks to, for messages: "the built-in simulator", "the sandbox service at
 * https://…" (`start`: capitalised, to begin a sentence).
 */
export function serviceName(connection: Pick<Connection, 'environment' | 'baseUrl' | 'url'>, opts: { start?: boolean } = {}): string {
  const name = connection.baseUrl === EMBEDDED_SIMULATOR_URL ? 'the built-in simulator' : `the ${connection.environment} service at ${connection.url}`;
  return opts.start ? `T${name.slice(1)}` : name;
}

export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
}

export interface Connection {
  readonly environment: Environment;
  /** What campaigns record as their service address (stable across runs). */
  readonly baseUrl: string;
  /** Where requests actually go. */
  readonly url: string;
  readonly client: ServiceClient;
  readonly limiter: RateLimiter;
  /** "set, ending …a1b2", or where the key came from; never the key. */
  readonly keySource: 'env' | 'keychain' | 'session' | 'simulator';
  /**
   * The fingerprint of this connection's key as `scrypt$salt$hash` (a fresh salt without `like`):
   * compare with `like` to learn whether it is the same key. The key cannot be recovered from it.
   */
  accountFingerprint(like?: string): string;
}

/**
 * scrypt of the key with the fingerprint's own salt: slow on purpose (about 10 ms here), so a short
 * key cannot be guessed from it; API keys are long random strings, and every campaign has its salt.
 */
export function keyFingerprint(key: string, like?: string): string {
  const salt = like?.split('$')[1] ?? randomBytes(16).toString('hex');
  return `scrypt$${salt}$${scryptSync(key, salt, 32, { N: 4_096, r: 8, p: 1 }).toString('hex')}`;
}

export interface ConnectionOptions {
  baseUrl?: string;
  rate?: number;
  timeoutMs?: number;
}

export interface Connections {
  get(environment: Environment, opts?: ConnectionOptions): Promise<Connection>;
  /** Drops the cached connections of an environment, so the next get reads its key, address and rate again. */
  forget(environment: Environment): void;
  close(): Promise<void>;
}

const urlSetting = z.string().url();
const rateSetting = z.number().positive().max(1000);

export function createConnections(deps: {
  db: Db;
  dataDir: string;
  secrets: SecretStore;
  clock: Clock;
  env?: NodeJS.ProcessEnv;
  /**
   * This process's own choice (the CLI's --base-url and --rate): the address of every environment
   * asked for without one (a campaign's connection names its own), and the rate of every connection.
   */
  defaults?: Pick<ConnectionOptions, 'baseUrl' | 'rate'>;
}): Connections {
  const env = deps.env ?? process.env;
  const defaults = deps.defaults ?? {};
  const open = new Map<string, Connection>();
  let simulator: { url: string; stop(): Promise<void> } | null = null;

  async function resolveUrl(environment: Environment, override: string | undefined): Promise<{ baseUrl: string; url: string }> {
    if (override && !(environment === 'simulator' && override === EMBEDDED_SIMULATOR_URL)) {
      return { baseUrl: normaliseUrl(override, environment), url: normaliseUrl(override, environment) };
    }
    const stored = override ? null : getSetting(deps.db, `baseUrl.${environment}`, urlSetting.nullable(), null);
    if (environment === 'simulator') {
      // An external simulator whose address was stored (a shared test simulator), else (or when
      // asked for by its address, as a campaign made on it does) the built-in one.
      if (stored) return { baseUrl: normaliseUrl(stored, environment), url: normaliseUrl(stored, environment) };
      const running = simulator ?? (await openEmbeddedService(deps.dataDir));
      simulator = running;
      return { baseUrl: EMBEDDED_SIMULATOR_URL, url: running.url };
    }
    if (!stored) {
      throw new ConfigurationError(
        `No service address is set for ${environment}. Enter it under Environments & key in the app (or pass --base-url https://… to the CLI).`,
      );
    }
    return { baseUrl: normaliseUrl(stored, environment), url: normaliseUrl(stored, environment) };
  }

  async function resolveKey(environment: Environment): Promise<{ key: string; source: Connection['keySource'] }> {
    const fromEnv = env.GIFTBATCH_API_KEY?.trim();
    if (fromEnv) return { key: fromEnv, source: 'env' };
    const stored = await deps.secrets.get(environment);
    if (stored) return { key: stored, source: deps.secrets.backend === 'keychain' ? 'keychain' : 'session' };
    if (environment === 'simulator') return { key: SIMULATOR_LOCAL_KEY, source: 'simulator' };
    throw new ConfigurationError(
      `No API key is set for ${environment}. Store the key under Environments & key in the app (it goes to the OS keychain), or set GIFTBATCH_API_KEY for the CLI.`,
    );
  }

  return {
    async get(environment, asked = {}) {
      const opts: ConnectionOptions = { ...defaults, ...Object.fromEntries(Object.entries(asked).filter(([, v]) => v !== undefined)) };
      const { baseUrl, url } = await resolveUrl(environment, opts.baseUrl);
      const id = `${environment} ${baseUrl}`;
      const existing = open.get(id);
      if (existing) {
        if (opts.rate) existing.limiter.setRate(opts.rate, burstFor(opts.rate));
        return existing;
      }
      // The built-in simulator needs no key, and its state file records each account's key: never
      // hand it the user's real one (from GIFTBATCH_API_KEY or the keychain).
      const { key, source } =
        baseUrl === EMBEDDED_SIMULATOR_URL ? { key: SIMULATOR_LOCAL_KEY, source: 'simulator' as const } : await resolveKey(environment);
      const rate = opts.rate ?? getSetting(deps.db, `rate.${environment}`, rateSetting, DEFAULT_RATES[environment]);
      const limiter = createRateLimiter({ rate, burst: burstFor(rate), tickMs: LIMITER_TICK_MS, clock: deps.clock });
      // GIFTBATCH_REQUEST_TIMEOUT_MS: for tests that make the simulator answer past the timeout.
      const timeoutMs = opts.timeoutMs ?? (Number(env.GIFTBATCH_REQUEST_TIMEOUT_MS) || undefined);
      const client = createServiceClient({
        baseUrl: url,
        apiKey: key,
        limiter,
        clock: deps.clock,
        ...(timeoutMs ? { timeoutMs } : {}),
      });
      const connection: Connection = { environment, baseUrl, url, client, limiter, keySource: source, accountFingerprint: (like) => keyFingerprint(key, like) };
      open.set(id, connection);
      return connection;
    },
    forget(environment) {
      // Runs in progress keep the connection they hold; only new work picks up the change.
      for (const [id, connection] of open) if (connection.environment === environment) open.delete(id);
    },
    async close() {
      open.clear();
      await simulator?.stop();
      simulator = null;
    },
  };
}

function normaliseUrl(text: string, environment: Environment): string {
  const problem = addressProblem(environment, text);
  if (problem) throw new ConfigurationError(problem);
  return new URL(text).toString().replace(/\/+$/, '');
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Why an address cannot be a service's, or null. Sandbox and Production take only https:, where the
 * key travels encrypted; plain http: only to this machine (a simulator). The key is entered
 * separately, never in the address.
 */
export function addressProblem(environment: Environment, text: string): string | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return `"${text}" is not a web address. Use the form https://host[:port].`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `"${text}" is not an http(s) address. Use the form https://host[:port].`;
  if (url.username || url.password) return 'The service address must not contain a user name or password; the API key is entered separately.';
  if (environment !== 'simulator' && url.protocol === 'http:' && !LOOPBACK.has(url.hostname)) {
    return `"${text}" is plain http:, which would send the ${environment} API key unencrypted. Use https:// (plain http: is only for a service on this machine).`;
  }
  return null;
}
