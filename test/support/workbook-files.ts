// Workbook fixtures written by the tests themselves (no binary files in the repository): .xlsx and
// .ods as Excel, Google Sheets and LibreOffice write them, cell by cell, and hostile ones. Zipped
// with fflate.
import { strToU8, zipSync, type Zippable } from 'fflate';

/** A cell as the file states it. `r: false` leaves out its reference (as some writers do). */
export type XCell =
  | string // a shared string
  | null // an empty cell (skipped)
  | { readonly inline: string | readonly string[]; readonly r?: false } // inline string; an array is rich text runs
  | { readonly n: number | string; readonly style?: number; readonly r?: false } // a number, its text as written
  | { readonly f: string; readonly v: string; readonly t?: 'str' | 'n' | 'b' | 'e'; readonly style?: number } // a formula and its cached value
  | { readonly b: boolean }
  | { readonly d: string } // t="d", an ISO date
  | { readonly s: string; readonly r?: false }; // a shared string without its reference

export interface XSheet {
  readonly name: string;
  /** Rows by their row number (1-based); rows not listed are absent from the XML. */
  readonly rows: ReadonlyMap<number, readonly XCell[]> | readonly (readonly XCell[])[];
  /** Leave out every row's r attribute. */
  readonly noRowNumbers?: boolean;
  /** Raw XML to use as the sheet part instead. */
  readonly rawXml?: string;
}

export interface XlsxOptions {
  readonly date1904?: boolean;
  /** Custom number formats by style index: style 1 is '"$"#,##0.00', 2 is 'yyyy-mm-dd', 3 is built-in 14 (a date), 4 is built-in 44 (accounting). */
  readonly extraParts?: Readonly<Record<string, string>>;
  /** Replace a part's XML. */
  readonly replace?: Readonly<Record<string, string>>;
  readonly level?: 0 | 1 | 6 | 9;
}

const esc = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function colName(column: number): string {
  let name = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="2"><numFmt numFmtId="164" formatCode="&quot;$&quot;#,##0.00"/><numFmt numFmtId="165" formatCode="yyyy-mm-dd"/></numFmts><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0"/></cellStyleXfs><cellXfs count="5"><xf numFmtId="0"/><xf numFmtId="164" applyNumberFormat="1"/><xf numFmtId="165" applyNumberFormat="1"/><xf numFmtId="14" applyNumberFormat="1"/><xf numFmtId="44" applyNumberFormat="1"/></cellXfs></styleSheet>`;

function rowsOf(sheet: XSheet): [number, readonly XCell[]][] {
  return sheet.rows instanceof Map ? [...sheet.rows.entries()].sort((a, b) => a[0] - b[0]) : (sheet.rows as readonly (readonly XCell[])[]).map((row, i) => [i + 1, row]);
}

/** A .xlsx workbook; string cells go to the shared strings. */
export function xlsx(sheets: readonly XSheet[], options: XlsxOptions = {}): Uint8Array {
  const shared: string[] = [];
  const index = new Map<string, number>();
  const sst = (text: string): number => {
    let at = index.get(text);
    if (at === undefined) {
      at = shared.length;
      shared.push(text);
      index.set(text, at);
    }
    return at;
  };
  const files: Record<string, string> = {};
  sheets.forEach((sheet, i) => {
    if (sheet.rawXml !== undefined) {
      files[`xl/worksheets/sheet${i + 1}.xml`] = sheet.rawXml;
      return;
    }
    const xml: string[] = [];
    for (const [rowNumber, cells] of rowsOf(sheet)) {
      xml.push(sheet.noRowNumbers ? '<row>' : `<row r="${rowNumber}">`);
      cells.forEach((cell, c) => {
        if (cell === null) return;
        const ref = (keep: boolean | undefined): string => (keep === false ? '' : ` r="${colName(c + 1)}${rowNumber}"`);
        if (typeof cell === 'string') xml.push(`<c${ref(true)} t="s"><v>${sst(cell)}</v></c>`);
        else if ('inline' in cell) {
          const runs = typeof cell.inline === 'string' ? `<t xml:space="preserve">${esc(cell.inline)}</t>` : cell.inline.map((t) => `<r><rPr><b/></rPr><t>${esc(t)}</t></r>`).join('');
          xml.push(`<c${ref(cell.r)} t="inlineStr"><is>${runs}</is></c>`);
        } else if ('n' in cell) xml.push(`<c${ref(cell.r)}${cell.style ? ` s="${cell.style}"` : ''}><v>${cell.n}</v></c>`);
        else if ('f' in cell) xml.push(`<c${ref(true)}${cell.style ? ` s="${cell.style}"` : ''}${cell.t && cell.t !== 'n' ? ` t="${cell.t}"` : ''}><f>${esc(cell.f)}</f><v>${esc(cell.v)}</v></c>`);
        else if ('b' in cell) xml.push(`<c${ref(true)} t="b"><v>${cell.b ? 1 : 0}</v></c>`);
        else if ('d' in cell) xml.push(`<c${ref(true)} t="d"><v>${cell.d}</v></c>`);
        else xml.push(`<c${ref(cell.r)} t="s"><v>${sst(cell.s)}</v></c>`);
      });
      xml.push('</row>');
    }
    files[`xl/worksheets/sheet${i + 1}.xml`] =
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheetData>${xml.join('')}</sheetData></worksheet>`;
  });
  files['xl/workbook.xml'] =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">${options.date1904 ? '<workbookPr date1904="1"/>' : '<workbookPr/>'}<sheets>${sheets
      .map((s, i) => `<sheet name="${esc(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
      .join('')}</sheets></workbook>`;
  files['xl/_rels/workbook.xml.rels'] =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheets
      .map((_, i) => `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`)
      .join('')}<Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rIdT" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="/xl/styles.xml"/></Relationships>`;
  files['xl/styles.xml'] = STYLES;
  files['xl/sharedStrings.xml'] =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${shared.length}" uniqueCount="${shared.length}">${shared
      .map((s) => `<si><t xml:space="preserve">${esc(s)}</t></si>`)
      .join('')}</sst>`;
  files['[Content_Types].xml'] = '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>';
  Object.assign(files, options.extraParts ?? {}, options.replace ?? {});
  return zipParts(files, options.level ?? 6);
}

export function zipParts(files: Readonly<Record<string, string | Uint8Array>>, level: 0 | 1 | 6 | 9 = 6): Uint8Array {
  const zippable: Zippable = {};
  for (const [name, content] of Object.entries(files)) zippable[name] = typeof content === 'string' ? strToU8(content) : content;
  return zipSync(zippable, { level });
}

/** An ODS cell: text, or typed with its value, optionally repeated across columns. */
export type OCell =
  | string
  | null
  | { readonly float: string; readonly type?: 'float' | 'currency' | 'percentage'; readonly shown?: string; readonly repeat?: number }
  | { readonly date: string }
  | { readonly bool: boolean }
  | { readonly text: string; readonly repeat?: number; readonly note?: string };

export interface OSheet {
  readonly name: string;
  /** Rows in order; a number is that many empty rows (number-rows-repeated). */
  readonly rows: readonly (readonly OCell[] | number | { readonly repeat: number; readonly cells: readonly OCell[] })[];
}

/** A .ods workbook (mimetype first and stored, as the format asks). */
export function ods(sheets: readonly OSheet[]): Uint8Array {
  const cell = (c: OCell): string => {
    if (c === null) return '<table:table-cell/>';
    if (typeof c === 'string') return `<table:table-cell office:value-type="string"><text:p>${esc(c)}</text:p></table:table-cell>`;
    if ('float' in c) {
      const rep = c.repeat ? ` table:number-columns-repeated="${c.repeat}"` : '';
      const type = c.type ?? 'float';
      return `<table:table-cell${rep} office:value-type="${type}"${type === 'currency' ? ' office:currency="USD"' : ''} office:value="${c.float}"><text:p>${esc(c.shown ?? c.float)}</text:p></table:table-cell>`;
    }
    if ('date' in c) return `<table:table-cell office:value-type="date" office:date-value="${c.date}"><text:p>${c.date}</text:p></table:table-cell>`;
    if ('bool' in c) return `<table:table-cell office:value-type="boolean" office:boolean-value="${c.bool}"><text:p>${c.bool}</text:p></table:table-cell>`;
    const rep = c.repeat ? ` table:number-columns-repeated="${c.repeat}"` : '';
    const note = c.note ? `<office:annotation><text:p>${esc(c.note)}</text:p></office:annotation>` : '';
    const [first, ...rest] = c.text.split('  ');
    const body = rest.length > 0 ? `${esc(first ?? '')}<text:s text:c="2"/>${esc(rest.join('  '))}` : esc(c.text);
    return `<table:table-cell${rep} office:value-type="string">${note}<text:p>${body}</text:p></table:table-cell>`;
  };
  const tables = sheets
    .map((sheet) => {
      const rows = sheet.rows
        .map((row) => {
          if (typeof row === 'number') return `<table:table-row table:number-rows-repeated="${row}"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>`;
          if ('repeat' in row) return `<table:table-row table:number-rows-repeated="${row.repeat}">${row.cells.map(cell).join('')}</table:table-row>`;
          return `<table:table-row>${row.map(cell).join('')}<table:table-cell table:number-columns-repeated="1000"/></table:table-row>`;
        })
        .join('');
      return `<table:table table:name="${esc(sheet.name)}">${rows}<table:table-row table:number-rows-repeated="1048000"><table:table-cell table:number-columns-repeated="1024"/></table:table-row></table:table>`;
    })
    .join('');
  const content = `<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.3"><office:body><office:spreadsheet>${tables}</office:spreadsheet></office:body></office:document-content>`;
  return zipSync(
    { mimetype: [strToU8('application/vnd.oasis.opendocument.spreadsheet'), { level: 0 }], 'content.xml': strToU8(content), 'META-INF/manifest.xml': strToU8('<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"/>') },
    { level: 6 },
  );
}
