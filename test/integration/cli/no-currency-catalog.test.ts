import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { json, runCli, startSimulatorProcess, tempDir, writeRecipients, type SimulatorProcess } from '../../support/cli.ts';

// Issue 9: a service whose product records carry no currency field (the spec's product table has
// none). The catalog is never empty without a reason; the organiser states the currency, or the
// one earlier orders were issued in is offered; the first order confirms it.
const KEY = 'cli-no-currency-key';
let sim: SimulatorProcess;
beforeAll(async () => {
  sim = await startSimulatorProcess(['--dialect', 'spec-minimal', '--item-delay', '200', '--log', 'problems']);
});
afterAll(async () => {
  await sim?.stop();
});

interface Listed {
  id: number | null;
  name: string | null;
  problem?: string;
  needs_currency?: boolean;
  currency?: string;
  currency_source?: string;
}

describe('a catalog without currencies', () => {
  it('lists every product with its problem, takes --currency, then learns it from the orders', async () => {
    const dir = tempDir();
    const env = { GIFTBATCH_API_KEY: KEY };
    const common = ['--base-url', sim.url, '--data-dir', join(dir, 'data')];
    const range = productIdFor(KEY, 'us-range');

    const plain = await runCli(['products', '--country', 'US', ...common], env);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(/No product can be ordered by e-mail in US from the simulator service at http:\/\/127\.0\.0\.1:\d+ \(\d+ product records? could not be read, see below\)/);
    expect(plain.stderr).toContain(`(unreadable) ${range} Harborline Market eGift: the service does not state its currency`);
    expect(plain.stderr).toContain('Give it with --currency CCC');

    const listed = json<Listed[]>((await runCli(['products', '--country', 'US', '--json', ...common], env)).stdout);
    expect(listed.find((p) => p.id === range)).toMatchObject({ name: 'Harborline Market eGift', needs_currency: true, problem: expect.stringContaining('does not state its currency') });

    const csv = writeRecipients(dir, 3, '12.50');
    const refused = await runCli(['validate', csv, '--product', String(range), ...common], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/Product \d+ of the simulator service at .*does not state its currency.*--currency CCC/);

    const badFlag = await runCli(['validate', csv, '--product', String(range), '--currency', 'dollars', ...common], env);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toContain('--currency takes a three-letter currency code');

    const validated = await runCli(['validate', csv, '--product', String(range), '--currency', 'usd', '--json', ...common], env);
    expect(validated.code, validated.stderr).toBe(0);
    expect(json<{ valid: number; totals: unknown[] }>(validated.stdout)).toMatchObject({ valid: 3, totals: [{ currency: 'USD', amount: '37.50' }] });
    expect(validated.stderr).toContain('as given by --currency; the first order confirms it');

    const sent = await runCli(['send', csv, '--product', String(range), '--currency', 'USD', '--yes', '--json', ...common], env);
    expect(sent.code, sent.stderr).toBe(0);
    expect(json<{ counts: Record<string, number>; flagged: number }>(sent.stdout)).toMatchObject({ counts: { ordered: 3 }, flagged: 0 });

    // Now the service's own orders say USD: offered by default, and said so.
    const learned = json<Listed[]>((await runCli(['products', '--country', 'US', '--json', ...common], env)).stdout);
    expect(learned.find((p) => p.id === range)).toMatchObject({ currency: 'USD', currency_source: 'learned' });
    const again = await runCli(['validate', csv, '--product', String(range), '--json', ...common], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('as earlier orders were issued in');
  }, 120_000);

  it('a stated currency the first order contradicts pauses the campaign after that one order', async () => {
    const dir = tempDir();
    const env = { GIFTBATCH_API_KEY: KEY };
    const common = ['--base-url', sim.url, '--data-dir', join(dir, 'data')];
    const krw = productIdFor(KEY, 'kr-range-krw');
    const csv = writeRecipients(dir, 5, '6000');
    const sent = await runCli(['send', csv, '--product', String(krw), '--country', 'KR', '--currency', 'USD', '--yes', '--json', ...common], env);
    expect(sent.code).toBe(1);
    expect(json<{ paused_reason: string; counts: Record<string, number> }>(sent.stdout)).toMatchObject({ paused_reason: 'mismatch', counts: { ordered: 1, ready: 4 } });
    expect(sent.stderr).toContain('the service issued KRW 6000 for a USD 6000.00 gift (another currency)');
  }, 60_000);
});
