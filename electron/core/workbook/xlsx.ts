// .xlsx (Office Open XML): the sheets in xl/workbook.xml and its relationships, which styles show
// dates (xl/styles.xml), the shared strings, then one sheet's rows, cell by cell, as text.
import { CsvLimitError, damaged, limitMessages, WORKBOOK_LIMITS } from './limits.ts';
import { numberText, isDateFormat, isoDateText, serialDateText } from './values.ts';
import { attribute, parsePart, type Attributes } from './xml.ts';
import type { Zip } from './zip.ts';
import { hasText, type RowSink, type SheetReader } from './types.ts';

interface XlsxSheet {
  readonly name: string;
  readonly part: string;
}

interface Shared {
  readonly strings: string[];
  /** Indexes of strings longer than a cell may be (kept out of `strings`). */
  readonly overlong: Set<number>;
}

export function openXlsx(zip: Zip): SheetReader {
  const rels = relationships(zip, 'xl/_rels/workbook.xml.rels', 'xl/');
  const sheets: XlsxSheet[] = [];
  let date1904 = false;
  parsePart(zip, 'xl/workbook.xml', {
    open(name, attrs) {
      if (name === 'workbookPr') date1904 = attrs.date1904 === '1' || attrs.date1904 === 'true';
      else if (name === 'sheet') {
        const target = rels.byId.get(attribute(attrs, 'id') ?? '');
        if (attrs.name !== undefined && target !== undefined) sheets.push({ name: attrs.name, part: target });
      }
    },
  });
  if (sheets.length === 0) throw damaged('it lists no sheets');
  let styles: boolean[] | null = null;
  let shared: Shared | null = null;
  return {
    format: 'xlsx',
    sheetNames: sheets.map((s) => s.name),
    read(sheetName, onRow) {
      const sheet = sheets.find((s) => s.name === sheetName)!;
      styles ??= dateStyles(zip, rels.byType('styles') ?? 'xl/styles.xml');
      shared ??= sharedStrings(zip, rels.byType('sharedStrings') ?? 'xl/sharedStrings.xml');
      return readSheet(zip, sheet, styles, shared, date1904, onRow);
    },
  };
}

interface Relationships {
  readonly byId: Map<string, string>;
  byType(type: string): string | undefined;
}

function relationships(zip: Zip, part: string, base: string): Relationships {
  const byId = new Map<string, string>();
  const types = new Map<string, string>();
  parsePart(zip, part, {
    open(name, attrs) {
      if (name !== 'Relationship' || attrs.Id === undefined || attrs.Target === undefined) return;
      const target = resolve(base, attrs.Target);
      byId.set(attrs.Id, target);
      const type = attrs.Type?.slice(attrs.Type.lastIndexOf('/') + 1);
      if (type !== undefined && !types.has(type)) types.set(type, target);
    },
  });
  return { byId, byType: (type) => types.get(type) };
}

/** A relationship's target as a path in the archive: "worksheets/sheet1.xml" from xl/ is "xl/worksheets/sheet1.xml". */
function resolve(base: string, target: string): string {
  const parts = (target.startsWith('/') ? target.slice(1) : base + target).split('/');
  const out: string[] = [];
  for (const part of parts) {
    if (part === '..') out.pop();
    else if (part !== '.' && part !== '') out.push(part);
  }
  return out.join('/');
}

/** For each cell style (the `s` of a cell), whether its number format shows a date. */
function dateStyles(zip: Zip, part: string): boolean[] {
  const formats = new Map<number, string>();
  const dates: boolean[] = [];
  let inCellXfs = false;
  parsePart(zip, part, {
    open(name, attrs) {
      if (name === 'numFmt') formats.set(Number(attrs.numFmtId), attrs.formatCode ?? '');
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) {
        const id = Number(attrs.numFmtId ?? 0);
        dates.push(isDateFormat(id, formats.get(id)));
      }
    },
    close(name) {
      if (name === 'cellXfs') inCellXfs = false;
    },
  });
  return dates;
}

function sharedStrings(zip: Zip, part: string): Shared {
  const strings: string[] = [];
  const overlong = new Set<number>();
  let current: string | null = null;
  let inText = false;
  let phonetic = 0;
  parsePart(zip, part, {
    open(name) {
      if (name === 'si') current = '';
      else if (name === 't') inText = phonetic === 0;
      else if (name === 'rPh') phonetic++;
    },
    close(name) {
      if (name === 'si') {
        if (strings.length >= WORKBOOK_LIMITS.sharedStrings) throw new CsvLimitError(limitMessages.sharedStrings());
        if (current === null) overlong.add(strings.length);
        strings.push(current ?? '');
        current = null;
      } else if (name === 't') inText = false;
      else if (name === 'rPh') phonetic--;
    },
    text(text) {
      if (!inText || current === null) return;
      // Rich text runs are joined; a string past the cell limit is dropped, and only a cell that uses it is refused.
      current = current.length + text.length > WORKBOOK_LIMITS.cellChars ? null : current + text;
    },
  });
  return { strings, overlong };
}

/** Column number (1-based) from a reference ("B12" → 2); 0 when it has no letters. */
function columnOf(ref: string): number {
  let column = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c < 65 || c > 90) break;
    column = column * 26 + c - 64;
    if (column > WORKBOOK_LIMITS.columns) return column;
  }
  return column;
}

// A cell's type (its t attribute), as a small number for the hot loop.
const Type = { Number: 0, Shared: 1, Text: 2, Boolean: 3, Error: 4, Date: 5 } as const;
type Type = (typeof Type)[keyof typeof Type];

function cellType(t: string | undefined): Type {
  switch (t) {
    case undefined:
    case 'n':
      return Type.Number;
    case 's':
      return Type.Shared;
    case 'b':
      return Type.Boolean;
    case 'e':
      return Type.Error;
    case 'd':
      return Type.Date;
    default:
      return Type.Text; // str (a formula's text), inlineStr
  }
}

function readSheet(zip: Zip, sheet: XlsxSheet, dates: readonly boolean[], shared: Shared, date1904: boolean, onRow: RowSink | null): number {
  const name = sheet.name;
  let rowNumber = 0;
  let rowElements = 0;
  // One working array for the row being read; each row handed on is an exact-size copy (a pushed-to
  // array keeps spare capacity: 17 slots for a 4-cell row, kept as long as the import keeps the row).
  const cells: string[] = [];
  let filled = false;
  let nonBlank = 0;
  let cellCount = 0;
  let column = 0;
  let type: Type = Type.Number;
  let style = 0;
  // The value's text while inside <v> or an inline string's <t>; null when the cell has none yet.
  let value: string | null = null;
  let inValue = false;
  let phonetic = 0;
  const overlong = shared.overlong.size > 0;

  const tooLong = (): never => {
    throw new CsvLimitError(limitMessages.cellChars(name, rowNumber, column));
  };

  const found = parsePart(zip, sheet.part, {
    // Called for every element of the sheet: the commonest first, each attribute read once.
    open(tag, attrs: Attributes) {
      switch (tag) {
        case 'c': {
          if (++cellCount > WORKBOOK_LIMITS.cells) throw new CsvLimitError(limitMessages.cells(name));
          const r = attrs.r;
          const at = r === undefined ? column + 1 : columnOf(r);
          if (at > WORKBOOK_LIMITS.columns) throw new CsvLimitError(limitMessages.columns(name, rowNumber));
          column = at > column ? at : column + 1;
          type = cellType(attrs.t);
          const s = attrs.s;
          style = s === undefined ? 0 : Number(s);
          value = null;
          break;
        }
        case 'v':
          inValue = true;
          value ??= '';
          break;
        case 'row': {
          if (++rowElements > WORKBOOK_LIMITS.rowElements) throw new CsvLimitError(limitMessages.rowElements(name));
          const r = attrs.r;
          const next = r === undefined ? rowNumber + 1 : Number(r);
          if (!Number.isInteger(next) || next <= rowNumber || next > WORKBOOK_LIMITS.rowElements) {
            throw damaged(`sheet "${name}" has a row numbered ${r ?? next} after row ${rowNumber}`);
          }
          rowNumber = next;
          cells.length = 0;
          filled = false;
          column = 0;
          break;
        }
        case 't':
          inValue = phonetic === 0;
          if (inValue) value ??= '';
          break;
        case 'rPh':
          phonetic++;
          break;
      }
    },
    close(tag) {
      switch (tag) {
        case 'c': {
          if (value === null) break;
          const text = cellText(value);
          if (text !== '') {
            // The empty cells before it are held too: they count toward the cell limit, so rows of
            // one far-right cell cannot make arrays of 16,384 cells each from a small file.
            if (column - 1 > cells.length && (cellCount += column - 1 - cells.length) > WORKBOOK_LIMITS.cells) {
              throw new CsvLimitError(limitMessages.cells(name));
            }
            while (cells.length < column - 1) cells.push('');
            cells[column - 1] = text;
            filled ||= hasText(text);
          }
          break;
        }
        case 'v':
        case 't':
          inValue = false;
          break;
        case 'row':
          if (filled) {
            nonBlank++;
            onRow?.(cells.slice(), rowNumber);
          }
          break;
        case 'rPh':
          phonetic--;
          break;
      }
    },
    text(text) {
      if (!inValue) return;
      value += text;
      if (value!.length > WORKBOOK_LIMITS.cellChars) tooLong();
    },
  });
  if (!found) throw damaged(`its sheet "${name}" is missing (${sheet.part})`);
  return nonBlank;

  function cellText(raw: string): string {
    switch (type) {
      case Type.Number: {
        const number = numberText(raw);
        if (number === null) return raw.trim();
        return dates[style] === true ? (serialDateText(Number(raw), date1904) ?? number) : number;
      }
      case Type.Shared: {
        const index = Number(raw);
        if (overlong && shared.overlong.has(index)) tooLong();
        const text = shared.strings[index];
        if (text === undefined) throw damaged(`cell of row ${rowNumber} in sheet "${name}" names shared text ${raw}, which does not exist`);
        return text;
      }
      case Type.Boolean:
        return raw.trim() === '1' || raw.trim() === 'true' ? 'TRUE' : 'FALSE';
      case Type.Date:
        return isoDateText(raw);
      default:
        return raw;
    }
  }
}
