// How much of a file the import reads. Checked on the bytes and cells as they come, before any
// cleaning, so a crafted file costs bounded time and memory; each limit names itself when it stops
// a file. 250,000 rows is more than any gift service takes in one bulk order (50,000 is common).
export const CSV_LIMITS = {
  fileBytes: 64 * 1024 * 1024,
  rows: 250_000,
  cellChars: 10_000,
} as const;

/** The whole file is refused: one of its limits is passed. Nothing was read into a campaign. */
export class CsvLimitError extends Error {
  override readonly name = 'CsvLimitError';
}

export function checkFileSize(bytes: Uint8Array): void {
  if (bytes.length > CSV_LIMITS.fileBytes) {
    throw new CsvLimitError(
      `The file is ${(bytes.length / 1_048_576).toFixed(1)} MB; a recipient list may be at most ${CSV_LIMITS.fileBytes / 1_048_576} MB. Split it into several campaigns.`,
    );
  }
}

export function rowLimitError(): CsvLimitError {
  return new CsvLimitError(`The file has more than ${CSV_LIMITS.rows.toLocaleString('en-US')} rows, the most one campaign takes. Split it into several campaigns.`);
}

/** A cell past the limit, for the row's problem; null when it fits. */
export function cellTooLong(field: string, cell: string): string | null {
  return cell.length > CSV_LIMITS.cellChars
    ? `the ${field} cell holds ${cell.length.toLocaleString('en-US')} characters; a cell may hold at most ${CSV_LIMITS.cellChars.toLocaleString('en-US')}`
    : null;
}
