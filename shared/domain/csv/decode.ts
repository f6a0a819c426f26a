// Turns the bytes of a spreadsheet export into text, and says which encoding it assumed so the
// person can see it (and object) before anything is stored.
//
// Runs in the engine only: the renderer sends a file's bytes and never decodes one, so this module
// (and importCsv, parseCsv beside it) may use iconv-lite, which loads Node's 'buffer' module.
// UTF-8 and UTF-16 (with a byte-order mark, or without one when sniffUtf16 recognises it) are
// TextDecoder's; the legacy encodings are iconv-lite's, because Node 20's TextDecoder drops
// Windows-1252's 0x80–0x9F (€, ’, “) and reads CP949's extended Hangul (EUC-KR as it knows it) as
// ASCII.
import iconv from 'iconv-lite';
import { checkFileSize } from './limits.ts';

export type CsvEncoding = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be' | 'windows-1252' | 'cp949';

export interface DecodedCsv {
  readonly text: string;
  readonly encoding: CsvEncoding;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function decodeCsv(bytes: Uint8Array): DecodedCsv {
  checkFileSize(bytes);
  const b0 = bytes[0];
  const b1 = bytes[1];
  if (b0 === 0xef && b1 === 0xbb && bytes[2] === 0xbf) {
    const text = tryUtf8(bytes.subarray(3));
    if (text !== null) return { text, encoding: 'utf-8-bom' };
    // A BOM followed by invalid UTF-8: an editor prepended it to legacy bytes. Guess from the rest.
    return decodeLegacy(bytes.subarray(3));
  }
  if (b0 === 0xff && b1 === 0xfe) return { text: decodeUtf16(bytes.subarray(2), 'utf-16le'), encoding: 'utf-16le' };
  if (b0 === 0xfe && b1 === 0xff) return { text: decodeUtf16(bytes.subarray(2), 'utf-16be'), encoding: 'utf-16be' };
  const unmarked = sniffUtf16(bytes);
  if (unmarked !== null) return { text: decodeUtf16(bytes, unmarked), encoding: unmarked };
  const text = tryUtf8(bytes);
  if (text !== null) return { text, encoding: 'utf-8' };
  return decodeLegacy(bytes);
}

/** How much of a file's start sniffUtf16 looks at: its cost does not grow with the file. */
export const UTF16_SNIFF_BYTES = 4096;

/**
 * UTF-16 without a byte-order mark (some exports omit it), told from its first UTF16_SNIFF_BYTES
 * bytes. UTF-8 and the legacy encodings never hold a NUL byte in text, while UTF-16 writes every
 * ASCII character (the separators, line ends, digits and e-mail addresses of a list) as that byte
 * and a NUL: at the odd positions in little-endian, the even ones in big-endian. So: NULs at one
 * parity in at least a quarter of the code units, few at the other (a letter such as 가 U+AC00 or
 * 一 U+4E00 has one), no U+0000, and every unit whose high byte is NUL is text (tab, CR, LF or
 * printable, no C0/C1 control). A binary file fails that at once: its NULs come at both parities,
 * in runs, and between control bytes.
 */
export function sniffUtf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const units = Math.min(bytes.length, UTF16_SNIFF_BYTES) >> 1;
  if (units < 2) return null;
  let nulEven = 0;
  let nulOdd = 0;
  for (let u = 0; u < units; u++) {
    const a = bytes[2 * u]!;
    const b = bytes[2 * u + 1]!;
    if (a === 0 && b === 0) return null;
    if (a === 0) nulEven++;
    else if (b === 0) nulOdd++;
  }
  const le = nulOdd > nulEven;
  const high = le ? nulOdd : nulEven;
  const other = le ? nulEven : nulOdd;
  if (high * 4 < units || other * 4 > high) return null;
  for (let u = 0; u < units; u++) {
    const low = le ? bytes[2 * u]! : bytes[2 * u + 1]!;
    const zero = le ? bytes[2 * u + 1]! : bytes[2 * u]!;
    if (zero === 0 && !isTextLatin1(low)) return null;
  }
  return le ? 'utf-16le' : 'utf-16be';
}

/** A code unit U+0001–U+00FF that appears in text: tab, LF, CR, printable ASCII or Latin-1 (no control). */
function isTextLatin1(c: number): boolean {
  return c === 0x09 || c === 0x0a || c === 0x0d || (c >= 0x20 && c < 0x7f) || c >= 0xa0;
}

function tryUtf8(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

function decodeUtf16(bytes: Uint8Array, label: 'utf-16le' | 'utf-16be'): string {
  // Not fatal: a lone surrogate becomes U+FFFD and shows up in the row, instead of losing the file.
  return new TextDecoder(label, { ignoreBOM: true }).decode(bytes);
}

function decodeLegacy(bytes: Uint8Array): DecodedCsv {
  const encoding = guessLegacyEncoding(bytes);
  // Invalid bytes become U+FFFD (an invalid CP949 trail byte is read again on its own).
  return { text: iconv.decode(bytes, encoding === 'cp949' ? 'cp949' : 'windows1252'), encoding };
}

/**
 * Windows-1252 or CP949, for bytes that are not UTF-8. CP949 is chosen only when every byte above
 * 0x7F pairs into a valid CP949 character and most pairs lie in the KS X 1001 area (both bytes
 * 0xA1–0xFE), where Korean text lives. Western text fails that quickly: an accented letter
 * followed by an ASCII letter is not a KS X 1001 pair, and 0x80 (€) or 0xFF are never lead bytes.
 */
export function guessLegacyEncoding(bytes: Uint8Array): 'windows-1252' | 'cp949' {
  let ks = 0;
  let extended = 0;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const lead = bytes[i]!;
    if (lead < 0x80) continue;
    if (lead === 0x80 || lead === 0xff || i + 1 >= n) return 'windows-1252';
    const trail = bytes[i + 1]!;
    if (lead >= 0xa1 && trail >= 0xa1 && trail <= 0xfe) {
      ks++;
    } else if (
      lead <= 0xc6 &&
      ((trail >= 0x41 && trail <= 0x5a) || (trail >= 0x61 && trail <= 0x7a) || (trail >= 0x81 && trail <= 0xfe))
    ) {
      extended++;
    } else {
      return 'windows-1252';
    }
    i++;
  }
  return ks > 0 && ks >= extended ? 'cp949' : 'windows-1252';
}
