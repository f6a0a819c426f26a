// What the import step says while the draft is being saved (the engine's `campaigns:createProgress`):
// the file being checked, then how many of its rows are stored, and how far the bar is filled.
import { plural } from '../../../../shared/domain/plural.ts';
import { groupDigits } from '../../lib/money-display.ts';
import type { CreateProgress } from '../../stores/wizard-store.ts';

const count = (n: number): string => groupDigits(String(n));

/** The line under "Saving the draft…": null before the engine said anything. */
export function saveProgressText(progress: CreateProgress | null): string | null {
  if (!progress) return null;
  if (progress.phase === 'checking' || progress.total === null) return 'Checking the file…';
  return `${count(progress.stored)} of ${plural(progress.total, 'row')} saved`;
}

/** 0..1 of the bar: nothing while the file is checked. */
export function saveProgressScale(progress: CreateProgress | null): number {
  if (!progress || progress.phase === 'checking' || progress.total === null || progress.total <= 0) return 0;
  return Math.min(1, Math.max(0, progress.stored / progress.total));
}
