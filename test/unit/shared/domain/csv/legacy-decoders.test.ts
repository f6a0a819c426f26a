// iconv-lite is the reference: the pure decoders must agree with it on every input.
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { CP949_CHUNKS } from '../../../../../shared/domain/csv/cp949-table.ts';
import { decodeCp949, decodeWindows1252 } from '../../../../../shared/domain/csv/legacy-decoders.ts';

const everyByte = new Uint8Array(256).map((_, i) => i);

describe('decodeWindows1252', () => {
  it('decodes every byte as iconv-lite does, including € ’ “ in 0x80–0x9F', () => {
    expect(decodeWindows1252(everyByte)).toBe(iconv.decode(everyByte, 'windows1252'));
    expect(decodeWindows1252(new Uint8Array([0x80, 0x92, 0x93, 0xe4]))).toBe('€’“ä');
  });
});

describe('decodeCp949', () => {
  it('decodes every single byte and every two-byte pair as iconv-lite does', () => {
    const pairs = new Uint8Array(2 * 256 * 256);
    for (let lead = 0; lead < 256; lead++) {
      for (let trail = 0; trail < 256; trail++) {
        pairs[2 * (lead * 256 + trail)] = lead;
        pairs[2 * (lead * 256 + trail) + 1] = trail;
      }
    }
    expect(decodeCp949(everyByte)).toBe(iconv.decode(everyByte, 'cp949'));
    expect(decodeCp949(pairs)).toBe(iconv.decode(pairs, 'cp949'));
  });

  it('agrees with iconv-lite on arbitrary bytes, including cut and invalid sequences', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(decodeCp949(bytes)).toBe(iconv.decode(bytes, 'cp949'));
        expect(decodeWindows1252(bytes)).toBe(iconv.decode(bytes, 'windows1252'));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads Hangul outside EUC-KR (똠, 0x8C63)', () => {
    expect(decodeCp949(new Uint8Array([0xc7, 0xd1, 0x8c, 0x63]))).toBe('한똠');
  });
});

describe('cp949-table.ts', () => {
  it('is the table of the installed iconv-lite (regenerate with test/fixtures/csv/generate-cp949-table.ts)', () => {
    const source = createRequire(import.meta.url).resolve('iconv-lite/encodings/tables/cp949.json');
    expect(CP949_CHUNKS).toEqual(JSON.parse(readFileSync(source, 'utf8')));
  });
});
