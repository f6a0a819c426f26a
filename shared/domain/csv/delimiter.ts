import Papa from 'papaparse';

export type CsvDelimiter = ',' | ';' | '\t';
export const DELIMITERS: readonly CsvDelimiter[] = [',', ';', '\t'];

const SAMPLE_ROWS = 20;

/**
 * The delimiter that splits the header into the most columns while splitting the rows below it
 * into the same count. Counting on the header first keeps "25,50" in a semicolon file from
 * voting for the comma.
 */
export function detectDelimiter(text: string): CsvDelimiter {
  const sample = leadingLines(text, SAMPLE_ROWS * 2).replace(/\r\n?/g, '\n');
  let best: CsvDelimiter = ',';
  let bestScore = -1;
  for (const delimiter of DELIMITERS) {
    const rows = Papa.parse<string[]>(sample, { delimiter, newline: '\n', preview: SAMPLE_ROWS, skipEmptyLines: 'greedy' }).data;
    const header = rows[0];
    if (!header || header.length < 2) continue;
    const width = trimmedWidth(header);
    let same = 0;
    for (let i = 1; i < rows.length; i++) if (trimmedWidth(rows[i]!) === width) same++;
    const consistency = rows.length > 1 ? same / (rows.length - 1) : 1;
    // Consistency matters most; among equally consistent candidates, more columns wins.
    const score = consistency * 1000 + Math.min(width, 999);
    if (score > bestScore) {
      best = delimiter;
      bestScore = score;
    }
  }
  return best;
}

// The first lines only (with LF line breaks): papaparse splits its whole input up front when it holds
// no quote, and the file may have 100,000 lines. Twice the rows sampled leaves room for quoted line
// breaks.
function leadingLines(text: string, count: number): string {
  let at = -1;
  for (let i = 0; i < count; i++) {
    at = text.indexOf('\n', at + 1);
    if (at < 0) return text;
  }
  return text.slice(0, at);
}

/** Number of fields up to the last non-empty one: trailing empty columns do not count. */
export function trimmedWidth(fields: readonly string[]): number {
  let n = fields.length;
  while (n > 0 && fields[n - 1]!.trim() === '') n--;
  return n;
}
