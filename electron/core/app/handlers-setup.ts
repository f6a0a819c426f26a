// Calls of the first-launch and settings screens: app info, the sample file, environments and
// keys, and the catalog.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { z } from 'zod';
import { getSetting, setSetting } from '../db/repos/settings.ts';
import type { EnvironmentName } from '../../../shared/contract.ts';
import { contractFingerprint } from '../../../shared/contract-fingerprint.ts';
import { ENVIRONMENTS } from '../../../shared/domain/campaigns.ts';
import type { Handlers } from './dispatch.ts';
import type { AppContext } from './context.ts';
import { pollRoundDto, productDto } from './dto.ts';
import { currentEnvironment, environmentInfo, settingKeys, updateEnvironment } from './environments.ts';
import { AppError } from './errors.ts';
import { serviceName } from '../connections.ts';
import { templateFile } from '../workbook/template.ts';

type SetupCalls =
  | 'app:info'
  | 'app:sampleCsv'
  | 'app:template'
  | 'app:dismissWelcome'
  | 'environments:list'
  | 'environments:select'
  | 'environments:update'
  | 'environments:setKey'
  | 'environments:clearKey'
  | 'environments:test'
  | 'environments:checkNow'
  | 'products:list'
  | 'products:availability';

// What a missing keychain means for the person, in the window; the keychain's own error (e.g. "Cannot
// autolaunch D-Bus without X11 $DISPLAY") goes beside it as a detail for support, not in this sentence.
export const MEMORY_NOTICE =
  'A key you save is kept only while Giftbatch is open, and must be entered again after a restart. ' +
  'To keep keys, open Giftbatch in a desktop session that has a keychain (on Linux: GNOME Keyring or KWallet); ' +
  'the CLI can also take the key from the GIFTBATCH_API_KEY variable.';

export function setupHandlers(ctx: AppContext): Pick<Handlers, SetupCalls> {
  const { engine } = ctx;
  const info = (env: EnvironmentName) => environmentInfo(engine, env, ctx.processEnv);
  const ok = { ok: true } as const;

  return {
    async 'app:info'() {
      const memory = engine.secrets.backend !== 'keychain';
      return {
        version: ctx.version,
        shell: ctx.shell,
        environment: currentEnvironment(engine),
        firstLaunch: !getSetting(engine.db, settingKeys.welcomeDismissed, z.boolean(), false),
        keychain: {
          available: !memory,
          notice: memory ? MEMORY_NOTICE : null,
          detail: memory ? (engine.secrets.unavailableError ?? engine.secrets.unavailableReason ?? null) : null,
        },
        sampleCsvName: basename(ctx.sampleCsvPath),
        contract: contractFingerprint(),
      };
    },

    async 'app:sampleCsv'() {
      let bytes: Buffer;
      try {
        bytes = await readFile(ctx.sampleCsvPath);
      } catch {
        throw new AppError('configuration', `The sample file is missing from this installation (${basename(ctx.sampleCsvPath)}). Use a CSV of your own.`);
      }
      return { fileName: basename(ctx.sampleCsvPath), bytesBase64: bytes.toString('base64') };
    },

    async 'app:template'({ format }) {
      const { fileName, bytes } = templateFile(format);
      return { fileName, bytesBase64: Buffer.from(bytes).toString('base64') };
    },

    async 'app:dismissWelcome'() {
      setSetting(engine.db, settingKeys.welcomeDismissed, true, engine.clock.now());
      return ok;
    },

    async 'environments:list'() {
      return { current: currentEnvironment(engine), environments: await Promise.all(ENVIRONMENTS.map((env) => info(env))) };
    },

    async 'environments:select'({ environment }) {
      setSetting(engine.db, settingKeys.current, environment, engine.clock.now());
      return ok;
    },

    async 'environments:update'({ environment, baseUrl, rate }) {
      const { keyCleared } = await updateEnvironment(engine, environment, { ...(baseUrl !== undefined ? { baseUrl } : {}), ...(rate !== undefined ? { rate } : {}) });
      return { ...(await info(environment)), keyCleared };
    },

    async 'environments:setKey'({ environment, key }) {
      ctx.redactor.add(key);
      try {
        await engine.secrets.set(environment, key);
      } catch (error) {
        // The store's own messages say what is wrong with the key without quoting it.
        throw new AppError('invalid-input', error instanceof Error ? error.message : 'The key could not be stored.');
      }
      engine.connections.forget(environment);
      return info(environment);
    },

    async 'environments:clearKey'({ environment }) {
      await engine.secrets.delete(environment);
      engine.connections.forget(environment);
      return info(environment);
    },

    async 'environments:test'({ environment }) {
      engine.connections.forget(environment);
      let connection;
      try {
        connection = await engine.connections.get(environment);
      } catch (error) {
        return { ok: false, message: error instanceof Error ? error.message : 'The environment is not set up.', products: null };
      }
      const outcome = await connection.client.listAllProducts();
      const service = serviceName(connection);
      const opening = serviceName(connection, { start: true });
      switch (outcome.kind) {
        case 'ok': {
          const count = outcome.value.products.length;
          const unread = outcome.value.invalid.length;
          const more = unread > 0 ? ` (and ${unread} record${unread === 1 ? '' : 's'} it could not read: the catalog names each)` : '';
          return { ok: true, message: `Connected to ${service}: the key works and the catalog lists ${count} product${count === 1 ? '' : 's'}${more}.`, products: count + unread };
        }
        case 'auth':
          // Its own words only: outcome.message names the request and ends with advice of its own,
          // which read as a sentence nested in a sentence, 'Check the key' twice.
          return { ok: false, message: `${opening} rejected the API key (it answered ${outcome.detail ?? `HTTP ${outcome.status}`}). Check the key, set it again, and test once more.`, products: null };
        case 'rejected':
          return { ok: false, message: `${opening} refused the catalog request (${outcome.message}). Check the service address.`, products: null };
        default:
          return { ok: false, message: `${opening} could not be reached or gave no clear answer (${outcome.message}). Check the address and your network, then test again.`, products: null };
      }
    },

    async 'environments:checkNow'({ environment }) {
      const connection = await engine.connections.get(environment);
      const result = await ctx.pollers.checkTarget({ environment, baseUrl: connection.baseUrl });
      return pollRoundDto(result, result.waiting > 0 ? engine.nextPollDelay(connection) : null);
    },

    async 'products:list'({ environment, country, currency }) {
      const connection = await engine.connections.get(environment);
      const catalog = await engine.catalog(connection, country, currency ? { currency } : {});
      const products = [...catalog.orderable, ...catalog.unorderable.map((u) => u.product)].map(productDto);
      return { products, unreadable: catalog.unreadable.map(({ id, name, problem, needsCurrency }) => ({ id, name, problem, needsCurrency })), service: serviceName(connection) };
    },

    async 'products:availability'({ environment, productId }) {
      const connection = await engine.connections.get(environment);
      const checked = await connection.client.getAvailability(productId);
      // A warning ahead of the pre-flight, which asks again before any send: no answer is no warning.
      if (checked.kind !== 'ok') return { inStock: null, message: null };
      return { inStock: checked.value.inStock ?? null, message: checked.value.message ?? null };
    },
  };
}
