import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CSV_LIMITS } from '../../../shared/domain/csv/limits.ts';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { SIMULATOR_LOCAL_KEY } from '../../../electron/core/connections.ts';
import { json, runCli, tempDir } from '../../support/cli.ts';

// Issue 12: every byte from a file has a limit. A crafted file ends with a clear message in bounded
// time: cells built to make the e-mail and amount checks take time growing with their square, a
// cell past the cell limit, and a file with more rows than a campaign takes.
describe('crafted CSV files', () => {
  it('cells of an invisible character, 200,000 spaces and a letter are validated in bounded time, each row refused with a reason', async () => {
    const dir = tempDir();
    const file = join(dir, 'crafted.csv');
    const spaces = ' '.repeat(9_000);
    const letters = 'x'.repeat(9_000);
    writeFileSync(file, `Name,Email,Amount\r\nA,\u200b${spaces}a,1${letters}1\r\nB,b@example.com,5${letters}\r\nC,c@example.com,10\r\n`);
    const started = Date.now();
    const result = await runCli(['validate', file, '--product', String(productIdFor(SIMULATOR_LOCAL_KEY, 'us-range')), '--json', '--data-dir', join(dir, 'data')]);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(result.code).toBe(1);
    const report = json<{ rows: number; valid: number; invalid: number; errors: { line: number; field: string; message: string }[] }>(result.stdout);
    expect(report).toMatchObject({ rows: 3, valid: 1, invalid: 2 });
    expect(report.errors.map((e) => e.line)).toEqual(expect.arrayContaining([2, 3]));
  }, 30_000);

  it('a cell past the limit makes its row invalid, named, before anything is cleaned', async () => {
    const dir = tempDir();
    const file = join(dir, 'long-cell.csv');
    writeFileSync(file, `Name,Email\r\nLong,${'a'.repeat(200_000)}@example.com\r\nOk,ok@example.com\r\n`);
    const started = Date.now();
    const result = await runCli(['validate', file, '--product', String(productIdFor(SIMULATOR_LOCAL_KEY, 'us-fixed-10')), '--json', '--data-dir', join(dir, 'data')]);
    expect(Date.now() - started).toBeLessThan(15_000);
    const report = json<{ valid: number; errors: { line: number; message: string }[] }>(result.stdout);
    expect(report.valid).toBe(1);
    expect(report.errors.find((e) => e.line === 2)?.message).toMatch(/the e-mail cell holds 200,012 characters; a cell may hold at most 10,000/);
  }, 30_000);

  it('a file with more rows than a campaign takes is refused whole, saying the limit (exit 2)', async () => {
    const dir = tempDir();
    const file = join(dir, 'huge.csv');
    const lines = ['Email'];
    for (let i = 0; i <= CSV_LIMITS.rows; i++) lines.push(`r${i}@example.com`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    const result = await runCli(['validate', file, '--product', String(productIdFor(SIMULATOR_LOCAL_KEY, 'us-fixed-10')), '--data-dir', join(dir, 'data')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/more than 250,000 rows, the most one campaign takes/);
  }, 60_000);
});
