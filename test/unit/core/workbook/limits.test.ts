// Hostile workbooks, each stopped by its own limit, quickly, with a message naming it.
import { deflateRawSync, constants } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chooseSheet, openWorkbook, WORKBOOK_LIMITS } from '../../../../electron/core/workbook/index.ts';
import { CsvLimitError } from '../../../../shared/domain/csv/limits.ts';
import { ods, xlsx, zipParts } from '../../../support/workbook-files.ts';

const SHEET_HEAD = '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
const SHEET_TAIL = '</sheetData></worksheet>';

/** Reads every sheet the import would; returns how long it took before it threw. */
function stop(bytes: Uint8Array, pattern: RegExp): number {
  const started = performance.now();
  let thrown: unknown = null;
  try {
    const workbook = openWorkbook(bytes);
    workbook.read(chooseSheet(workbook, undefined), () => {});
  } catch (error) {
    thrown = error;
  }
  const ms = performance.now() - started;
  expect(thrown).toBeInstanceOf(CsvLimitError);
  expect((thrown as Error).message).toMatch(pattern);
  return ms;
}

const sheetXml = (body: string) => xlsx([{ name: 'S', rows: [], rawXml: SHEET_HEAD + body + SHEET_TAIL }]);

/**
 * A deflate stream of `copies` × `unit` without holding it: one sync-flushed block, repeated (each
 * ends on a byte boundary and refers to nothing before it), then an empty final block.
 */
function bombPart(head: string, unit: string, copies: number, tail: string): Uint8Array {
  const flush = { finishFlush: constants.Z_SYNC_FLUSH };
  const parts = [deflateRawSync(Buffer.from(head), flush)];
  const block = deflateRawSync(Buffer.from(unit), flush);
  for (let i = 0; i < copies; i++) parts.push(block);
  parts.push(deflateRawSync(Buffer.from(tail)));
  return Buffer.concat(parts);
}

/** A zip whose sheet part is the given deflate stream, declaring `size` bytes. */
function zipWithRawSheet(deflated: Uint8Array, size: number): Uint8Array {
  const template = xlsx([{ name: 'S', rows: [], rawXml: 'PLACEHOLDER' }], { level: 0 });
  // Rebuild: every part as in the template, the sheet replaced by the raw deflate stream.
  const entries = readEntries(template);
  const out: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const isSheet = e.name === 'xl/worksheets/sheet1.xml';
    const data = isSheet ? Buffer.from(deflated) : e.data;
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(isSheet ? 8 : e.method, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(isSheet ? size : e.size, 22);
    local.writeUInt16LE(name.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(isSheet ? 8 : e.method, 10);
    dir.writeUInt32LE(data.length, 20);
    dir.writeUInt32LE(isSheet ? size : e.size, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    out.push(local, name, data);
    central.push(dir, name);
    offset += 30 + name.length + data.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...out, cd, end]);
}

function readEntries(zip: Uint8Array): { name: string; method: number; size: number; data: Buffer }[] {
  const buf = Buffer.from(zip);
  const end = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 5, 6]));
  const count = buf.readUInt16LE(end + 10);
  let at = buf.readUInt32LE(end + 16);
  const entries = [];
  for (let i = 0; i < count; i++) {
    const method = buf.readUInt16LE(at + 10);
    const csize = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const n = buf.readUInt16LE(at + 28);
    const name = buf.toString('utf8', at + 46, at + 46 + n);
    const lho = buf.readUInt32LE(at + 42);
    const start = lho + 30 + buf.readUInt16LE(lho + 26) + buf.readUInt16LE(lho + 28);
    entries.push({ name, method, size, data: buf.subarray(start, start + csize) });
    at += 46 + n + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
  }
  return entries;
}

describe('workbook limits', () => {
  it('stops a zip bomb (a sheet inflating past 256 MB at a ratio of ~1,000) at the part limit', () => {
    // 300 MB of 2 KB text runs, the XML saxes reads fastest: the size limit, not the parse, stops it.
    const unit = `<x>${'a'.repeat(2040)}</x>`.repeat(512);
    const deflated = bombPart(SHEET_HEAD, unit, 300, SHEET_TAIL);
    expect(deflated.length).toBeLessThan(1_000_000);
    const ms = stop(zipWithRawSheet(deflated, 300 * unit.length), /inflates to more than 256 MB.*zip bomb/);
    expect(ms).toBeLessThan(5000);
  }, 20_000);

  it('stops a part that lies about its size once more comes out than it declared', () => {
    const body = '<row r="1"><c r="A1" t="inlineStr"><is><t>Email</t></is></c></row>';
    const real = deflateRawSync(Buffer.from(SHEET_HEAD + body + SHEET_TAIL));
    expect(() => openWorkbook(zipWithRawSheet(real, 10)).read('S', () => {})).toThrow(/inflates to \d+ bytes where the archive says 10/);
  });

  it('refuses a DOCTYPE (entity expansion) before any entity is defined', () => {
    const lol = '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;">]><sst><si><t>&lol2;</t></si></sst>';
    stop(xlsx([{ name: 'S', rows: [['x']] }], { replace: { 'xl/sharedStrings.xml': lol } }), /declares a DOCTYPE/);
  });

  it('refuses XML nested deeper than 32 levels', () => {
    stop(sheetXml('<a>'.repeat(40) + '</a>'.repeat(40)), /nests its XML deeper than 32 levels/);
  });

  it("stops a text run longer than any cell (past one inflate step) before saxes gathers it", () => {
    const ms = stop(sheetXml(`<row><c r="${'A'.repeat(40_000_000)}"/></row>`), /more than 1,000,000 characters without a break/);
    expect(ms).toBeLessThan(2000);
  });

  it('refuses an overlong cell, naming it', () => {
    stop(xlsx([{ name: 'S', rows: [['Email'], [{ inline: 'x'.repeat(10_001) }]] }]), /cell A2 of sheet "S" holds more than 10,000 characters/);
    stop(xlsx([{ name: 'S', rows: [['Email'], ['y'.repeat(10_001)]] }]), /cell A2 of sheet "S" holds more than 10,000 characters/);
  });

  it('refuses more rows than a sheet can have, and a cell beyond the last column', () => {
    const ms = stop(sheetXml('<row/>'.repeat(WORKBOOK_LIMITS.rowElements + 1)), /more than 1,048,576 rows/);
    expect(ms).toBeLessThan(3000);
    stop(sheetXml('<row r="1"><c r="XFE1"><v>1</v></c></row>'), /beyond column 16,384/);
    stop(sheetXml(`<row r="1">${'<c/>'.repeat(16_385)}</row>`), /beyond column 16,384/);
  });

  it('refuses more than 5,000,000 cells in a sheet', () => {
    const row = `<row>${'<c/>'.repeat(5_000)}</row>`;
    const ms = stop(sheetXml(row.repeat(1_001)), /more than 5,000,000 cells/);
    expect(ms).toBeLessThan(5000);
  }, 20_000);

  it('counts the empty cells before a far-right cell: rows of one cell at the last column are refused, not padded into memory', () => {
    const row = '<row><c r="XFD1" t="inlineStr"><is><t>x</t></is></c></row>';
    const ms = stop(sheetXml(row.repeat(400)), /more than 5,000,000 cells/);
    expect(ms).toBeLessThan(5000);
    stop(ods([{ name: 'S', rows: [{ repeat: 400, cells: [{ text: '', repeat: 16_000 }, 'x'] }] }]), /more than 5,000,000 cells/);
  }, 20_000);

  it('refuses more than 2,000,000 shared strings', () => {
    const sst = `<sst>${'<si><t>a</t></si>'.repeat(WORKBOOK_LIMITS.sharedStrings + 1)}</sst>`;
    const ms = stop(xlsx([{ name: 'S', rows: [['x']] }], { replace: { 'xl/sharedStrings.xml': sst } }), /more than 2,000,000 distinct texts/);
    expect(ms).toBeLessThan(5000);
  }, 20_000);

  it('refuses more than 16,000,000 XML elements in a part', () => {
    const ms = stop(sheetXml('<x/>'.repeat(WORKBOOK_LIMITS.xmlElements + 1)), /more than 16,000,000 XML elements/);
    expect(ms).toBeLessThan(5000);
  }, 30_000);

  it('refuses an ods whose repeated cells would be too many', () => {
    stop(ods([{ name: 'S', rows: [{ repeat: 1_000_000, cells: [{ text: 'x', repeat: 10 }] }] }]), /more than 5,000,000 cells/);
    stop(ods([{ name: 'S', rows: [[{ text: 'x', repeat: 20_000 }]] }]), /beyond column 16,384/);
  });

  it('refuses too many zip entries, and an oversized mimetype', () => {
    const many: Record<string, string> = { 'xl/workbook.xml': '<workbook/>' };
    for (let i = 0; i <= WORKBOOK_LIMITS.zipEntries; i++) many[`f${i}`] = '';
    stop(zipParts(many, 0), /more than 10,000 parts/);
    stop(zipParts({ mimetype: 'application/vnd.oasis.opendocument.spreadsheet'.padEnd(5000, ' '), 'content.xml': '<x/>' }), /mimetype inflates to more than 1024 bytes/);
  });
});
