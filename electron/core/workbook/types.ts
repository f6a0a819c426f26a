// What each workbook format's reader gives: its sheets' names, and one sheet read row by row.

/** A non-blank row: its cells as text ('' for an empty cell; the row may be shorter than the sheet), and the sheet's own row number. */
export type RowSink = (cells: readonly string[], row: number) => void;

export interface SheetReader {
  readonly format: 'xlsx' | 'ods';
  /** In the workbook's order. */
  readonly sheetNames: readonly string[];
  /** Reads the named sheet (one of `sheetNames`), giving each non-blank row to `onRow` if any; returns how many there were. */
  read(sheet: string, onRow: RowSink | null): number;
  /**
   * The named sheet's non-blank rows without reading it again, when the format counted every sheet
   * as it opened (.ods: all its sheets are in one part); throws what reading the sheet would. Absent
   * (.xlsx, a part per sheet): each sheet is counted by `read(sheet, null)`.
   */
  count?(sheet: string): number;
}

/** A cell that makes its row non-blank: anything but white space. */
export function hasText(cell: string): boolean {
  const c = cell.charCodeAt(0);
  return (c > 0x20 && c < 0x7f) || cell.trim() !== '';
}
