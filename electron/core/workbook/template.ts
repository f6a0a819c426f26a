// The recipient list template (the app's "Download the template", `giftbatch template`): an empty
// list with the columns the import reads, as .xlsx or .csv.
//
// The notes are a row ABOVE the header, one note over each column, not cell comments: a row shows in
// every spreadsheet program and in a CSV alike (comments are hidden behind a hover, Google Sheets and
// Numbers show Excel's legacy comments unevenly, and a CSV has none), and the import passes over
// title rows above the header (shared/domain/csv/table.ts: the header is the first row that names an
// e-mail column). So a note must never itself read as naming an e-mail column: no note says "mail"
// (the header matcher's fallback takes any cell containing "email" as the e-mail column). The
// round-trip test (test/unit/core/workbook/template.test.ts) holds this: the filled template
// imports with its header on row 2.
import Papa from 'papaparse';
import type { MappedField } from '../../../shared/domain/csv/headers.ts';
import { TEMPLATE_FORMATS, type TemplateFormat } from '../../../shared/domain/file-formats.ts';
import { writeXlsx } from './write.ts';

export { TEMPLATE_FORMATS, type TemplateFormat };

export interface TemplateColumn {
  /** The field the import maps this header to (headers.ts). */
  readonly field: MappedField;
  readonly header: string;
  readonly note: string;
  /** Column width in the workbook, in characters. */
  readonly width: number;
}

export const TEMPLATE_COLUMNS: readonly TemplateColumn[] = [
  {
    field: 'name',
    header: 'Name',
    note: "Required. The recipient's full name (or two columns, First name and Last name). Headers may be in another language (Nom, Vorname, 이름): the import recognises them, and you can correct its choice.",
    width: 28,
  },
  {
    field: 'email',
    header: 'Email',
    note: "Required. The recipient's address, for example ann@example.com: the gift is sent there. An address on several rows gets one gift unless you choose one gift per row.",
    width: 32,
  },
  {
    field: 'amount',
    header: 'Amount',
    note: "Optional. The gift's value in the product's currency, a number: 25 or 25.50 (a number or currency cell is fine). Empty: the campaign's amount.",
    width: 22,
  },
  {
    field: 'message',
    header: 'Message',
    note: "Optional. A personal message for this recipient; it may use {first_name}, {name}, {amount} or any column's header in braces. Empty: the campaign's message.",
    width: 44,
  },
  {
    field: 'product',
    header: 'Product',
    note: "Optional. This row's gift when it differs from the campaign's: a product id or the product's exact name from the catalog (tiers: speakers one gift, volunteers another). Empty: the campaign's product.",
    width: 34,
  },
];

export const TEMPLATE_FILE_NAME = 'giftbatch-recipients-template';

const BOM = '\uFEFF';

export function isTemplateFormat(value: string): value is TemplateFormat {
  return (TEMPLATE_FORMATS as readonly string[]).includes(value);
}

/** The template's file: the notes row, then the header row, and no recipients. */
export function templateFile(format: TemplateFormat): { fileName: string; bytes: Uint8Array } {
  const notes = TEMPLATE_COLUMNS.map((c) => c.note);
  const headers = TEMPLATE_COLUMNS.map((c) => c.header);
  const fileName = `${TEMPLATE_FILE_NAME}.${format}`;
  if (format === 'csv') {
    // UTF-8 with a BOM, so Excel opens the notes' non-ASCII text right; every cell quoted.
    const text = BOM + Papa.unparse([notes, headers], { newline: '\r\n', quotes: true }) + '\r\n';
    return { fileName, bytes: new TextEncoder().encode(text) };
  }
  const bytes = writeXlsx({
    name: 'Recipients',
    rows: [
      { cells: notes, style: 'note' },
      { cells: headers, style: 'bold' },
    ],
    widths: TEMPLATE_COLUMNS.map((c) => c.width),
  });
  return { fileName, bytes };
}
