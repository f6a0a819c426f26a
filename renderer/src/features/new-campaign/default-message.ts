// What the import step says when the campaign's default message (typed on the gift step) cannot be
// sent on some rows: the campaign keeps that message once made, so it is fixed before, not per row.
import type { Preview } from '../../stores/wizard-store.ts';

/** The default message's problem on the rows that use it (no message of their own), in words; null when it has none. */
export function defaultMessageProblem(preview: Preview): string | null {
  const failing = preview.rows.filter((row) => row.message === '' && row.errors.some((issue) => issue.field === 'message'));
  const first = failing[0]?.errors.find((issue) => issue.field === 'message');
  if (!first) return null;
  const reason = first.message.replace(/^Line \d+:\s*/, '');
  const rows = failing.length === 1 ? `line ${failing[0]!.line}` : `${failing.length} rows (the first on line ${failing[0]!.line})`;
  return `The message from the gift step cannot be sent on ${rows}: ${reason}. Go back to the gift step to change it.`;
}
