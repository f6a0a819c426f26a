// How a workbook's sheet is counted, in the same words in the window and the CLI. Before a sheet is
// read, only its filled rows are known (the header, and any title above it, among them); once read,
// the same filled rows are said again with how many of them are recipient rows, so "7" and "6" are
// never two counts of the same thing side by side.
import { plural } from './plural.ts';

/** A sheet in the list to choose from: "7 filled rows, header included". */
export function sheetFilledRows(filled: number): string {
  return filled === 0 ? 'no filled rows' : `${plural(filled, 'filled row')}, header included`;
}

/**
 * The sheet read, after its name: the chooser's count again, then how many of those rows are
 * recipients: "(7 filled rows, header included): 6 recipient rows"; with a title row above the header:
 * "(14 filled rows, header included): 12 recipient rows, 1 row above the header".
 */
export function sheetRowsRead(filled: number, recipients: number): string {
  const recipientRows = plural(recipients, 'recipient row');
  const above = filled - recipients - 1;
  return `(${sheetFilledRows(filled)}): ${recipientRows}${above > 0 ? `, ${plural(above, 'row')} above the header` : ''}`;
}
