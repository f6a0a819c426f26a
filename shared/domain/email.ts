// A pragmatic e-mail check: it catches what people actually get wrong in a spreadsheet (a missing
// "@", a missing domain dot, a stray space, two addresses in one cell, "Name <address>") without
// trying to implement RFC 5322, whose quoted local parts no gift service accepts anyway.

export const MAX_EMAIL_LENGTH = 254;
const MAX_LOCAL_PART_LENGTH = 64;

// Built once: validation runs on every row of a 100,000-row file.
// Local part: anything but whitespace, control characters and the characters that only appear when
// a cell holds something other than one bare address. Domain: dot-separated labels, unicode allowed
// (internationalised domains), no empty label, no label starting or ending with a hyphen, and a
// top-level label of at least two letters.
const LOCAL_PART = /^[^\s\p{Cc}@<>()[\]\\,;:"]+$/u;
const DOMAIN = /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+[\p{L}]{2,}$/u;
// Invisible characters that come with copy-paste from web pages and word processors.
const EDGE_INVISIBLES = /^[\s\u200B-\u200D\u2060\uFEFF]+|[\s\u200B-\u200D\u2060\uFEFF]+$/g;

// The characters above U+0020 that EDGE_INVISIBLES strips (\s beyond ASCII, and the zero-width ones).
function isWideInvisible(c: number): boolean {
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200d) || (c >= 0x2028 && c <= 0x202f) ||
    c === 0x205f || c === 0x2060 || c === 0x3000 || c === 0xfeff
  );
}

/** The address as typed, without surrounding spaces or invisible characters. */
export function cleanEmail(text: string): string {
  // Almost every cell is already clean: its first and last characters say so.
  const n = text.length;
  if (n > 0) {
    const first = text.charCodeAt(0);
    const last = text.charCodeAt(n - 1);
    if (first > 0x20 && last > 0x20 && !isWideInvisible(first) && !isWideInvisible(last)) return text;
  }
  return text.replace(EDGE_INVISIBLES, '');
}

/** The form used to compare addresses: cleaned and lower-cased. */
export function normalizeEmail(text: string): string {
  return cleanEmail(text).toLowerCase();
}

/** True when `text` (already cleaned) looks like one deliverable address. */
export function isValidEmail(text: string): boolean {
  if (text.length === 0 || text.length > MAX_EMAIL_LENGTH) return false;
  const at = text.indexOf('@');
  if (at <= 0 || at > MAX_LOCAL_PART_LENGTH || at !== text.lastIndexOf('@')) return false;
  // Nearly every address is plain ASCII in the common form: one native match certifies it (a miss
  // proves nothing: the checks below decide).
  if (COMMON_ASCII.test(text)) return true;
  const ascii = asciiVerdict(text, at);
  if (ascii !== null) return ascii;
  const local = text.slice(0, at);
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) return false;
  return LOCAL_PART.test(local) && DOMAIN.test(text.slice(at + 1));
}

// The same rules as LOCAL_PART and DOMAIN, by character code, for the all-ASCII addresses that make
// up nearly every list; null when a non-ASCII character needs the Unicode-aware expressions.
function asciiVerdict(text: string, at: number): boolean | null {
  let previous = 0x2e; // a leading dot counts as following a dot
  for (let i = 0; i < at; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) return null;
    if (c <= 0x20 || c === 0x7f || LOCAL_FORBIDDEN[c] === 1) return false;
    if (c === 0x2e && previous === 0x2e) return false;
    previous = c;
  }
  if (previous === 0x2e) return false;
  let labelStart = at + 1;
  let dots = 0;
  let tldLetters = true;
  for (let i = at + 1; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0x2e;
    if (c >= 0x80) return null;
    if (c === 0x2e) {
      if (i === labelStart) return false;
      if (text.charCodeAt(labelStart) === 0x2d || text.charCodeAt(i - 1) === 0x2d) return false;
      if (i < text.length) {
        dots++;
        labelStart = i + 1;
        tldLetters = true;
      }
      continue;
    }
    const letter = (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
    if (!letter && !(c >= 0x30 && c <= 0x39) && c !== 0x2d) return false;
    if (!letter) tldLetters = false;
  }
  return dots > 0 && tldLetters && text.length - labelStart >= 2;
}

// What asciiVerdict accepts, as one expression: local-part characters are the printable ASCII ones
// but the forbidden set and '.', which only separates non-empty runs; the domain as DOMAIN, in ASCII.
const COMMON_ASCII = /^[!#-'*+\-/-9=?A-Z^-~]+(?:\.[!#-'*+\-/-9=?A-Z^-~]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}$/;

const LOCAL_FORBIDDEN = new Uint8Array(128);
for (const ch of '@<>()[]\\,;:"') LOCAL_FORBIDDEN[ch.charCodeAt(0)] = 1;

/**
 * The first line of each address, compared as `normalizeEmail` compares them (lower-cased), for the
 * duplicate check over a whole file. A Map keyed by `toLowerCase()` cost a sixth of a 100,000-row
 * import (a lower-cased copy of every address, then hashing it and the Map's growth): this table
 * hashes the address as it is, folding ASCII case as it reads, is sized once, and lower-cases only
 * addresses that are not all ASCII. Addresses must already be cleaned.
 */
export interface EmailFirstLines {
  /** The line on which an equal address was first seen; else records `line` and returns 0. */
  firstLine(email: string, line: number): number;
}

export function createEmailFirstLines(expected: number): EmailFirstLines {
  let capacity = 16;
  while (capacity < expected * 2) capacity *= 2;
  let mask = capacity - 1;
  // Per slot, two cells side by side (one cache line per probe): entry index + 1 (0 = empty), and the
  // entry's hash, so most probes read no string.
  let slots = new Int32Array(capacity * 2);
  // Per entry, the address as stored: all-ASCII as typed, else lower-cased. Folding ASCII case then
  // gives its lower-cased form either way.
  const keys: string[] = [];
  const lines: number[] = [];

  const place = (entry: number, hash: number): void => {
    let slot = hash & mask;
    while (slots[slot * 2] !== 0) slot = (slot + 1) & mask;
    slots[slot * 2] = entry + 1;
    slots[slot * 2 + 1] = hash;
  };

  return {
    firstLine(email, line) {
      let key = email;
      let hash = foldedHash(email);
      if (hash === NOT_ASCII) {
        key = email.toLowerCase();
        hash = plainHash(key);
      }
      for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
        const entry = slots[slot * 2]!;
        if (entry === 0) break;
        if (slots[slot * 2 + 1] === hash && foldedEqual(keys[entry - 1]!, key)) return lines[entry - 1]!;
      }
      keys.push(key);
      lines.push(line);
      if (keys.length * 2 <= capacity) {
        place(keys.length - 1, hash);
        return 0;
      }
      capacity *= 2;
      mask = capacity - 1;
      slots = new Int32Array(capacity * 2);
      for (let i = 0; i < keys.length; i++) place(i, storedHash(keys[i]!));
      return 0;
    },
  };
}

const NOT_ASCII = 2 ** 31; // outside the int32 range every hash lies in

// FNV-1a over the code units with A–Z read as a–z, finished with a mix so the low bits spread;
// NOT_ASCII at the first code unit above U+007F.
function foldedHash(text: string): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 0x80) return NOT_ASCII;
    if (c >= 0x41 && c <= 0x5a) c |= 0x20;
    h = Math.imul(h ^ c, 0x01000193);
  }
  return mix(h);
}

// The same hash over any code units, for lower-cased keys. They hold no A–Z, so for a key that
// lower-casing made all ASCII (the Kelvin sign K becomes "k") it equals foldedHash of its ASCII twin.
function plainHash(text: string): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return mix(h);
}

function storedHash(key: string): number {
  const h = foldedHash(key);
  return h === NOT_ASCII ? plainHash(key) : h;
}

function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  return h ^ (h >>> 13);
}

// Equal once A–Z are read as a–z: for two stored-form keys, equality of their lower-cased forms.
function foldedEqual(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0x41 && x <= 0x5a) x |= 0x20;
    if (y >= 0x41 && y <= 0x5a) y |= 0x20;
    if (x !== y) return false;
  }
  return true;
}
