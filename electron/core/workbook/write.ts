// A small .xlsx writer: one sheet of text cells, each row plain, bold or a wrapped note, zipped with
// fflate. Enough for the template (template.ts); not a general spreadsheet writer. Cells are inline
// strings, so the file needs no shared-strings part.
import { strToU8, zipSync } from 'fflate';
import { columnName } from './limits.ts';

export type RowStyle = 'plain' | 'bold' | 'note';

export interface SheetRow {
  readonly cells: readonly string[];
  readonly style?: RowStyle;
}

export interface SheetToWrite {
  readonly name: string;
  readonly rows: readonly SheetRow[];
  /** Column widths in characters, from column A. */
  readonly widths?: readonly number[];
}

// Style indexes in cellXfs below.
const STYLE_INDEX: Readonly<Record<RowStyle, number>> = { plain: 0, bold: 1, note: 2 };

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

const STYLES = `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}"><fonts count="3"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font><font><i/><sz val="10"/><color rgb="FF595959"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="0" fontId="2" fillId="0" borderId="0" xfId="0" applyFont="1" applyAlignment="1"><alignment wrapText="1" vertical="top"/></xf></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;

// Characters XML 1.0 cannot hold at all (a cell's text never needs them).
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Sheet names Excel accepts: 1 to 31 characters, none of \ / ? * [ ] : */
function checkSheetName(name: string): void {
  if (name.length === 0 || name.length > 31 || /[\\/?*[\]:]/.test(name)) throw new Error(`"${name}" is not a sheet name Excel accepts (1-31 characters, none of \\ / ? * [ ] :).`);
}

function sheetXml(sheet: SheetToWrite): string {
  const cols = sheet.widths?.length
    ? `<cols>${sheet.widths.map((width, i) => `<col min="${i + 1}" max="${i + 1}" width="${width}" customWidth="1"/>`).join('')}</cols>`
    : '';
  const rows = sheet.rows
    .map((row, r) => {
      const style = STYLE_INDEX[row.style ?? 'plain'];
      const s = style === 0 ? '' : ` s="${style}"`;
      const cells = row.cells
        .map((text, c) => {
          if (NOT_XML.test(text)) throw new Error(`Cell ${columnName(c + 1)}${r + 1} holds a control character, which a workbook cannot store.`);
          if (text === '') return '';
          const space = text !== text.trim() || text.includes('\n') ? ' xml:space="preserve"' : '';
          return `<c r="${columnName(c + 1)}${r + 1}"${s} t="inlineStr"><is><t${space}>${escapeXml(text)}</t></is></c>`;
        })
        .join('');
      return `<row r="${r + 1}">${cells}</row>`;
    })
    .join('');
  return `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">${cols}<sheetData>${rows}</sheetData></worksheet>`;
}

/** A workbook of one sheet, as the bytes of an .xlsx file. */
export function writeXlsx(sheet: SheetToWrite): Uint8Array {
  checkSheetName(sheet.name);
  const files: Record<string, string> = {
    '[Content_Types].xml': `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
    '_rels/.rels': `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets><sheet name="${escapeXml(sheet.name)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
    'xl/styles.xml': STYLES,
    'xl/worksheets/sheet1.xml': sheetXml(sheet),
  };
  const zippable: Record<string, Uint8Array> = {};
  for (const [name, text] of Object.entries(files)) zippable[name] = strToU8(text);
  // A fixed time: the same template is the same bytes.
  return zipSync(zippable, { level: 6, mtime: new Date(Date.UTC(2024, 0, 1)) });
}
