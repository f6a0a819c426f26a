// Windows-1252 and CP949 decoders in plain TypeScript.
//
// Not TextDecoder: Node 20's drops the Windows-1252 bytes 0x80–0x9F (€, ’, “) and reads CP949's
// extended Hangul as ASCII. Not iconv-lite at run time: it requires Node's 'buffer' module as soon
// as it loads, which breaks the sandboxed renderer. These follow iconv-lite's mappings and its
// handling of invalid bytes exactly (U+FFFD; an invalid trail byte is read again on its own), and a
// unit test compares them with iconv-lite byte for byte.
import { CP949_CHUNKS } from './cp949-table.ts';

const REPLACEMENT = 0xfffd;
// 0x80–0x9F; the five bytes Windows-1252 leaves undefined decode to U+FFFD, as in iconv-lite.
const WINDOWS_1252_HIGH = [
  0x20ac, REPLACEMENT, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, REPLACEMENT, 0x017d, REPLACEMENT,
  REPLACEMENT, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, REPLACEMENT, 0x017e, 0x0178,
];

export function decodeWindows1252(bytes: Uint8Array): string {
  const units = new Uint16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    units[i] = b >= 0x80 && b <= 0x9f ? WINDOWS_1252_HIGH[b - 0x80]! : b;
  }
  return fromUnits(units, units.length);
}

// Single bytes and pairs (lead << 8 | trail) to UTF-16 code units; 0 means unassigned (no CP949
// pair maps to U+0000). Built on first use: a Western file never pays for it.
let single: Uint16Array | null = null;
let pairs: Uint16Array | null = null;
let leads: Uint8Array | null = null;

function buildCp949(): void {
  single = new Uint16Array(256).fill(REPLACEMENT);
  pairs = new Uint16Array(65536);
  leads = new Uint8Array(256);
  for (const chunk of CP949_CHUNKS) {
    let address = parseInt(String(chunk[0]), 16);
    const twoBytes = address > 0xff;
    const table = twoBytes ? pairs : single;
    if (twoBytes) leads[address >> 8] = 1;
    let previous = 0;
    for (let k = 1; k < chunk.length; k++) {
      const part = chunk[k]!;
      if (typeof part === 'string') {
        for (let l = 0; l < part.length; l++) {
          previous = part.charCodeAt(l);
          table[address++] = previous;
        }
      } else {
        for (let l = 0; l < part; l++) table[address++] = ++previous;
      }
    }
  }
}

export function decodeCp949(bytes: Uint8Array): string {
  if (!single) buildCp949();
  const one = single!;
  const two = pairs!;
  const isLead = leads!;
  const units = new Uint16Array(bytes.length);
  let j = 0;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (isLead[b] !== 1) {
      units[j++] = one[b]!;
      continue;
    }
    if (i + 1 >= n) {
      units[j++] = REPLACEMENT;
      break;
    }
    const code = two[(b << 8) | bytes[i + 1]!]!;
    if (code === 0) {
      // Unassigned pair: replace the lead byte only, and read the next byte afresh.
      units[j++] = REPLACEMENT;
    } else {
      units[j++] = code;
      i++;
    }
  }
  return fromUnits(units, j);
}

function fromUnits(units: Uint16Array, length: number): string {
  const parts: string[] = [];
  for (let start = 0; start < length; start += 8192) {
    parts.push(String.fromCharCode(...units.subarray(start, Math.min(start + 8192, length))));
  }
  return parts.join('');
}
