// A tiered campaign file for the CLI tests (issue 13, a gift per row): two KR products of the
// simulator's catalog, each row naming its own by id or by exact name; a campaign's delivery report
// read back as records.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import type { AuditAccount } from '../../electron/simulator/index.ts';
import type { CallInput, CallName, CallOutput } from '../../shared/contract.ts';
import { createAppService, type AppService } from '../../electron/core/app/index.ts';
import { openEngine } from '../../electron/core/engine.ts';
import { createMemorySecretStore } from '../../electron/core/secrets/secret-store.ts';
import type { SimulatorProcess } from './cli.ts';

/** The simulator's names of the two tiers (catalog.ts: kr-fixed-krw, kr-range-krw). */
export const FIXED_NAME = 'Hanbit Cafe Mobile Voucher 30,000 KRW';
export const RANGE_NAME = 'Nuri Department Store Gift';
const FIXED_PRICE = 30_000;

export interface TierLine {
  /** The line of the file (the header is line 1). */
  line: number;
  name: string;
  email: string;
  product: 'fixed' | 'range';
  /** The Product cell: the product's id or its exact name. */
  cell: string;
  /** The Amount cell ('' for the fixed price). */
  amountCell: string;
  /** What the row asks for, in KRW. */
  amount: number;
  /** Costs more than the account's whole balance: the service refuses it (402). */
  fails: boolean;
}

/**
 * Eleven rows: the fixed voucher first (so the run's first order is of it, and the range product's
 * first order comes later), range amounts that are never the product's minimum (5000), and two
 * range rows of 400,000 and 450,000 KRW that the test's balance never pays, with rows between them
 * (two refusals never make the three in a row that pause a campaign).
 */
export function tierLines(ids: { fixed: number; range: number }): TierLine[] {
  const spec: [TierLine['product'], 'id' | 'name', number | null, boolean][] = [
    ['fixed', 'name', null, false],
    ['range', 'id', 5_100, false],
    ['range', 'name', 5_200, false],
    ['fixed', 'id', FIXED_PRICE, false],
    ['range', 'id', 400_000, true],
    ['fixed', 'name', null, false],
    ['range', 'id', 5_300, false],
    ['range', 'name', 5_400, false],
    ['fixed', 'id', null, false],
    ['range', 'id', 450_000, true],
    ['range', 'id', 5_500, false],
  ];
  return spec.map(([product, by, amount, fails], i) => ({
    line: i + 2,
    name: `Guest ${i + 1}`,
    email: `guest${i + 1}@example.com`,
    product,
    cell: by === 'id' ? String(ids[product]) : product === 'fixed' ? FIXED_NAME : RANGE_NAME,
    amountCell: amount === null ? '' : String(amount),
    amount: amount ?? FIXED_PRICE,
    fails,
  }));
}

/** The lines as a CSV file (Name,Email,Product,Amount) in `dir`. */
export function tiersCsv(dir: string, lines: readonly TierLine[]): string {
  const file = join(dir, 'tiers.csv');
  const text = Papa.unparse({ fields: ['Name', 'Email', 'Product', 'Amount'], data: lines.map((l) => [l.name, l.email, l.cell, l.amountCell]) }, { newline: '\r\n' });
  writeFileSync(file, `${text}\r\n`);
  return file;
}

/** The simulator's audit of one key's account (throws when it has none). */
export async function auditOf(sim: SimulatorProcess, key: string): Promise<AuditAccount> {
  const account = (await sim.audit()).accounts[key];
  if (!account) throw new Error(`the simulator has no account for the key ${key.slice(0, 4)}…`);
  return account;
}

export type ReportRow = Record<'name' | 'email' | 'amount' | 'state' | 'charged_amount' | 'external_reference_id' | 'last_error' | 'source_line' | 'issued_amount' | 'discrepancy' | 'product_id', string>;

/** A campaign's delivery report (what `giftbatch report` writes), its rows without the totals, as records. */
export async function readReport(h: DataFolder, campaignId: string): Promise<ReportRow[]> {
  const { csv } = await h.ok('campaigns:report', { campaignId });
  const parsed = Papa.parse<ReportRow>(csv.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true });
  return parsed.data.filter((r) => r.source_line !== undefined && r.source_line !== '');
}

/** The app's calls on a data folder the CLI uses, between its commands (no polling, no key). */
export interface DataFolder {
  service: AppService;
  /** Calls and expects success; throws the error's code and message otherwise. */
  ok<C extends CallName>(name: C, input: CallInput<C>): Promise<CallOutput<C>>;
  close(): Promise<void>;
}

/**
 * Opens the folder's engine and an app service over it, as the CLI does, for reading and for calls
 * that need no service. Closed by its caller: unlike app-harness's startService (closed after each
 * test, all at once), several can be open in tests that run concurrently.
 */
export async function openDataFolder(dataDir: string): Promise<DataFolder> {
  const engine = await openEngine({ dataDir, secrets: createMemorySecretStore('no keychain in tests'), env: {} });
  const service = createAppService({ engine, shell: 'cli', env: {}, polling: { auto: false } });
  return {
    service,
    async ok(name, input) {
      const result = await service.invoke(name, input);
      if (!result.ok) throw new Error(`${name} failed: ${result.error.code}: ${result.error.message}`);
      return result.value;
    },
    async close() {
      await service.close();
      await engine.close();
    },
  };
}

/** `fn` on the folder opened, closed after it whatever happens. */
export async function withDataFolder<T>(dataDir: string, fn: (folder: DataFolder) => Promise<T>): Promise<T> {
  const folder = await openDataFolder(dataDir);
  try {
    return await fn(folder);
  } finally {
    await folder.close();
  }
}
