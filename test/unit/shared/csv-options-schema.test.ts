// The contract's CSV options take a column for every field the import maps (MAPPED_FIELDS), so a
// screen's correction of any of them, the gift column included, reaches the engine.
import { describe, expect, it } from 'vitest';
import { csvOptionsSchema } from '../../../shared/contract.ts';
import { MAPPED_FIELDS } from '../../../shared/domain/csv/headers.ts';

describe('csvOptionsSchema', () => {
  it('keeps a column, or null, for every mapped field, the gift column included', () => {
    const mapping = Object.fromEntries(MAPPED_FIELDS.map((field, i) => [field, i === 0 ? null : i]));
    expect(csvOptionsSchema.parse({ mapping })).toEqual({ mapping });
    expect(csvOptionsSchema.parse({ mapping: { product: 3 } })).toEqual({ mapping: { product: 3 } });
  });

  it('refuses a column that is not a whole number', () => {
    const result = csvOptionsSchema.safeParse({ mapping: { product: 1.5 } });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['mapping', 'product']);
  });
});
