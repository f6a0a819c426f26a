// ValidateOptions.checkpoint: a long check's chance to stop (a stopped campaigns:create). It is
// called before every 2,000th row, for a CSV (comma and tab), a typed list and a workbook's rows
// alike, and what it throws ends the check and comes out of the import as it is.
import { describe, expect, it } from 'vitest';
import { importCsv, importRows } from '../../../../../shared/domain/csv/index.ts';
import { money } from '../../../../../shared/domain/money.ts';
import { CHECKPOINT_ROWS, validateRows, type ProductForValidation } from '../../../../../shared/domain/validation.ts';

const fixed: ProductForValidation = { id: 1, currency: 'USD', price: { kind: 'fixed', amount: money(2500, 'USD') } };
const csv = (rows: number, delimiter = ','): Uint8Array =>
  new TextEncoder().encode([`Name${delimiter}Email`, ...Array.from({ length: rows }, (_, i) => `Guest ${i}${delimiter}guest${i}@example.com`)].join('\n'));

class Stopped extends Error {}

describe('the check calls its checkpoint every 2,000 rows', () => {
  it('is called once per 2,000 rows of a CSV, comma- or tab-separated, and not at all for a shorter file', () => {
    expect(CHECKPOINT_ROWS).toBe(2_000);
    for (const delimiter of [',', '\t']) {
      let calls = 0;
      const { validation } = importCsv(csv(9_999, delimiter), fixed, { checkpoint: () => void calls++ });
      expect(validation.totals.rows).toBe(9_999);
      expect(calls, delimiter).toBe(4);
    }
    let calls = 0;
    importCsv(csv(1_999), fixed, { checkpoint: () => void calls++ });
    expect(calls).toBe(0);
  });

  it('what it throws ends the check before the rest of the rows and comes out as it is', () => {
    let calls = 0;
    const stopAtSecond = () => {
      if (++calls === 2) throw new Stopped('stop asked');
    };
    expect(() => importCsv(csv(10_000), fixed, { checkpoint: stopAtSecond })).toThrow(Stopped);
    expect(calls).toBe(2);
    calls = 0;
    const rows = Array.from({ length: 6_000 }, (_, i) => ({ line: i + 2, name: `G ${i}`, email: `g${i}@example.com`, amount: '', message: '', raw: [] }));
    expect(() => validateRows(rows, fixed, { checkpoint: stopAtSecond })).toThrow(Stopped);
    calls = 0;
    expect(() =>
      importRows((row) => {
        row(['Name', 'Email'], 1);
        for (let i = 0; i < 6_000; i++) row([`G ${i}`, `g${i}@example.com`], i + 2);
      }, fixed, { checkpoint: stopAtSecond }),
    ).toThrow(Stopped);
  });
});
