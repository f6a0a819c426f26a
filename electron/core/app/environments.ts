// Environments as the settings screen sees them: which one is current, each one's service address
// and request rate (settings in SQLite), and whether a key is set (the SecretStore only; the key
// itself never leaves the engine).
import { z } from 'zod';
import { environmentSchema, type EnvironmentInfo, type EnvironmentName } from '../../../shared/contract.ts';
import { DEFAULT_RATES, type Connection } from '../connections.ts';
import { deleteSetting, getSetting, setSetting } from '../db/repos/settings.ts';
import type { Engine } from '../engine.ts';
import { AppError } from './errors.ts';

export const ENVIRONMENT_NAMES = environmentSchema.options;

const urlSetting = z.string().url().nullable();
const rateSetting = z.number().positive().max(1000);

export const settingKeys = {
  current: 'currentEnvironment',
  welcomeDismissed: 'welcomeDismissed',
  baseUrl: (env: EnvironmentName) => `baseUrl.${env}`,
  rate: (env: EnvironmentName) => `rate.${env}`,
} as const;

export function currentEnvironment(engine: Engine): EnvironmentName {
  return getSetting(engine.db, settingKeys.current, environmentSchema, 'simulator');
}

/** The stored service address; for the simulator, an external simulator to use instead of the built-in one. */
export function storedBaseUrl(engine: Engine, env: EnvironmentName): string | null {
  return getSetting(engine.db, settingKeys.baseUrl(env), urlSetting, null);
}

export function storedRate(engine: Engine, env: EnvironmentName): number {
  return getSetting(engine.db, settingKeys.rate(env), rateSetting, DEFAULT_RATES[env]);
}

export async function environmentInfo(engine: Engine, env: EnvironmentName, processEnv: NodeJS.ProcessEnv): Promise<EnvironmentInfo> {
  const fromEnv = processEnv.GIFTBATCH_API_KEY?.trim();
  const stored = await engine.secrets.describe(env);
  let keySource: EnvironmentInfo['keySource'];
  let key: EnvironmentInfo['key'];
  if (fromEnv) {
    keySource = 'env';
    key = { set: true, ...(fromEnv.length > 8 ? { endsWith: fromEnv.slice(-4) } : {}) };
  } else if (stored.set) {
    keySource = engine.secrets.backend === 'keychain' ? 'keychain' : 'session';
    key = { set: true, ...(stored.endsWith ? { endsWith: stored.endsWith } : {}) };
  } else {
    keySource = env === 'simulator' ? 'simulator' : 'none';
    key = { set: false };
  }
  return {
    name: env,
    baseUrl: storedBaseUrl(engine, env),
    simulated: env === 'simulator',
    rate: storedRate(engine, env),
    key,
    keySource,
  };
}

/** Checks an address typed by the user; null clears it (for the simulator: back to the built-in one). */
export function checkedBaseUrl(text: string | null): string | null {
  if (text === null || text.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new AppError('invalid-input', `"${text}" is not a web address. Use the form https://host[:port].`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError('invalid-input', `"${text}" is not an http(s) address. Use the form https://host[:port].`);
  }
  if (url.username || url.password) {
    throw new AppError('invalid-input', 'The service address must not contain a user name or password; the API key is entered separately.');
  }
  return url.toString().replace(/\/+$/, '');
}

export function updateEnvironment(engine: Engine, env: EnvironmentName, change: { baseUrl?: string | null; rate?: number }): void {
  const now = engine.clock.now();
  if (change.baseUrl !== undefined) {
    const url = checkedBaseUrl(change.baseUrl);
    if (url === null) deleteSetting(engine.db, settingKeys.baseUrl(env));
    else setSetting(engine.db, settingKeys.baseUrl(env), url, now);
  }
  if (change.rate !== undefined) setSetting(engine.db, settingKeys.rate(env), change.rate, now);
  engine.connections.forget(env);
}

/**
 * The connection for new work in an environment. The simulator uses the built-in one unless an
 * external simulator's address is stored (handy for a shared test simulator); the other
 * environments read their address from the settings (connections.ts).
 */
export function connectionOf(engine: Engine, env: EnvironmentName): Promise<Connection> {
  const override = env === 'simulator' ? storedBaseUrl(engine, env) : null;
  return engine.connections.get(env, override ? { baseUrl: override } : {});
}

