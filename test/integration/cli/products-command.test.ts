import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SIMULATOR_LOCAL_KEY } from '../../../electron/core/connections.ts';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { COUNTRIES } from '../../../shared/domain/countries.ts';
import { json, runCli, tempDir } from '../../support/cli.ts';

// giftbatch products: the service lists products one country at a time and has no call that lists
// countries, so a missing or wrong --country says what to give, with an example and the countries
// the app knows of; the table has a header row; --json is as before.
describe('giftbatch products', () => {
  const data = (): string[] => ['--data-dir', join(tempDir(), 'data')];

  it('without --country exits 2 saying why it is needed, an example and the countries the app knows of; nothing on stdout', async () => {
    const result = await runCli(['products', ...data()]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.split('\n');
    expect(lines[0]).toBe('giftbatch: --country takes a two-letter country code: the service lists products one country at a time and has no call that lists its countries.');
    expect(lines[1]).toBe('For example: giftbatch products --country US');
    expect(lines[2]).toMatch(/^Countries the app knows of \(any other two-letter code can be given too\): US \(United States\), GB \(United Kingdom\), DE \(Germany\), .*MX \(Mexico\)\.$/);
    for (const c of COUNTRIES) expect(lines[2]).toContain(`${c.code} (${c.name})`);
  }, 30_000);

  it('a country given by name is refused with its code; a three-letter code is refused as given', async () => {
    const named = await runCli(['products', '--country', 'germany', ...data()]);
    expect(named.code).toBe(2);
    expect(named.stderr.split('\n')[0]).toBe('giftbatch: --country takes a two-letter country code: DE for Germany (got "germany").');
    const usa = await runCli(['products', '--country', 'USA', ...data()]);
    expect(usa.code).toBe(2);
    expect(usa.stderr.split('\n')[0]).toBe('giftbatch: --country takes a two-letter country code (got "USA").');
    expect(usa.stderr).toContain('For example: giftbatch products --country US');
  }, 30_000);

  it('lists a country\'s products under a header row whose titles sit over their columns; --json has no header and the same keys', async () => {
    const dir = data();
    const result = await runCli(['products', '--country', 'de', ...dir]);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    const fixed = productIdFor(SIMULATOR_LOCAL_KEY, 'de-fixed-eur');
    const range = productIdFor(SIMULATOR_LOCAL_KEY, 'de-range-eur');
    expect(lines).toEqual([
      `${'ID'.padStart(8)}  ${'Price'.padEnd(22)}  Product`,
      `${String(fixed).padStart(8)}  ${'EUR 25.00'.padEnd(22)}  Bergquell Kaufhaus — Bergquell Kaufhaus Gutschein 25 €`,
      `${String(range).padStart(8)}  ${'EUR 10.00–200.00'.padEnd(22)}  Lindenhof Reisen — Lindenhof Reisen Gutschein`,
    ]);
    expect(lines[0]!.indexOf('Price')).toBe(lines[1]!.indexOf('EUR'));
    expect(lines[0]!.indexOf('Product')).toBe(lines[1]!.indexOf('Bergquell'));

    const listed = json<Record<string, unknown>[]>((await runCli(['products', '--country', 'DE', '--json', ...dir])).stdout);
    expect(listed.map((p) => p['id'])).toEqual([fixed, range]);
    expect(Object.keys(listed[0]!)).toEqual(['id', 'name', 'brand', 'currency', 'currency_source', 'availability', 'delivery_methods', 'amount']);
    expect(Object.keys(listed[1]!)).toEqual(['id', 'name', 'brand', 'currency', 'currency_source', 'availability', 'delivery_methods', 'min_amount', 'max_amount']);
  }, 30_000);

  it('a country with no product prints no header, and one the app does not know of is named with the known ones', async () => {
    const result = await runCli(['products', '--country', 'UK', ...data()]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('No product can be ordered by e-mail in UK from the built-in simulator.\n');
    expect(result.stderr).toMatch(/^note: UK is not among the countries the app knows of: US \(United States\), GB \(United Kingdom\), /);
  }, 30_000);
});
