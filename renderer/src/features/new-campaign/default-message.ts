// What the import step says when the campaign's default message (typed on the gift step) cannot be
// sent on some rows: the campaign keeps that message once made, so it is fixed before, not per row.
import type { Preview } from '../../stores/wizard-store.ts';

/** The default message's problem on the rows that use it (the preview's defaultMessage), in words; null when it has none. */
export function defaultMessageProblem(preview: Pick<Preview, 'defaultMessage'>): string | null {
  const figure = preview.defaultMessage;
  if (!figure) return null;
  const rows = figure.rows === 1 ? `line ${figure.firstLine}` : `${figure.rows} rows (the first on line ${figure.firstLine})`;
  return `The message from the gift step cannot be sent on ${rows}: ${figure.reason}. Go back to the gift step to change it.`;
}
