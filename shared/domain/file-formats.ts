// What a recipient list may be: CSV text, or a workbook (Excel's .xlsx, OpenDocument's .ods). The
// engine tells them apart by the bytes, never by the file's name.
export const FILE_FORMATS = ['csv', 'xlsx', 'ods'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

/** The file names the import's picker offers: CSV text (and its .txt, .tsv exports) and workbooks. */
export const RECIPIENT_FILE_EXTENSIONS = ['.csv', '.txt', '.tsv', '.xlsx', '.ods'] as const;

/** The formats the recipient list template is given in (the app's download, `giftbatch template`). */
export const TEMPLATE_FORMATS = ['xlsx', 'csv'] as const satisfies readonly FileFormat[];
export type TemplateFormat = (typeof TEMPLATE_FORMATS)[number];
