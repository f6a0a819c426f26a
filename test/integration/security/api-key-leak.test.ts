// The API key stays secret (issue 5, Security): set to a unique marker, it appears nowhere after a
// full campaign (send → poll → report) — not in any file of the data folder (the SQLite file, its
// -wal and -shm, the built-in simulator's state file), not in stderr or stdout, not in the report,
// not in any Result or event the renderer is sent. Both for a key from GIFTBATCH_API_KEY and for
// one stored in the OS keychain through environments:setKey.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppService } from '../../../electron/core/app/index.ts';
import { openEngine } from '../../../electron/core/engine.ts';
import { SIMULATOR_STATE_FILE } from '../../../electron/core/paths.ts';
import { createMemorySecretStore, openSecretStore, type SecretStore } from '../../../electron/core/secrets/secret-store.ts';
import { productIdFor } from '../../../electron/simulator/index.ts';
import type { CallName, Result } from '../../../shared/contract.ts';
import { json, runCli, startSimulatorProcess, tempDir, writeRecipients, type CliResult } from '../../support/cli.ts';
import { startSimulator } from '../../support/index.ts';
import { waitFor } from '../../support/app-harness.ts';

// `npm test` runs inside a D-Bus session with an unlocked gnome-keyring and sets
// GIFTBATCH_REQUIRE_KEYCHAIN=1; elsewhere the keychain case runs only if a keychain answers.
const required = process.env.GIFTBATCH_REQUIRE_KEYCHAIN === '1';
const keychain = await openSecretStore({ service: `Giftbatch-test-${randomUUID()}` });

const marker = () => `MARKER-${randomUUID().replace(/-/g, '')}`;

/** Every file under `dir`, with where the marker was found in it (as UTF-8 or UTF-16 text). */
function filesHolding(dir: string, secret: string): { files: string[]; holding: string[] } {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(dir, f)).isFile());
  const needles = [Buffer.from(secret, 'utf8'), Buffer.from(secret, 'utf16le'), Buffer.from(secret.slice(7, 27), 'utf8')];
  const holding = files.filter((f) => {
    const bytes = readFileSync(join(dir, f));
    return needles.some((n) => bytes.includes(n));
  });
  return { files, holding };
}

function expectNoSecret(label: string, text: string, secret: string): void {
  expect(text.includes(secret), `${label} holds the key`).toBe(false);
  expect(text.includes(secret.slice(7, 27)), `${label} holds part of the key`).toBe(false);
  // Not even masked: nothing should have tried to write it out at all.
  expect(text.includes('[redacted key]'), `${label} shows a masked key`).toBe(false);
}

describe('the API key never leaves the keychain / environment', () => {
  it('CLI with GIFTBATCH_API_KEY against a service: not in the data folder, stdout, stderr or the report', async () => {
    const key = marker();
    const sim = await startSimulatorProcess(['--item-delay', '200', '--keys', key]);
    try {
      const dir = tempDir('giftbatch-key-');
      const dataDir = join(dir, 'data');
      const common = ['--env', 'sandbox', '--base-url', sim.url, '--data-dir', dataDir];
      const env = { GIFTBATCH_API_KEY: key };
      const outputs: CliResult[] = [];
      const run = async (args: string[]) => {
        const result = await runCli(args, env);
        outputs.push(result);
        expect(result.code, `${args[0]}: ${result.stderr}`).toBe(0);
        return result;
      };
      await run(['products', '--country', 'US', '--json', ...common]);
      const sent = json<{ campaign_id: string }>((await run(['send', writeRecipients(dir, 8), '--product', String(productIdFor(key, 'us-fixed-25')), '--yes', '--json', ...common])).stdout);
      await run(['poll', sent.campaign_id, '--until-settled', '--interval', '0.3', '--timeout', '20', '--json', ...common]);
      await run(['status', sent.campaign_id, '--json', ...common]);
      const reportFile = join(dir, 'report.csv');
      await run(['report', sent.campaign_id, '--out', reportFile, ...common]);

      expect((await sim.audit()).accounts[key]?.orders).toHaveLength(8);
      const report = readFileSync(reportFile, 'utf8');
      expect(report.match(/,delivered,/g)).toHaveLength(8);
      expectNoSecret('the report', report, key);
      for (const [i, o] of outputs.entries()) {
        expectNoSecret(`stdout of command ${i}`, o.stdout, key);
        expectNoSecret(`stderr of command ${i}`, o.stderr, key);
      }
      const { files, holding } = filesHolding(dataDir, key);
      expect(files).toContain('giftbatch.sqlite');
      expect(holding).toEqual([]);
    } finally {
      await sim.stop();
    }
  }, 60_000);

  it("CLI on the built-in simulator with GIFTBATCH_API_KEY set: the simulator's state file in the data folder never records the user's key", async () => {
    const key = marker();
    const dir = tempDir('giftbatch-key-');
    const dataDir = join(dir, 'data');
    const common = ['--data-dir', dataDir];
    const env = { GIFTBATCH_API_KEY: key };
    const products = await runCli(['products', '--country', 'US', '--json', ...common], env);
    expect(products.code, products.stderr).toBe(0);
    const product = json<{ id: number; amount?: string }[]>(products.stdout).find((p) => p.amount === '25.00');
    const sent = await runCli(['send', writeRecipients(dir, 5), '--product', String(product?.id), '--yes', '--json', ...common], env);
    expect(sent.code, sent.stderr).toBe(0);
    const id = json<{ campaign_id: string }>(sent.stdout).campaign_id;
    const report = await runCli(['report', id, '--out', join(dir, 'report.csv'), ...common], env);
    expect(report.code, report.stderr).toBe(0);

    const { files, holding } = filesHolding(dataDir, key);
    expect(files).toContain(SIMULATOR_STATE_FILE);
    expect(holding).toEqual([]);
    for (const o of [products, sent, report]) expectNoSecret('CLI output', o.stdout + o.stderr, key);
  }, 60_000);

  it('is the keychain, not memory, when the test suite requires it', () => {
    if (required) expect(keychain.backend).toBe('keychain');
  });

  for (const source of ['keychain', 'env'] as const) {
    const runs = source === 'env' || keychain.backend === 'keychain';
    it.runIf(runs)(`app service, key from ${source === 'keychain' ? 'the keychain (environments:setKey)' : 'GIFTBATCH_API_KEY on the built-in simulator'}: not in any Result, event, log line or file after send → poll → report`, async () => {
      const key = marker();
      const dataDir = tempDir('giftbatch-key-');
      const env = source === 'env' ? { GIFTBATCH_API_KEY: key } : {};
      const secrets: SecretStore = source === 'keychain' ? keychain : createMemorySecretStore('not used');
      const sim = source === 'keychain' ? await startSimulator({ itemDelayMs: 100, keys: [key] }) : null;
      const engine = await openEngine({ dataDir, secrets, env });
      const logs: string[] = [];
      const service = createAppService({ engine, shell: 'browser', env, log: (level, message) => logs.push(`${level}: ${message}`), polling: { delayMs: () => 150, startDelayMs: 50, retryDelayMs: 500 } });
      const sent: unknown[] = [];
      service.on('campaign:progress', (p) => sent.push(p));
      service.on('campaign:finished', (p) => sent.push(p));
      const call = async <C extends CallName>(name: C, input: unknown) => {
        const result = (await service.call(name, input)) as Result<never>;
        sent.push(result);
        if (!result.ok) throw new Error(`${name}: ${result.error.code}: ${result.error.message}`);
        return result.value as unknown;
      };
      try {
        const environment = source === 'keychain' ? 'sandbox' : 'simulator';
        if (sim) {
          await call('environments:update', { environment, baseUrl: sim.url });
          await call('environments:setKey', { environment, key });
          expect(await keychain.get('sandbox')).toBe(key);
        }
        await call('environments:select', { environment });
        await call('environments:list', {});
        await call('environments:test', { environment });
        await call('app:info', {});
        const { products } = (await call('products:list', { environment, country: 'US' })) as { products: { id: number; price: { kind: string; amount?: { amount: string } } }[] };
        const product = products.find((p) => p.price.kind === 'fixed' && p.price.amount?.amount === '25.00');
        const csv = Buffer.from('Name,Email\r\nAnn,ann@example.com\r\nBob,bob@example.com\r\nCy,cy@example.com\r\n').toString('base64');
        const file = { fileName: 'guests.csv', bytesBase64: csv, environment, productId: product?.id ?? 0 };
        await call('campaigns:previewImport', file);
        const created = (await call('campaigns:create', { ...file, name: 'Key test', senderName: 'Team' })) as { id: string };
        await call('campaigns:preflight', { campaignId: created.id });
        await call('campaigns:send', { campaignId: created.id, confirmed: true });
        await waitFor('every row delivered', async () => {
          const summary = (await call('campaigns:get', { campaignId: created.id })) as { counts: { delivered: number } };
          return summary.counts.delivered === 3 ? summary : undefined;
        });
        await call('campaigns:checkNow', { campaignId: created.id });
        await call('campaigns:rows', { campaignId: created.id });
        await call('campaigns:timeline', { campaignId: created.id });
        await call('campaigns:list', {});
        const report = (await call('campaigns:report', { campaignId: created.id })) as { csv: string };
        expect(report.csv.match(/,delivered,/g)).toHaveLength(3);
        if (sim) await call('environments:clearKey', { environment });

        expectNoSecret('what the renderer was sent', JSON.stringify(sent), key);
        expectNoSecret('the log', logs.join('\n'), key);
      } finally {
        await service.close();
        await engine.close();
        await sim?.sim.stop();
        if (source === 'keychain') await keychain.delete('sandbox');
      }
      const { files, holding } = filesHolding(dataDir, key);
      expect(files).toContain('giftbatch.sqlite');
      if (source === 'env') expect(files).toContain(SIMULATOR_STATE_FILE);
      expect(holding).toEqual([]);
    }, 60_000);
  }
});
