// .ods (OpenDocument spreadsheet): every sheet is a table:table in content.xml, its rows and cells
// possibly repeated (number-rows-repeated, number-columns-repeated). LibreOffice pads a sheet with
// repeated empty rows and cells up to the sheet's edge: those cost nothing here; repeated cells that
// hold a value count against the column and cell limits as if written out.
import { CsvLimitError, damaged, limitMessages, WORKBOOK_LIMITS } from './limits.ts';
import { durationText, isoDateText, numberText } from './values.ts';
import { parsePart } from './xml.ts';
import { hasText, type RowSink, type SheetReader } from './types.ts';
import type { Zip } from './zip.ts';

export const ODS_MIMETYPE = 'application/vnd.oasis.opendocument.spreadsheet';

export function openOds(zip: Zip): SheetReader {
  const sheetNames: string[] = [];
  // One pass for the names: stop at the first row of each table is not possible with SAX, so the
  // names come from a pass that reads no cells.
  scan(zip, null, null, (name) => sheetNames.push(name));
  if (sheetNames.length === 0) throw damaged('it holds no sheet');
  return {
    format: 'ods',
    sheetNames,
    read: (sheet, onRow) => scan(zip, sheet, onRow, null),
  };
}

/** Reads content.xml: the rows of `wanted` to `onRow`, and each table's name to `onTable`; returns the non-blank rows of `wanted`. */
function scan(zip: Zip, wanted: string | null, onRow: RowSink | null, onTable: ((name: string) => void) | null): number {
  let table = '';
  let reading = false;
  let rowNumber = 0;
  let rowRepeat = 1;
  let cells: string[] = [];
  let filled = false;
  let column = 0;
  let cellRepeat = 1;
  let cellCount = 0;
  let nonBlank = 0;
  let rowElements = 0;
  // A cell's value from its attributes, or its paragraphs' text (null: not in a text cell).
  let value: string | null = null;
  let text: string | null = null;
  let paragraphs = 0;
  let inParagraph = 0;
  // Inside a cell's comment (office:annotation), whose paragraphs are not the cell's text.
  let annotation = 0;

  const found = parsePart(zip, 'content.xml', {
    open(tag, attrs) {
      switch (tag) {
        case 'table':
          table = attrs['table:name'] ?? '';
          onTable?.(table);
          reading = wanted !== null && table === wanted;
          rowNumber = 0;
          cellCount = 0;
          rowElements = 0;
          break;
        case 'table-row':
          if (!reading) break;
          rowRepeat = Math.max(1, Number(attrs['table:number-rows-repeated'] ?? 1) || 1);
          cells = [];
          filled = false;
          column = 0;
          break;
        case 'table-cell':
        case 'covered-table-cell': {
          if (!reading) break;
          cellRepeat = Math.max(1, Number(attrs['table:number-columns-repeated'] ?? 1) || 1);
          value = cellValue(attrs);
          text = value === null ? '' : null;
          paragraphs = 0;
          break;
        }
        case 'annotation':
          annotation++;
          break;
        case 'p':
          if (text === null || !reading || annotation > 0) break;
          if (inParagraph++ === 0 && paragraphs++ > 0) text += '\n';
          break;
        case 's':
          if (text !== null && inParagraph > 0) addText(' '.repeat(Math.min(WORKBOOK_LIMITS.cellChars + 1, Math.max(1, Number(attrs['text:c'] ?? 1) || 1))));
          break;
        case 'tab':
          if (text !== null && inParagraph > 0) addText('\t');
          break;
        case 'line-break':
          if (text !== null && inParagraph > 0) addText('\n');
          break;
      }
    },
    close(tag) {
      // Counted in every sheet, as its opening is: a comment in a sheet not read must not hide the
      // text of the sheets after it.
      if (tag === 'annotation') {
        annotation--;
        return;
      }
      if (!reading) return;
      switch (tag) {
        case 'p':
          if (inParagraph > 0) inParagraph--;
          break;
        case 'table-cell':
        case 'covered-table-cell': {
          const cell = value ?? text ?? '';
          if (cell.length > WORKBOOK_LIMITS.cellChars) throw new CsvLimitError(limitMessages.cellChars(table, rowNumber + 1, column + 1));
          if (cell !== '') {
            if (column + cellRepeat > WORKBOOK_LIMITS.columns) throw new CsvLimitError(limitMessages.columns(table, rowNumber + 1));
            // The empty cells before it are held too (see xlsx.ts): they count toward the cell limit.
            const padding = Math.max(0, column - cells.length);
            if ((cellCount += (cellRepeat + padding) * rowRepeat) > WORKBOOK_LIMITS.cells) throw new CsvLimitError(limitMessages.cells(table));
            while (cells.length < column) cells.push('');
            for (let i = 0; i < cellRepeat; i++) cells[column + i] = cell;
            filled ||= hasText(cell);
          }
          column += cellRepeat;
          value = null;
          text = null;
          break;
        }
        case 'table-row':
          if (filled) {
            if (rowNumber + rowRepeat > WORKBOOK_LIMITS.rowElements) throw new CsvLimitError(limitMessages.rowElements(table));
            nonBlank += rowRepeat;
            if (onRow !== null) for (let i = 1; i <= rowRepeat; i++) onRow(cells, rowNumber + i);
          } else if ((rowElements += 1) > WORKBOOK_LIMITS.rowElements) {
            throw new CsvLimitError(limitMessages.rowElements(table));
          }
          rowNumber += rowRepeat;
          break;
        case 'table':
          reading = false;
          break;
      }
    },
    text(chunk) {
      if (text !== null && inParagraph > 0 && reading) addText(chunk);
    },
  });
  if (!found) throw damaged('its content (content.xml) is missing');
  return nonBlank;

  function addText(chunk: string): void {
    text += chunk;
    if (text!.length > WORKBOOK_LIMITS.cellChars) {
      throw new CsvLimitError(limitMessages.cellChars(table, rowNumber + 1, column + 1));
    }
  }
}

/** A typed cell's value as text; null for a text cell (its paragraphs hold the text) or an empty one. */
function cellValue(attrs: Record<string, string>): string | null {
  switch (attrs['office:value-type']) {
    case 'float':
    case 'currency':
    case 'percentage': {
      const raw = attrs['office:value'] ?? '';
      return numberText(raw) ?? raw;
    }
    case 'date':
      return isoDateText(attrs['office:date-value'] ?? '');
    case 'time':
      return durationText(attrs['office:time-value'] ?? '');
    case 'boolean':
      return attrs['office:boolean-value'] === 'true' ? 'TRUE' : 'FALSE';
    case 'string':
      return attrs['office:string-value'] ?? null;
    default:
      return null;
  }
}
