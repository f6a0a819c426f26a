// Whether a previewed file can become a draft, and if not, what to do about it.
import { missingColumns } from '../../../../shared/domain/csv/headers.ts';
import { notAListMessage } from '../../../../shared/domain/csv/not-a-list.ts';
import { BLANK_FILE, isBlankFile } from '../../../../shared/domain/csv/table.ts';
import type { Preview } from '../../stores/wizard-store.ts';

/** What stops a draft from being made from this preview, in words; null when nothing does. */
export function importBlocker(preview: Preview, fileName: string): string | null {
  if (preview.workbook?.sheet === null) return `“${fileName}” is a workbook with several sheets. Choose the sheet that holds the recipients.`;
  if (preview.totals.rows === 0 && isBlankFile(preview.problems)) {
    return `“${fileName}” ${BLANK_FILE}. Check that it is the right file${preview.workbook ? ' and sheet' : ''}, with one row per recipient under the header.`;
  }
  if (preview.totals.rows === 0) {
    return `“${fileName}” has no recipient rows below its header. Check that it is the right file, with one row per recipient.`;
  }
  if (preview.notAList) return notAListMessage(fileName, 'check');
  const missing = missingColumns(preview.mapping);
  if (missing.includes('email')) return 'No column is used as the e-mail address. Choose it under Columns above.';
  if (missing.includes('name')) return "No column is used for the recipient's name. Choose a full name, or a first and a last name, under Columns above.";
  return null;
}
