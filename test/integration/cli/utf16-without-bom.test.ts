import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { SIMULATOR_LOCAL_KEY } from '../../../electron/core/connections.ts';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { json, runCli, tempDir } from '../../support/cli.ts';

// A UTF-16 list saved without a byte-order mark is read as UTF-16 (was: windows-1252, one error
// per row of NUL-separated characters), and validate says which encoding it assumed.
describe('giftbatch validate: UTF-16 without a byte-order mark', () => {
  const list = 'Name\tE-mail\tAmount\tMessage\r\nZoë Müller\tzoe@example.de\t25\tGrüße, 25 € für dich\r\nJürgen Weiß\tjuergen@example.de\t30\tDanke!\r\n';
  const product = String(productIdFor(SIMULATOR_LOCAL_KEY, 'de-range-eur'));

  for (const encoding of ['utf16le', 'utf16be'] as const) {
    it(`reads ${encoding} without a BOM: every row valid, the encoding said in JSON and in text`, async () => {
      const dir = tempDir();
      const file = join(dir, `list-${encoding}.txt`);
      writeFileSync(file, iconv.encode(list, encoding));
      const data = ['--data-dir', join(dir, 'data')];
      const result = await runCli(['validate', file, '--product', product, '--json', ...data]);
      expect(result.stderr).not.toMatch(/error/i);
      expect(result.code).toBe(0);
      const report = json<{ rows: number; valid: number; invalid: number; encoding: string; delimiter: string; totals: { currency: string; amount: string }[]; errors: unknown[] }>(result.stdout);
      expect(report).toMatchObject({ rows: 2, valid: 2, invalid: 0, encoding: encoding === 'utf16le' ? 'utf-16le' : 'utf-16be', delimiter: '\t', errors: [] });
      expect(report.totals).toEqual([{ currency: 'EUR', amount: '55.00' }]);

      const text = await runCli(['validate', file, '--product', product, ...data]);
      expect(text.code).toBe(0);
      expect(text.stdout.split('\n')[0]).toBe(`2 rows: 2 ready to send, 0 need fixing, 0 repeated e-mails (${report.encoding}, delimiter "\\t")`);
    }, 60_000);
  }
});
