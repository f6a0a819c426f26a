// giftbatch template: writes the same template the app gives, as .xlsx or .csv by --out's
// extension; usage errors exit 2 with a clear message and write nothing.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importFile } from '../../../electron/core/workbook/import.ts';
import { templateFile } from '../../../electron/core/workbook/template.ts';
import type { ProductForValidation } from '../../../shared/domain/validation.ts';
import { json, runCli, tempDir } from '../../support/cli.ts';

const product: ProductForValidation = { id: 1, currency: 'USD', price: { kind: 'range', min: { minor: 500, currency: 'USD' }, max: { minor: 50_000, currency: 'USD' } } } as ProductForValidation;

describe('giftbatch template', () => {
  it('writes the workbook template, the same bytes as the app gives, which the import reads (header on row 2)', async () => {
    const dir = tempDir();
    const file = join(dir, 'list.XLSX');
    const result = await runCli(['template', '--out', file, '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(json(result.stdout)).toEqual({ file, format: 'xlsx', columns: ['Name', 'Email', 'Amount', 'Message', 'Product'] });
    const bytes = new Uint8Array(readFileSync(file));
    expect(bytes).toEqual(templateFile('xlsx').bytes);
    expect(importFile(bytes, product).parsed).toMatchObject({ format: 'xlsx', headerLine: 2, headers: ['Name', 'Email', 'Amount', 'Message', 'Product'] });
    expect(readdirSync(dir)).toEqual(['list.XLSX']);
  });

  it('refuses to replace an existing file (exit 2, the file untouched) unless --force is given', async () => {
    const dir = tempDir();
    const file = join(dir, 'list.csv');
    const filled = 'Name,Email,Amount\nAda,ada@example.com,25\n';
    writeFileSync(file, filled);
    const refused = await runCli(['template', '--out', file]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(`giftbatch: ${file} already exists; nothing was written. Name another file with --out, or add --force to replace it with an empty template.\n`);
    expect(readFileSync(file, 'utf8')).toBe(filled);
    expect(readdirSync(dir)).toEqual(['list.csv']);

    const forced = await runCli(['template', '--out', file, '--force']);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain(`Wrote the CSV template (Name, Email, Amount, Message, Product) to ${file}`);
    expect(new Uint8Array(readFileSync(file))).toEqual(templateFile('csv').bytes);
  });

  it('documents --force in its help', async () => {
    const result = await runCli(['template', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Usage: giftbatch template --out FILE\.xlsx\|FILE\.csv \[--force\] \[--json\]/);
    expect(result.stdout).toContain('\nOptions:\n  --force  replace FILE if it exists\n  --json   print exactly one JSON document on stdout\n');
  });

  it('usage errors exit 2, say what is wrong and write nothing', async () => {
    const dir = tempDir();
    // A folder named like the file (elsewhere: this test's folder must stay empty).
    const folder = join(tempDir(), 'list.xlsx');
    mkdirSync(folder);
    const cases: [string[], RegExp][] = [
      [['template'], /--out FILE\.xlsx or FILE\.csv is required/],
      [['template', '--out', join(dir, 'list.ods')], /--out must end in \.xlsx or \.csv \(got ".*list\.ods"\)/],
      [['template', '--out', join(dir, 'list')], /--out must end in \.xlsx or \.csv/],
      // template takes no positional argument at all: the file goes after --out (a second one was "one argument too many").
      [['template', 'list.csv'], /^giftbatch: template takes no file name; write it with --out list\.csv\n\nUsage: giftbatch template /],
      [['template', 'a', 'b'], /^giftbatch: template takes no file name; write it with --out a\.xlsx\n\nUsage: giftbatch template /],
      [['template', 'my list.xlsx', '--out', join(dir, 'a.csv')], /^giftbatch: template takes no file name; write it with --out 'my list\.xlsx'\n/],
      [['template', '--out', join(dir, 'no-such-folder', 'list.csv')], /Cannot write .*list\.csv: its folder does not exist/],
      [['template', '--out', join(dir, 'a.csv'), '--colour', 'red'], /Unknown option '--colour'/],
      [['template', '--out', folder], /^giftbatch: Cannot write .*list\.xlsx: it is a folder; name the file to write in it\.\n$/],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
      expect(result.stdout, args.join(' ')).toBe('');
    }
    expect(readdirSync(dir)).toEqual([]);
    expect(existsSync(join(dir, 'no-such-folder'))).toBe(false);
  });

  it('is listed in the usage', async () => {
    const result = await runCli(['--help']);
    expect(result.stdout).toMatch(/template\s+write an empty recipient list/);
  });
});
