import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeCsv, guessLegacyEncoding } from '../../../../../shared/domain/csv/decode.ts';

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
