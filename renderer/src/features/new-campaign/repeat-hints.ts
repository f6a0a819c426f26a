// What each repeated-recipients box adds to the send, in rows and in words: the difference between
// the preview's exact figures (totals.toSend: the valid rows the draft keeps under each choice,
// counted with shared/domain/skips.ts repeatSkipOf) with that box ticked and without it, the other
// box as chosen. No counting of its own: an invalid row, never sent, is never in those figures.
import { plural } from '../../../../shared/domain/plural.ts';
import { figureFor } from '../../../../shared/domain/repeat-figures.ts';
import type { RepeatChoices } from '../../../../shared/domain/skips.ts';

/** The preview's per-choice figures, as much of them as the hints need. */
export type ChoiceFigures = readonly { readonly repeats: RepeatChoices; readonly rows: number }[];

export type RepeatKind = keyof RepeatChoices;

const OTHER: Readonly<Record<RepeatKind, RepeatKind>> = { inCampaign: 'earlier', earlier: 'inCampaign' };

/**
 * How many rows ticking `kind`'s box adds to the send, the other box as in `choices`: the rows the
 * draft keeps with it ticked, less those without. Null when the figures lack either choice.
 */
export function rowsAddedBy(figures: ChoiceFigures, choices: RepeatChoices, kind: RepeatKind): number | null {
  const ticked = figureFor(figures, { ...choices, [kind]: 'send' });
  const unticked = figureFor(figures, { ...choices, [kind]: 'skip' });
  return ticked && unticked ? ticked.rows - unticked.rows : null;
}

/** The hint under `kind`'s box: how many rows ticking it adds to the send (what it adds once ticked), and what becomes of them. */
export function repeatHint(figures: ChoiceFigures, choices: RepeatChoices, kind: RepeatKind): string {
  const added = rowsAddedBy(figures, choices, kind);
  const ticked = choices[kind] === 'send';
  const other = OTHER[kind];
  // A row that both repeats an earlier line and had a gift before is added only with both boxes ticked.
  const withOther = choices[other] === 'skip' ? rowsAddedBy(figures, { ...choices, [other]: 'send' }, kind) : null;
  if (kind === 'inCampaign') {
    if (added === null) return 'Rows whose address repeats an earlier line are left out unless this is ticked.';
    if (added > 0) {
      const which = added === 1 ? 'a valid row whose address repeats an earlier line' : 'valid rows whose address repeats an earlier line';
      return ticked ? `Adds ${plural(added, 'row')} to the send: ${which}, each with its own gift.` : `Ticking this adds ${plural(added, 'row')} to the send: ${which}, left out now (one gift per person).`;
    }
    if (withOther !== null && withOther > 0) {
      return `Adds no row to the send on its own: the valid rows that repeat an earlier line are for people who have a gift from an earlier campaign. With the box below ticked too, it adds ${plural(withOther, 'row')}.`;
    }
    return 'Adds no row to the send: no valid row repeats an address of an earlier line.';
  }
  if (added === null) return 'Rows for people who have a gift from an earlier campaign are left out unless this is ticked.';
  if (added > 0) {
    const which = added === 1 ? 'a valid row for someone who has a gift from an earlier campaign' : 'valid rows for people who have a gift from an earlier campaign';
    return ticked
      ? `Adds ${plural(added, 'row')} to the send: ${which}; the confirmation asks again before a second gift is sent.`
      : `Ticking this adds ${plural(added, 'row')} to the send: ${which}, left out now and listed in the draft.`;
  }
  if (withOther !== null && withOther > 0) {
    return `Adds no row to the send on its own: the valid rows for people who have a gift from an earlier campaign repeat an earlier line. With the box above ticked too, it adds ${plural(withOther, 'row')}.`;
  }
  return 'Adds no row to the send: no valid row is for someone who has a gift from an earlier campaign here.';
}
