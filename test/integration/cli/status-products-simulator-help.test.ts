import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignStatus } from '../../../electron/cli/status.ts';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { json, runCli, startSimulatorProcess, tempDir, writeRecipients, type SimulatorProcess } from '../../support/cli.ts';

// Found in the event-day review: `status` named one product for a campaign whose gift column used
// two ([sandbox, product 1615302]); and `giftbatch simulator --help` printed to stderr, where every
// other command's help goes to stdout.
const KEY = 'cli-status-products-key';
let sim: SimulatorProcess;
beforeAll(async () => {
  sim = await startSimulatorProcess(['--log', 'problems', '--item-delay', '100']);
});
afterAll(async () => {
  await sim?.stop();
});

describe('giftbatch status names every product of a campaign', () => {
  it('a campaign of two gifts: each named, by id and name, in the line and the JSON', async () => {
    const dir = tempDir();
    const common = ['--base-url', sim.url, '--data-dir', join(dir, 'data')];
    const books = productIdFor(KEY, 'us-fixed-25');
    const coffee = productIdFor(KEY, 'us-fixed-10');
    const csv = join(dir, 'two-gifts.csv');
    writeFileSync(csv, ['Name,Email,Product', `Ann One,ann@example.com,${books}`, `Bo Two,bo@example.com,${coffee}`, `Cy Three,cy@example.com,${books}`].join('\n') + '\n');
    const sent = await runCli(['send', csv, '--product', String(books), '--yes', '--json', ...common], { GIFTBATCH_API_KEY: KEY });
    expect(sent.code, sent.stderr).toBe(0);
    const id = json<{ campaign_id: string }>(sent.stdout).campaign_id;

    const text = await runCli(['status', id, ...common], { GIFTBATCH_API_KEY: KEY });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`[simulator, 2 products: ${books} (Northwind Books Gift Card $25), ${coffee} (Brightleaf Coffee eGift $10)]`);
    const all = await runCli(['status', ...common], { GIFTBATCH_API_KEY: KEY });
    expect(all.stdout).toContain('2 products: ');

    const asJson = await runCli(['status', id, '--json', ...common], { GIFTBATCH_API_KEY: KEY });
    const status = json<CampaignStatus>(asJson.stdout);
    expect(status.product_id).toBe(books);
    expect(status.products).toEqual([
      { product_id: books, name: 'Northwind Books Gift Card $25' },
      { product_id: coffee, name: 'Brightleaf Coffee eGift $10' },
    ]);
  }, 60_000);

  it('a campaign of one product keeps its line as it was', async () => {
    const dir = tempDir();
    const common = ['--base-url', sim.url, '--data-dir', join(dir, 'data')];
    const books = productIdFor(KEY, 'us-fixed-25');
    const sent = await runCli(['send', writeRecipients(dir, 2), '--product', String(books), '--yes', '--json', ...common], { GIFTBATCH_API_KEY: KEY });
    expect(sent.code, sent.stderr).toBe(0);
    const id = json<{ campaign_id: string }>(sent.stdout).campaign_id;
    const text = await runCli(['status', id, ...common], { GIFTBATCH_API_KEY: KEY });
    expect(text.stdout).toContain(`[simulator, product ${books}] `);
    const status = json<CampaignStatus>((await runCli(['status', id, '--json', ...common], { GIFTBATCH_API_KEY: KEY })).stdout);
    expect(status.products).toEqual([{ product_id: books, name: 'Northwind Books Gift Card $25' }]);
  }, 60_000);
});

describe('giftbatch simulator --help', () => {
  it.each(['--help', '-h'])('%s prints the usage on stdout, nothing on stderr, exit 0 (as every other command)', async (flag) => {
    const result = await runCli(['simulator', flag]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: giftbatch simulator \[flags\]\n/);
    expect(result.stdout).toContain('--fault-slow');
    expect(result.stderr).toBe('');
  }, 30_000);
});
