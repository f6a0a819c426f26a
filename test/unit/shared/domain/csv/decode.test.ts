import { gzipSync } from 'node:zlib';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeCsv, guessLegacyEncoding, sniffUtf16, UTF16_SNIFF_BYTES } from '../../../../../shared/domain/csv/decode.ts';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const bytes = (...parts: (number[] | Uint8Array)[]): Uint8Array => new Uint8Array(parts.flatMap((p) => [...p]));

describe('decodeCsv', () => {
  it('reads UTF-8 without a BOM as utf-8', () => {
    expect(decodeCsv(utf8('Name\nZoë €'))).toEqual({ text: 'Name\nZoë €', encoding: 'utf-8' });
  });

  it('strips a UTF-8 BOM and reports utf-8-bom', () => {
    expect(decodeCsv(bytes([0xef, 0xbb, 0xbf], utf8('Name,Email')))).toEqual({ text: 'Name,Email', encoding: 'utf-8-bom' });
  });

  it('reads an empty file as empty UTF-8 text', () => {
    expect(decodeCsv(new Uint8Array())).toEqual({ text: '', encoding: 'utf-8' });
  });

  it('reads invalid UTF-8 with accented Western letters as Windows-1252, including € and ’ from 0x80–0x9F', () => {
    const legacy = iconv.encode('Müller;25 €;Danke’s „gut“', 'windows1252');
    expect(decodeCsv(new Uint8Array(legacy))).toEqual({ text: 'Müller;25 €;Danke’s „gut“', encoding: 'windows-1252' });
  });

  it('reads Korean Excel bytes as CP949, including syllables outside EUC-KR', () => {
    const legacy = iconv.encode('이름,이메일\n박똠이,ddom@example.kr', 'cp949');
    expect(decodeCsv(new Uint8Array(legacy))).toEqual({ text: '이름,이메일\n박똠이,ddom@example.kr', encoding: 'cp949' });
  });

  it('reads bytes Windows-1252 leaves undefined (0x81, 0x8D) as U+FFFD, not as control characters', () => {
    expect(decodeCsv(bytes(utf8('Zo'), [0xeb, 0x20, 0x81, 0x8d]))).toEqual({ text: 'Zoë \uFFFD\uFFFD', encoding: 'windows-1252' });
  });

  it('reads Hangul outside EUC-KR (똠, 0x8C63)', () => {
    expect(decodeCsv(bytes([0xc7, 0xd1, 0x8c, 0x63]))).toEqual({ text: '한똠', encoding: 'cp949' });
  });

  it('reads UTF-16LE with a BOM (Excel "Unicode text")', () => {
    const body = iconv.encode('Name\tE-mail\r\n山田\tt@example.jp', 'utf16le');
    expect(decodeCsv(bytes([0xff, 0xfe], body))).toEqual({ text: 'Name\tE-mail\r\n山田\tt@example.jp', encoding: 'utf-16le' });
  });

  it('reads UTF-16BE with a BOM', () => {
    const body = iconv.encode('Name,Zoë', 'utf16be');
    expect(decodeCsv(bytes([0xfe, 0xff], body))).toEqual({ text: 'Name,Zoë', encoding: 'utf-16be' });
  });

  it('guesses the legacy encoding behind a UTF-8 BOM when the rest is not UTF-8', () => {
    const legacy = iconv.encode('Straße;Jürgen', 'windows1252');
    expect(decodeCsv(bytes([0xef, 0xbb, 0xbf], legacy))).toEqual({ text: 'Straße;Jürgen', encoding: 'windows-1252' });
  });
});

describe('UTF-16 without a byte-order mark', () => {
  const list = 'Name,E-mail,Amount,Message\r\nZoë Müller,zoe@example.de,25 €,Grüße aus Köln\r\n山田太郎,t@example.jp,30,ありがとう\r\n';

  it('reads UTF-16LE without a BOM, with accents, € and CJK, and reports utf-16le', () => {
    expect(decodeCsv(new Uint8Array(iconv.encode(list, 'utf16le')))).toEqual({ text: list, encoding: 'utf-16le' });
  });

  it('reads UTF-16BE without a BOM, with accents, € and CJK, and reports utf-16be', () => {
    expect(decodeCsv(new Uint8Array(iconv.encode(list, 'utf16be')))).toEqual({ text: list, encoding: 'utf-16be' });
  });

  it('reads a mostly Korean list whose letters put NULs at the other parity (가 U+AC00, 一 U+4E00)', () => {
    const korean = '이름,이메일\n가나다,ga@example.kr\n一가,il@example.kr\n';
    expect(decodeCsv(new Uint8Array(iconv.encode(korean, 'utf16le')))).toEqual({ text: korean, encoding: 'utf-16le' });
    expect(decodeCsv(new Uint8Array(iconv.encode(korean, 'utf16be')))).toEqual({ text: korean, encoding: 'utf-16be' });
  });

  it('leaves UTF-8 text as it was (no NUL byte, so never UTF-16)', () => {
    expect(decodeCsv(utf8(list))).toEqual({ text: list, encoding: 'utf-8' });
    expect(sniffUtf16(utf8(list))).toBeNull();
  });

  it('leaves Windows-1252 text as it was', () => {
    expect(decodeCsv(new Uint8Array(iconv.encode('Müller;25 €', 'windows1252')))).toEqual({ text: 'Müller;25 €', encoding: 'windows-1252' });
  });

  it('does not take a binary file with scattered NULs for UTF-16 (a gzip file, which sniffFormat lets through as CSV)', () => {
    const gz = new Uint8Array(gzipSync(Buffer.from(list.repeat(50))));
    expect(gz.includes(0)).toBe(true);
    expect(sniffUtf16(gz)).toBeNull();
    expect(decodeCsv(gz).encoding).not.toMatch(/utf-16/);
  });

  it('does not take printable bytes with a NUL every 7th byte (both parities) for UTF-16', () => {
    const scattered = new Uint8Array(2000).map((_, i) => (i % 7 === 3 ? 0 : 0x41 + (i % 26)));
    expect(sniffUtf16(scattered)).toBeNull();
    expect(decodeCsv(scattered).encoding).toBe('utf-8');
  });

  it('does not take 16-bit numbers below 256 (NULs at every odd byte) for UTF-16LE: their low bytes are control characters', () => {
    const samples = new Uint8Array(1024);
    for (let i = 0; i < samples.length; i += 2) samples[i] = (i * 37) % 256 || 1;
    expect(sniffUtf16(samples)).toBeNull();
    expect(decodeCsv(samples).encoding).not.toMatch(/utf-16/);
  });

  it('does not take a run of NUL pairs (U+0000) for UTF-16 text', () => {
    expect(sniffUtf16(bytes(iconv.encode('Name,Email\n', 'utf16le'), [0, 0]))).toBeNull();
  });

  it('does not guess from fewer than two code units', () => {
    expect(sniffUtf16(bytes([0x41, 0]))).toBeNull();
    expect(decodeCsv(bytes([0x41, 0]))).toEqual({ text: 'A\u0000', encoding: 'utf-8' });
  });

  it('looks at the first UTF16_SNIFF_BYTES bytes only: what follows does not change the answer', () => {
    const head = new Uint8Array(iconv.encode('Email\n'.padEnd(UTF16_SNIFF_BYTES / 2, 'x'), 'utf16le'));
    expect(head.length).toBe(UTF16_SNIFF_BYTES);
    expect(sniffUtf16(bytes(head, new Uint8Array(100_000)))).toBe('utf-16le');
    expect(sniffUtf16(bytes(utf8('x'.repeat(UTF16_SNIFF_BYTES)), head))).toBeNull();
  });
});

describe('guessLegacyEncoding', () => {
  it('chooses Windows-1252 when a high byte cannot start a CP949 character (0x80 €)', () => {
    expect(guessLegacyEncoding(new Uint8Array([0x32, 0x35, 0x20, 0x80]))).toBe('windows-1252');
  });

  it('chooses Windows-1252 for an accented letter followed by an ASCII letter that CP949 would misread', () => {
    // "Äpfel": 0xC4 0x70 is a valid CP949 extended pair, but no KS X 1001 pair supports it.
    expect(guessLegacyEncoding(new Uint8Array(iconv.encode('Äpfel', 'windows1252')))).toBe('windows-1252');
  });

  it('chooses CP949 for ordinary Korean text', () => {
    expect(guessLegacyEncoding(new Uint8Array(iconv.encode('감사합니다 김민준', 'cp949')))).toBe('cp949');
  });

  it('chooses Windows-1252 when a trailing high byte has no partner', () => {
    expect(guessLegacyEncoding(new Uint8Array([0x41, 0xb0]))).toBe('windows-1252');
  });
});
