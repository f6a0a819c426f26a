// The repeated-recipients hints count what each box adds to the send: the preview's per-choice
// figures (toSendUnderChoices, the same rule the import stores) with the box ticked, less without it,
// the other box as chosen. Invalid rows are never sent, so they are never counted, repeated or not.
import { describe, expect, it } from 'vitest';
import { repeatHint, rowsAddedBy } from '../../../../renderer/src/features/new-campaign/repeat-hints.ts';
import { toSendUnderChoices, type FigureRow } from '../../../../shared/domain/repeat-figures.ts';
import { EVERY_REPEAT_CHOICE, type RepeatChoices } from '../../../../shared/domain/skips.ts';

const choices = (inCampaign: 'skip' | 'send', earlier: 'skip' | 'send'): RepeatChoices => ({ inCampaign, earlier });
const row = (over: Partial<FigureRow> = {}): FigureRow => ({ repeatOf: null, earlierRecipient: false, errors: [], amount: { currency: 'USD', minor: 2500 }, productId: 1, ...over });
const figuresOf = (rows: FigureRow[]) => toSendUnderChoices(rows);

describe('rowsAddedBy', () => {
  it('does not count an invalid repeated row, nor an invalid earlier recipient', () => {
    const figures = figuresOf([
      row(),
      row({ repeatOf: 2 }), // a valid repeat
      row({ repeatOf: 2, errors: ['Line 4: the e-mail has no domain'] }), // an invalid repeat
      row({ earlierRecipient: true, errors: ['Line 5: no amount'] }), // an invalid earlier recipient
    ]);
    expect(rowsAddedBy(figures, choices('skip', 'skip'), 'inCampaign')).toBe(1);
    expect(rowsAddedBy(figures, choices('send', 'skip'), 'inCampaign')).toBe(1);
    expect(rowsAddedBy(figures, choices('skip', 'skip'), 'earlier')).toBe(0);
    expect(repeatHint(figures, choices('skip', 'skip'), 'inCampaign')).toBe(
      'Ticking this adds 1 row to the send: a valid row whose address repeats an earlier line, left out now (one gift per person).',
    );
    expect(repeatHint(figures, choices('skip', 'skip'), 'earlier')).toBe('Adds no row to the send: no valid row is for someone who has a gift from an earlier campaign here.');
  });

  it('counts a row that both repeats and had a gift before only where ticking the box sends it (both ticked)', () => {
    const both = row({ repeatOf: 2, earlierRecipient: true });
    const figures = figuresOf([row(), row({ repeatOf: 2 }), row({ earlierRecipient: true }), both]);
    expect(rowsAddedBy(figures, choices('skip', 'skip'), 'inCampaign')).toBe(1); // the plain repeat
    expect(rowsAddedBy(figures, choices('skip', 'send'), 'inCampaign')).toBe(2); // and the one that is both
    expect(rowsAddedBy(figures, choices('skip', 'skip'), 'earlier')).toBe(1); // the plain earlier recipient
    expect(rowsAddedBy(figures, choices('send', 'skip'), 'earlier')).toBe(2);
  });

  it('is, for every choice and box, the difference of the figures the import step shows', () => {
    const rows = [row(), row({ repeatOf: 2 }), row({ repeatOf: 2 }), row({ earlierRecipient: true }), row({ repeatOf: 3, earlierRecipient: true }), row({ repeatOf: 2, errors: ['x'] })];
    const figures = figuresOf(rows);
    const kept = (c: RepeatChoices) => figures.find((f) => f.repeats.inCampaign === c.inCampaign && f.repeats.earlier === c.earlier)?.rows ?? Number.NaN;
    for (const c of EVERY_REPEAT_CHOICE) {
      expect(rowsAddedBy(figures, c, 'inCampaign')).toBe(kept({ ...c, inCampaign: 'send' }) - kept({ ...c, inCampaign: 'skip' }));
      expect(rowsAddedBy(figures, c, 'earlier')).toBe(kept({ ...c, earlier: 'send' }) - kept({ ...c, earlier: 'skip' }));
    }
  });

  it('is null when the figures lack the choice (the hint then gives no number)', () => {
    const only = toSendUnderChoices([row({ repeatOf: 2 })], [choices('skip', 'skip')]);
    expect(rowsAddedBy(only, choices('skip', 'skip'), 'inCampaign')).toBeNull();
    expect(repeatHint(only, choices('skip', 'skip'), 'inCampaign')).toBe('Rows whose address repeats an earlier line are left out unless this is ticked.');
    expect(repeatHint(only, choices('skip', 'skip'), 'earlier')).toBe('Rows for people who have a gift from an earlier campaign are left out unless this is ticked.');
  });
});

describe('repeatHint', () => {
  it('says what ticking a box adds, and once ticked what it added', () => {
    const figures = figuresOf([row(), row({ repeatOf: 2 }), row({ repeatOf: 2 }), row({ earlierRecipient: true })]);
    expect(repeatHint(figures, choices('skip', 'skip'), 'inCampaign')).toBe(
      'Ticking this adds 2 rows to the send: valid rows whose address repeats an earlier line, left out now (one gift per person).',
    );
    expect(repeatHint(figures, choices('send', 'skip'), 'inCampaign')).toBe('Adds 2 rows to the send: valid rows whose address repeats an earlier line, each with its own gift.');
    expect(repeatHint(figures, choices('skip', 'skip'), 'earlier')).toBe(
      'Ticking this adds 1 row to the send: a valid row for someone who has a gift from an earlier campaign, left out now and listed in the draft.',
    );
    expect(repeatHint(figures, choices('skip', 'send'), 'earlier')).toBe(
      'Adds 1 row to the send: a valid row for someone who has a gift from an earlier campaign; the confirmation asks again before a second gift is sent.',
    );
  });

  it('says when a box adds rows only with the other ticked too', () => {
    // Everyone had a gift before; two lines repeat an earlier one (the third import of a list).
    const figures = figuresOf([row({ earlierRecipient: true }), row({ earlierRecipient: true }), row({ repeatOf: 2, earlierRecipient: true }), row({ repeatOf: 3, earlierRecipient: true })]);
    expect(repeatHint(figures, choices('skip', 'skip'), 'inCampaign')).toBe(
      'Adds no row to the send on its own: the valid rows that repeat an earlier line are for people who have a gift from an earlier campaign. With the box below ticked too, it adds 2 rows.',
    );
    expect(repeatHint(figures, choices('skip', 'skip'), 'earlier')).toBe(
      'Ticking this adds 2 rows to the send: valid rows for people who have a gift from an earlier campaign, left out now and listed in the draft.',
    );
    expect(repeatHint(figures, choices('skip', 'send'), 'inCampaign')).toBe(
      'Ticking this adds 2 rows to the send: valid rows whose address repeats an earlier line, left out now (one gift per person).',
    );
    // An earlier recipient whose first line is invalid: its valid repeat is added only with both ticked.
    const onlyRepeats = figuresOf([row({ earlierRecipient: true, errors: ['x'] }), row({ repeatOf: 2, earlierRecipient: true })]);
    expect(repeatHint(onlyRepeats, choices('skip', 'skip'), 'earlier')).toBe(
      'Adds no row to the send on its own: the valid rows for people who have a gift from an earlier campaign repeat an earlier line. With the box above ticked too, it adds 1 row.',
    );
  });

  it('says a box adds nothing when no valid row is of its kind', () => {
    const figures = figuresOf([row(), row()]);
    for (const c of EVERY_REPEAT_CHOICE) {
      expect(repeatHint(figures, c, 'inCampaign')).toBe('Adds no row to the send: no valid row repeats an address of an earlier line.');
      expect(repeatHint(figures, c, 'earlier')).toBe('Adds no row to the send: no valid row is for someone who has a gift from an earlier campaign here.');
    }
  });

  it('writes large counts with separators', () => {
    const figures = figuresOf(Array.from({ length: 1235 }, (_, i) => row({ repeatOf: i === 0 ? null : 2 })));
    expect(repeatHint(figures, choices('skip', 'skip'), 'inCampaign')).toMatch(/^Ticking this adds 1,234 rows to the send/);
  });
});
