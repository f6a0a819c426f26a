// Typed cell values as the text the import reads: numbers in canonical decimal text with '.',
// dates as ISO dates, booleans as TRUE/FALSE.

/**
 * "25", "25.5", "0.0000001": the shortest text that reads back as the number once rounded to the
 * 15 significant digits Excel keeps and shows, so float noise in the file ("25.499999999999996",
 * "0.30000000000000004") reads as the value the person typed. Never an exponent below 1e21.
 */
export function numberText(value: string): string | null {
  if (isPlainInteger(value)) return value;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) return null;
  // At most 15 characters hold at most 15 significant digits: JavaScript's own text is the shortest.
  if (value.length <= 15) {
    const text = String(n);
    if (!text.includes('e')) return text;
  }
  const rounded = Number(n.toPrecision(15));
  if (rounded === 0) return '0';
  const text = String(rounded);
  if (!text.includes('e') || Math.abs(rounded) >= 1e21) return text;
  // 1e-7 and the like: written out in full.
  return rounded.toFixed(20).replace(/\.?0+$/, '');
}

/** "0", "25", "1500": digits only, no leading zero, at most 15 of them — already its own canonical text. */
function isPlainInteger(value: string): boolean {
  const length = value.length;
  if (length === 0 || length > 15) return false;
  const first = value.charCodeAt(0);
  if (first < 48 || first > 57 || (first === 48 && length > 1)) return false;
  for (let i = 1; i < length; i++) {
    const c = value.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

const DAY_MS = 86_400_000;
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

/**
 * An Excel date serial (days since 1899-12-30, or since 1904-01-01 in a 1904 workbook) as
 * "2024-05-01", with "T09:30:00" when it has a time of day; a time alone (below 1) as "09:30:00".
 * Null for a number no date can be (Excel's dates end at 9999-12-31, serial 2,958,465): the caller
 * keeps it as a number.
 */
export function serialDateText(serial: number, date1904: boolean): string | null {
  if (!Number.isFinite(serial) || serial > 2_958_465 || serial < 0) return null;
  const ms = Math.round(((date1904 ? EPOCH_1904 : EPOCH_1900) + serial * DAY_MS) / 1000) * 1000;
  const iso = new Date(ms).toISOString();
  const time = iso.slice(11, 19);
  if (serial >= 0 && serial < 1 && !date1904) return time;
  return time === '00:00:00' ? iso.slice(0, 10) : `${iso.slice(0, 10)}T${time}`;
}

const ISO_DATE = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}:\d{2}))?/;

/** An ISO date-time as a file states it ("2024-05-01T00:00:00.000") as "2024-05-01", keeping a time of day. */
export function isoDateText(value: string): string {
  const match = ISO_DATE.exec(value.trim());
  if (!match) return value.trim();
  const time = match[2];
  return time === undefined || time === '00:00:00' ? match[1]! : `${match[1]!}T${time}`;
}

const ISO_DURATION = /^-?PT?(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?$/;

/** An ODS time ("PT09H30M00S") as "09:30:00". */
export function durationText(value: string): string {
  const match = ISO_DURATION.exec(value.trim());
  if (!match) return value.trim();
  const two = (n: string | undefined): string => String(Math.round(Number(n ?? 0))).padStart(2, '0');
  return `${two(match[1])}:${two(match[2])}:${two(match[3])}`;
}

// Built-in number formats that show dates or times (ECMA-376 18.8.30, with the East Asian ones).
const BUILT_IN_DATES = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58]);
// Quoted text, escaped characters, [colour] and [$€-407] sections, padding (_x) and fill (*x).
const NOT_DATE_PARTS = /"[^"]*"|\\.|\[[^\]]*\]|_.|\*./g;

/** True when a number format shows the number as a date or a time. */
export function isDateFormat(id: number, code: string | undefined): boolean {
  if (code === undefined) return BUILT_IN_DATES.has(id);
  const bare = code.replace(NOT_DATE_PARTS, '');
  return /[dmyhs]/i.test(bare) && !/^general$/i.test(bare.trim());
}
