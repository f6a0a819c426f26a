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
// Invisible characters that come with copy-paste from web pages and word processors. Tested one
// character at a time from each end: an expression anchored at the end (`[…]+$`) retries from every
// position of a long run and takes time growing with its square (a cell of 200,000 spaces and a letter).
const EDGE_INVISIBLE = /[\s\u200B-\u200D\u2060\uFEFF]/;

// The characters above U+0020 that EDGE_INVISIBLE matches (\s beyond ASCII, and the zero-width ones).
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
  let start = 0;
  let end = n;
  while (start < end && EDGE_INVISIBLE.test(text[start] ?? '')) start++;
  while (end > start && EDGE_INVISIBLE.test(text[end - 1] ?? '')) end--;
  return text.slice(start, end);
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
 * The form in which a cleaned address is compared with others (`normalizeEmail`'s, lower-cased) when
 * it is a valid address, else null. The duplicate check calls it on every row of a file: nearly every
 * address is plain lower-case ASCII, which one native match certifies and which is its own key, so
 * neither a lower-cased copy nor a second scan is made for it.
 */
export function emailKey(text: string): string | null {
  if (text.length <= MAX_EMAIL_LENGTH && COMMON_LOWER_ASCII.test(text) && text.indexOf('@') <= MAX_LOCAL_PART_LENGTH) return text;
  return isValidEmail(text) ? text.toLowerCase() : null;
}

// COMMON_ASCII without A–Z.
const COMMON_LOWER_ASCII = /^[!#-'*+\-/-9=?^-~]+(?:\.[!#-'*+\-/-9=?^-~]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/;
