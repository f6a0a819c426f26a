import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../../support/parse-csv.ts';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const lines = (text: string) => parseCsv(utf8(text)).records.map((r) => r.line);

describe('parseCsv: delimiters', () => {
  it.each([
    [',', 'Name,Email,Amount\nAnn,ann@example.com,25\n'],
    [';', 'Name;Email;Betrag\nAnn;ann@example.com;25,50\nBob;bob@example.com;1.000,00\n'],
    ['\t', 'Name\tEmail\tAmount\nAnn\tann@example.com\t25\n'],
  ])('detects "%s" as the delimiter', (delimiter, text) => {
    const parsed = parseCsv(utf8(text));
    expect(parsed.delimiter).toBe(delimiter);
    expect(parsed.records[0]?.email).toBe('ann@example.com');
  });

  it('does not let decimal commas in a semicolon file vote for the comma', () => {
    const parsed = parseCsv(utf8('Name;Email;Betrag\nAnn;a@example.com;25,50\nBob;b@example.com;12,5\n'));
    expect(parsed.delimiter).toBe(';');
    expect(parsed.decimalSeparator).toBe(',');
  });

  it('lets the caller override the delimiter', () => {
    const parsed = parseCsv(utf8('Name;Email\nAnn;a@example.com\n'), { delimiter: ',' });
    expect(parsed.delimiter).toBe(',');
    expect(parsed.headers).toEqual(['Name;Email']);
  });

  it('honours an Excel "sep=;" first line and counts it as line 1', () => {
    const parsed = parseCsv(utf8('sep=;\r\nName;Email\r\nAnn;a@example.com\r\n'));
    expect(parsed.delimiter).toBe(';');
    expect(parsed.headerLine).toBe(2);
    expect(parsed.records.map((r) => [r.line, r.name])).toEqual([[3, 'Ann']]);
  });

  it('guesses decimal commas in a tab-separated file from its amounts', () => {
    const parsed = parseCsv(utf8('Name\tEmail\tAmount\nAnn\ta@example.com\t25,50\nBob\tb@example.com\t12,5\n'));
    expect(parsed.decimalSeparator).toBe(',');
  });

  it('keeps decimal points in a tab-separated file whose amounts use them', () => {
    const parsed = parseCsv(utf8('Name\tEmail\tAmount\nAnn\ta@example.com\t25.50\n'));
    expect(parsed.decimalSeparator).toBe('.');
  });
});

describe('parseCsv: line numbers', () => {
  it('numbers records by physical line with the header as line 1, for LF and CRLF alike', () => {
    expect(lines('Name,Email\nA,a@example.com\nB,b@example.com\n')).toEqual([2, 3]);
    expect(lines('Name,Email\r\nA,a@example.com\r\nB,b@example.com\r\n')).toEqual([2, 3]);
  });

  it('skips blank lines but still counts them', () => {
    expect(lines('Name,Email\n\nA,a@example.com\n   \n\r\nB,b@example.com\n\n')).toEqual([3, 6]);
  });

  it('skips rows whose fields are all empty (",,," left by a spreadsheet)', () => {
    const parsed = parseCsv(utf8('Name,Email,Amount\n,,\nA,a@example.com,\n , ,\n'));
    expect(parsed.records.map((r) => r.line)).toEqual([3]);
  });

  it('counts the lines a quoted newline spans, with LF, CRLF and lone CR', () => {
    const text = 'Name,Email,Message\nA,a@example.com,"one\ntwo\r\nthree\rfour"\nB,b@example.com,x\n';
    const parsed = parseCsv(utf8(text));
    expect(parsed.records.map((r) => r.line)).toEqual([2, 6]);
    expect(parsed.records[0]?.message).toBe('one\ntwo\nthree\nfour');
  });

  it('counts lines before the header when the file starts with blank lines', () => {
    const parsed = parseCsv(utf8('\n\nName,Email\nA,a@example.com\n'));
    expect(parsed.headerLine).toBe(3);
    expect(parsed.records.map((r) => r.line)).toEqual([4]);
  });

  it('handles mixed line endings without merging records', () => {
    expect(lines('Name,Email\r\nA,a@example.com\nB,b@example.com\rC,c@example.com')).toEqual([2, 3, 4]);
  });

  it('counts a multi-line header', () => {
    expect(lines('"Full\nName",Email\nA,a@example.com\n')).toEqual([3]);
  });
});

describe('parseCsv: quoting and field counts', () => {
  it('reads quoted fields with embedded delimiters and doubled quotes', () => {
    const parsed = parseCsv(utf8('Name,Email,Message\n"Smith, Jo","jo@example.com","She said ""hi"""\n'));
    expect(parsed.records[0]).toMatchObject({ name: 'Smith, Jo', email: 'jo@example.com', amount: '', message: 'She said "hi"' });
    expect(parsed.problems).toEqual([]);
  });

  it('accepts trailing empty columns in the header and the rows', () => {
    const parsed = parseCsv(utf8('Name,Email,,\nA,a@example.com,,\nB,b@example.com\n'));
    expect(parsed.headers).toEqual(['Name', 'Email']);
    expect(parsed.problems).toEqual([]);
    expect(parsed.records).toHaveLength(2);
  });

  it('keeps a record with too many fields and reports it with its line', () => {
    const parsed = parseCsv(utf8('Name,Email,Amount\nA,a@example.com,25\nSmith, Jo,jo@example.com,25\n'));
    expect(parsed.records.map((r) => r.line)).toEqual([2, 3]);
    expect(parsed.records[1]?.problem).toBe(
      'the record has 4 fields but the header has 3. A value probably contains a "," without quotes around it',
    );
    expect(parsed.problems).toEqual([{ line: 3, message: `Line 3: ${parsed.records[1]?.problem}` }]);
  });

  it('keeps a record with too few fields and reports it with its line', () => {
    const parsed = parseCsv(utf8('Name;Email;Betrag\nA;a@example.com\n'));
    expect(parsed.records[0]?.problem).toBe('the record has 2 fields but the header has 3. A ";" is probably missing');
  });

  it('reports an unclosed quote with the lines it swallowed', () => {
    const parsed = parseCsv(utf8('Name,Email\nA,a@example.com\n"B,b@example.com\nC,c@example.com\n'));
    expect(parsed.records.map((r) => r.line)).toEqual([2, 3]);
    expect(parsed.records[1]?.problem).toBe(
      'a quoted field is never closed, so lines 3–5 were read as one record. Add the missing closing quote (")',
    );
  });

  it('reports a stray quote after a quoted field', () => {
    const parsed = parseCsv(utf8('Name,Email\n"A"x,a@example.com\n'));
    expect(parsed.problems.map((p) => p.line)).toEqual([2]);
  });
});

describe('parseCsv: mapping', () => {
  it('returns headers, the detected mapping, and fields read through it', () => {
    const parsed = parseCsv(utf8('Order #,First Name,Last Name,Email\n1, Ada , Lovelace ,ada@example.com\n'));
    expect(parsed.headers).toEqual(['Order #', 'First Name', 'Last Name', 'Email']);
    expect(parsed.mapping).toEqual({ firstName: 1, lastName: 2, email: 3 });
    expect(parsed.records[0]).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com', amount: '', message: '' });
  });

  it('uses only the first or last name when the other is empty', () => {
    const parsed = parseCsv(utf8('First Name,Last Name,Email\nCher,,cher@example.com\n,Prince,p@example.com\n'));
    expect(parsed.records.map((r) => r.name)).toEqual(['Cher', 'Prince']);
  });

  it('reads fields through the caller\'s corrected mapping and keeps the detected one for display', () => {
    const parsed = parseCsv(utf8('Contact,Who,Gift\na@example.com,Ann,25\n'), { mapping: { email: 0, name: 1, amount: 2 } });
    expect(parsed.detectedMapping).toEqual({});
    expect(parsed.mapping).toEqual({ email: 0, name: 1, amount: 2 });
    expect(parsed.records[0]).toMatchObject({ name: 'Ann', email: 'a@example.com', amount: '25', message: '' });
  });

  it('reports a missing e-mail or name column on the header line', () => {
    const parsed = parseCsv(utf8('Contact,Who\na@example.com,Ann\n'));
    expect(parsed.problems).toEqual([
      { line: 1, message: 'The header (line 1) has no column recognised as the e-mail address: choose it under Columns above.' },
      { line: 1, message: 'The header (line 1) has no column recognised as the recipient name: choose it under Columns above.' },
    ]);
  });

  it('reports a mapping override to a column the header does not have', () => {
    const parsed = parseCsv(utf8('Name,Email\nAnn,a@example.com\n'), { mapping: { email: 5 } });
    expect(parsed.mapping).toEqual({ name: 0 });
    expect(parsed.problems[0]).toEqual({
      line: 1,
      message: 'Column 6, chosen for email, does not exist: the header (line 1) has 2 columns.',
    });
  });

  it('reports an empty file as having no header', () => {
    const parsed = parseCsv(new Uint8Array());
    expect(parsed.headers).toEqual([]);
    expect(parsed.records).toEqual([]);
    expect(parsed.problems).toEqual([
      { line: 1, message: 'The file has no header row: the first line should name the columns (Name, Email, …).' },
    ]);
  });
});
