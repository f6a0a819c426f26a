// The zip container of .xlsx and .ods, read from bytes already in memory: the central directory,
// then one part at a time inflated in small steps (fflate's synchronous stream) and handed on as
// text, so a part is never held whole and inflating stops as soon as a size limit is passed. The
// sizes a zip declares are not trusted: what comes out is counted.
import { Inflate } from 'fflate';
import { CsvLimitError, damaged, limitMessages, WORKBOOK_LIMITS } from './limits.ts';

export interface ZipEntry {
  readonly name: string;
  readonly method: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly headerOffset: number;
}

export interface Zip {
  readonly bytes: Uint8Array;
  readonly entries: ReadonlyMap<string, ZipEntry>;
  /** Bytes inflated so far from this file, against WORKBOOK_LIMITS.inflatedBytes. */
  inflated: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
// Compressed bytes per step: a deflate stream inflates at most about 1,032 times, so one step
// yields at most ~16 MB before the sizes are checked again.
const STEP = 16 * 1024;
const names = new TextDecoder('utf-8');

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

export function openZip(bytes: Uint8Array): Zip {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end record is the last 22 bytes, or earlier when the archive has a comment (at most 64 KB).
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === EOCD) {
      end = at;
      break;
    }
  }
  if (end < 0) throw damaged('it is not a complete zip archive (its end record is missing; was the download cut short?)');
  const count = view.getUint16(end + 10, true);
  const directoryOffset = view.getUint32(end + 16, true);
  if (count === 0xffff || directoryOffset === 0xffffffff) throw damaged('it is a ZIP64 archive, which no spreadsheet of recipients needs');
  if (count > WORKBOOK_LIMITS.zipEntries) throw new CsvLimitError(limitMessages.entries());
  const entries = new Map<string, ZipEntry>();
  let at = directoryOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL) throw damaged('its list of parts is broken');
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const compressedSize = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const headerOffset = view.getUint32(at + 42, true);
    if (at + 46 + nameLength > bytes.length) throw damaged('its list of parts is broken');
    const name = names.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    if (flags & 1) throw damaged('it is protected with a password; remove the password in Excel (File, Info, Protect Workbook) and try again');
    entries.set(name, { name, method, compressedSize, size, headerOffset });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return { bytes, entries, inflated: 0 };
}

/**
 * Inflates the part `name` step by step, giving its text to `sink` as it comes; false when the
 * archive has no such part. Throws CsvLimitError past a size limit, WorkbookError when it is damaged.
 */
export function readPart(zip: Zip, name: string, sink: (text: string) => void, maxBytes: number = WORKBOOK_LIMITS.partBytes): boolean {
  const entry = zip.entries.get(name);
  if (!entry) return false;
  const { bytes } = zip;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.headerOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL) throw damaged(`its part ${name} is missing or broken`);
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const stop = start + entry.compressedSize;
  if (stop > bytes.length) throw damaged(`its part ${name} is cut short`);
  const text = new TextDecoder('utf-8');
  let size = 0;
  const take = (chunk: Uint8Array): void => {
    size += chunk.length;
    zip.inflated += chunk.length;
    if (size > maxBytes) throw new CsvLimitError(limitMessages.part(name, maxBytes));
    if (zip.inflated > WORKBOOK_LIMITS.inflatedBytes) throw new CsvLimitError(limitMessages.inflated());
    const decoded = text.decode(chunk, { stream: true });
    if (decoded !== '') sink(decoded);
  };
  if (entry.method === 0) {
    for (let from = start; from < stop; from += STEP) take(bytes.subarray(from, Math.min(stop, from + STEP)));
  } else if (entry.method === 8) {
    const inflate = new Inflate((chunk) => take(chunk));
    try {
      if (start === stop) inflate.push(new Uint8Array(0), true);
      for (let from = start; from < stop; from += STEP) inflate.push(bytes.subarray(from, Math.min(stop, from + STEP)), from + STEP >= stop);
    } catch (error) {
      if (error instanceof Error && isInflateError(error)) {
        throw damaged(`its part ${name} does not inflate (${error.message})`);
      }
      throw error;
    }
  } else {
    throw damaged(`its part ${name} is compressed with method ${entry.method}, which spreadsheets do not use`);
  }
  const rest = text.decode();
  if (rest !== '') sink(rest);
  if (size !== entry.size) throw damaged(`its part ${name} inflates to ${size} bytes where the archive says ${entry.size}`);
  return true;
}

/** The whole text of a small part ('' when absent), refused past `maxBytes`. */
export function partText(zip: Zip, name: string, maxBytes: number): string {
  let out = '';
  readPart(zip, name, (text) => {
    out += text;
  }, maxBytes);
  return out;
}

// fflate's own errors carry a numeric code (invalid block type, unexpected EOF, …).
function isInflateError(error: Error): boolean {
  return typeof (error as { code?: unknown }).code === 'number';
}
