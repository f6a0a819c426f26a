// A text file that is not a list at all (a letter, notes: sentences, one per line) was shown as a
// list of one column whose "header" is its first sentence, with rows that need fixing. Said instead:
// this does not look like a list of recipients. Only when it is clear-cut, so that no real list is
// refused in these words: a CSV text whose header and rows are all one column (no comma, semicolon or
// tab split any line), whose header names no column the mapping knows, and with no e-mail address
// anywhere (a one-column list of addresses is a list: it is told what column it lacks instead).
import type { FileFormat } from '../file-formats.ts';
import type { ColumnMapping } from './headers.ts';

export interface ListShape {
  readonly format: FileFormat;
  readonly headers: readonly string[];
  /** The mapping guessed from the header, before any correction by the person. */
  readonly detectedMapping: ColumnMapping;
}

/** `rows`: each record's cells as read. */
export function isNotAList(layout: ListShape, rows: Iterable<readonly string[]>): boolean {
  if (layout.format !== 'csv' || layout.headers.length !== 1 || Object.keys(layout.detectedMapping).length > 0) return false;
  const header = layout.headers[0]!;
  if (header.trim() === '' || header.includes('@')) return false;
  for (const cells of rows) {
    if (cells.filter((c) => c.trim() !== '').length > 1 || cells.some((c) => c.includes('@'))) return false;
  }
  return true;
}

/** What a file isNotAList finds says: `create` when a draft was asked for (nothing was created). */
export function notAListMessage(fileName: string, situation: 'create' | 'check'): string {
  return (
    `"${fileName}" does not look like a list of recipients (no columns found): every line is one piece of text, with no comma, semicolon or tab between columns and no e-mail address` +
    `${situation === 'create' ? ', so nothing was created' : ''}. Choose the file that lists the recipients: a header row ("Name", "Email", and "Amount" if the gift has a range) and one row per recipient.`
  );
}
