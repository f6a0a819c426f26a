// What a recipient row shows: its state's label, the issues of one cell, whether it repeats an
// e-mail, and its acceptance expiry. Pure, so the tables stay thin.
import type { RowDto } from '../../../shared/contract.ts';
import { isAcceptanceExpired } from '../../../shared/domain/acceptance.ts';
import { ROW_STATES, type RowState } from '../../../shared/domain/rows.ts';
import { formatRelative } from './time.ts';

export type { RowState };

export const STATE_LABELS: Readonly<Record<RowState, string>> = {
  invalid: 'Needs fixing',
  ready: 'Ready',
  sending: 'Sending',
  ordered: 'Ordered',
  delivered: 'Delivered',
  failed: 'Failed',
  cancelled: 'Cancelled',
  skipped: 'Skipped',
};

/**
 * The label of a row's state on the campaign screen. A row held for a person (left mid-send, its
 * lookup proving nothing: heldAt set) is in state 'sending' but nothing sends it: it waits to be
 * looked up at the service ("Rows to look up at the service"), so it does not read "Sending".
 */
export function rowStateLabel(row: Pick<RowDto, 'state' | 'heldAt'>): string {
  return row.state === 'sending' && row.heldAt !== null ? 'To look up' : STATE_LABELS[row.state];
}

/** Every row of a campaign, from its counts by state. */
export function countRows(counts: Readonly<Record<RowState, number>>): number {
  return ROW_STATES.reduce((n, state) => n + counts[state], 0);
}

export interface Issue {
  field?: string | undefined;
  message: string;
}

export interface HasIssues {
  errors: readonly Issue[];
  warnings: readonly Issue[];
}

/** Issues of one cell; issues about the whole row (field "row" or none) belong to every cell's row, not to a cell. */
export function issuesFor(issues: readonly Issue[], field: string): Issue[] {
  return issues.filter((i) => i.field === field);
}

export function rowLevelIssues(issues: readonly Issue[]): Issue[] {
  return issues.filter((i) => i.field === undefined || i.field === 'row');
}

/** Strips the "Line 12: " prefix the validator adds; the table shows the line in its own column. */
export function issueText(issue: Issue): string {
  return issue.message.replace(/^Line \d+:\s*/, '');
}

/**
 * Why a row that was never sent needs fixing, on the campaign screen (which has no editor): its
 * errors in the row's own words, one after another. Null for every other row, and for an invalid
 * row that recorded none.
 */
export function invalidReason(row: Pick<RowDto, 'state' | 'errors'>): string | null {
  if (row.state !== 'invalid' || row.errors.length === 0) return null;
  return row.errors.map(issueText).join('; ');
}

/**
 * A row whose e-mail repeats an earlier line's or an earlier campaign's: it would give someone a second
 * gift, so the import skips it unless the organiser chose to send it (RowDto.skippedBy says which).
 */
export function isDuplicate(row: HasIssues): boolean {
  return row.warnings.some((w) => w.field === 'email');
}

export type DraftFilter = 'all' | 'errors' | 'duplicates';

export function matchesDraftFilter(row: HasIssues & { state?: RowState }, filter: DraftFilter): boolean {
  // A row the person skipped is no longer to fix (the cost card counts it as skipped, not as needing fixing).
  if (filter === 'errors') return row.state !== 'skipped' && (row.errors.length > 0 || row.state === 'invalid');
  if (filter === 'duplicates') return isDuplicate(row);
  return true;
}

export interface ExpiryView {
  text: string;
  expired: boolean;
}

/**
 * The acceptance expiry of a recipient-enters-details item still awaiting its recipient (an ordered
 * row), flagged once it has passed unaccepted: by the engine's clock when it answered, or by now.
 */
export function expiryView(row: Pick<RowDto, 'acceptanceExpiry' | 'acceptanceExpired' | 'state'>, now: number): ExpiryView | null {
  if (row.acceptanceExpiry === null || row.state !== 'ordered') return null;
  const expired = row.acceptanceExpired || isAcceptanceExpired(row, now);
  return expired
    ? { text: `Link expired ${formatRelative(row.acceptanceExpiry, now)}`, expired: true }
    : { text: `Awaiting recipient, link expires ${formatRelative(row.acceptanceExpiry, now)}`, expired: false };
}

export interface FlagView {
  /** 'mismatch': the service issued something other than the row asked; 'unreadable': a value could not be read. */
  kind: 'mismatch' | 'unreadable';
  /** The differences in words, each naming what was asked and what the service stated. */
  text: string;
  /** Every finding with both values, for the tooltip and screen readers. */
  detail: string;
  /** Whether what was issued differs from the row's amount (then the amount cell shows both). */
  issuedDiffers: boolean;
}

const sentence = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** What checking the service's answer against the row found, as the rows table flags it; null when nothing. */
export function flagView(row: Pick<RowDto, 'findings'>): FlagView | null {
  if (row.findings.length === 0) return null;
  const mismatches = row.findings.filter((f) => f.kind === 'mismatch');
  const shown = mismatches.length > 0 ? mismatches : row.findings;
  return {
    kind: mismatches.length > 0 ? 'mismatch' : 'unreadable',
    text: `${shown.map((f) => sentence(f.message)).join('. ')}.`,
    detail: row.findings
      .map((f) => `${sentence(f.message)} (${f.asked !== undefined ? `asked ${f.asked}, ` : ''}the service stated ${f.stated}).`)
      .join(' '),
    issuedDiffers: mismatches.some((f) => f.field === 'amount' || f.field === 'currency'),
  };
}
