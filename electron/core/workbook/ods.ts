// .ods (OpenDocument spreadsheet): every sheet is a table:table in content.xml, its rows and cells
// possibly repeated (number-rows-repeated, number-columns-repeated). LibreOffice pads a sheet with
// repeated empty rows and cells up to the sheet's edge: those cost nothing here; repeated cells that
// hold a value count against the column and cell limits as if written out.
import { CsvLimitError, damaged, limitMessages, WORKBOOK_LIMITS } from './limits.ts';
import { durationText, isoDateText, numberText } from './values.ts';
import { parsePart, type XmlHandlers } from './xml.ts';
import { hasText, type RowSink, type SheetReader } from './types.ts';
import type { Zip } from './zip.ts';

export const ODS_MIMETYPE = 'application/vnd.oasis.opendocument.spreadsheet';

export function openOds(zip: Zip): SheetReader {
  // Every sheet is in content.xml: the pass that finds the names counts every sheet's rows too, so
  // listing the sheets costs no parse of its own and reading the chosen one is the second and last.
  const { names: sheetNames, counts } = scan(zip, null, null);
  if (sheetNames.length === 0) throw damaged('it holds no sheet');
  const known = (sheet: string): number => {
    const rows = counts.get(sheet) ?? 0;
    if (rows instanceof CsvLimitError) throw rows;
    return rows;
  };
  return {
    format: 'ods',
    sheetNames,
    count: known,
    read(sheet, onRow) {
      // A sheet refused while counting would be refused by the same checks when read: no new parse.
      const rows = known(sheet);
      if (onRow !== null) scan(zip, sheet, onRow);
      return rows;
    },
  };
}

interface Scan {
  /** Every table's name, in the document's order. */
  readonly names: string[];
  /** Non-blank rows by sheet name, or the limit its rows broke; only the sheets scanned (`wanted`, or all). */
  readonly counts: Map<string, number | CsvLimitError>;
}

/**
 * Reads content.xml once. With `wanted`, that sheet's rows go to `onRow` and a sheet limit passed
 * throws; without, every sheet is counted, and a sheet that passes a limit has the error kept in
 * its place (thrown when that sheet is asked for) while the others are still counted.
 */
function scan(zip: Zip, wanted: string | null, onRow: RowSink | null): Scan {
  const names: string[] = [];
  const counts = new Map<string, number | CsvLimitError>();
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

  const handlers: Required<XmlHandlers> = {
    open(tag, attrs) {
      switch (tag) {
        case 'table':
          tally();
          table = attrs['table:name'] ?? '';
          names.push(table);
          reading = (wanted === null || table === wanted) && !(counts.get(table) instanceof CsvLimitError);
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
          tally();
          reading = false;
          break;
      }
    },
    text(chunk) {
      if (text !== null && inParagraph > 0 && reading) addText(chunk);
    },
  };
  const found = parsePart(zip, 'content.xml', wanted === null ? countingEvery(handlers) : handlers);
  if (!found) throw damaged('its content (content.xml) is missing');
  return { names, counts };

  /** Adds the rows counted since the last tally to the sheet's count (a name may be on two tables). */
  function tally(): void {
    if (!reading) return;
    counts.set(table, ((counts.get(table) as number | undefined) ?? 0) + nonBlank);
    nonBlank = 0;
  }

  /** When counting every sheet: a sheet that passes a limit keeps the error, and is read no further. */
  function countingEvery(inner: Required<XmlHandlers>): XmlHandlers {
    const refuse = (error: unknown): void => {
      if (!(error instanceof CsvLimitError)) throw error;
      counts.set(table, error);
      reading = false;
      nonBlank = 0;
      value = null;
      text = null;
      inParagraph = 0;
    };
    return {
      open(tag, attrs) {
        try {
          inner.open(tag, attrs);
        } catch (error) {
          refuse(error);
        }
      },
      close(tag) {
        try {
          inner.close(tag);
        } catch (error) {
          refuse(error);
        }
      },
      text(chunk) {
        try {
          inner.text(chunk);
        } catch (error) {
          refuse(error);
        }
      },
    };
  }

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
