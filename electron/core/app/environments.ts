// Environments as the settings screen sees them: which one is current, each one's service address
// and request rate (settings in SQLite), and whether a key is set (the SecretStore only; the key
// itself never leaves the engine).
import { z } from 'zod';
import { environmentSchema, type EnvironmentInfo, type EnvironmentName } from '../../../shared/contract.ts';
import { addressProblem, DEFAULT_RATES } from '../connections.ts';
import { deleteSetting, getSetting, setSetting } from '../db/repos/settings.ts';
import type { Engine } from '../engine.ts';
import { AppError } from './errors.ts';

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
export function checkedBaseUrl(env: EnvironmentName, text: string | null): string | null {
  if (text === null || text.trim() === '') return null;
  const problem = addressProblem(env, text);
  if (problem) throw new AppError('invalid-input', problem);
  return new URL(text.trim()).toString().replace(/\/+$/, '');
}

/**
 * A key is bound to the address it was entered for: a new address clears the environment's stored
 * key (it goes nowhere it was not entered for), and says so. Returns whether it did.
 */
export async function updateEnvironment(engine: Engine, env: EnvironmentName, change: { baseUrl?: string | null; rate?: number }): Promise<{ keyCleared: boolean }> {
  const now = engine.clock.now();
  let keyCleared = false;
  if (change.baseUrl !== undefined) {
    const url = checkedBaseUrl(env, change.baseUrl);
    const before = storedBaseUrl(engine, env);
    if (url === null) deleteSetting(engine.db, settingKeys.baseUrl(env));
    else setSetting(engine.db, settingKeys.baseUrl(env), url, now);
    if (url !== before && (await engine.secrets.describe(env)).set) {
      await engine.secrets.delete(env);
      keyCleared = true;
    }
  }
  if (change.rate !== undefined) setSetting(engine.db, settingKeys.rate(env), change.rate, now);
  engine.connections.forget(env);
  return { keyCleared };
}


