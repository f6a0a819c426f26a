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

/** The address as typed, without surrounding spaces or invisible characters. */
export function cleanEmail(text: string): string {
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
  if (at <= 0 || at !== text.lastIndexOf('@')) return false;
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  if (local.length > MAX_LOCAL_PART_LENGTH) return false;
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) return false;
  return LOCAL_PART.test(local) && DOMAIN.test(domain);
}
