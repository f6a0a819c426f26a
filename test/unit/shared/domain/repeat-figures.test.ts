// The rule that leaves a valid row out at import (repeatSkipOf), and the figures the import step
// shows for each choice (toSendUnderChoices), which count with that same rule.
import { describe, expect, it } from 'vitest';
import { figureFor, toSendUnderChoices, type FigureRow } from '../../../../shared/domain/repeat-figures.ts';
import { DEFAULT_REPEAT_CHOICES, EVERY_REPEAT_CHOICE, repeatSkipOf, type RepeatChoices } from '../../../../shared/domain/skips.ts';

const choices = (inCampaign: 'skip' | 'send', earlier: 'skip' | 'send'): RepeatChoices => ({ inCampaign, earlier });
const usd = (minor: number) => ({ currency: 'USD', minor });

describe('repeatSkipOf', () => {
  const plain = { repeatOf: null, earlierRecipient: false };
  const repeat = { repeatOf: 2, earlierRecipient: false };
  const earlier = { repeatOf: null, earlierRecipient: true };
  const both = { repeatOf: 2, earlierRecipient: true };

  it('keeps a row that repeats nothing, whatever is chosen', () => {
    for (const c of EVERY_REPEAT_CHOICE) expect(repeatSkipOf(plain, c)).toBeNull();
  });

  it('skips a repeat of an earlier line unless one gift per row is chosen', () => {
    expect(repeatSkipOf(repeat, choices('skip', 'skip'))).toBe('repeat-in-campaign');
    expect(repeatSkipOf(repeat, choices('skip', 'send'))).toBe('repeat-in-campaign');
    expect(repeatSkipOf(repeat, choices('send', 'skip'))).toBeNull();
    expect(repeatSkipOf(repeat, choices('send', 'send'))).toBeNull();
  });

  it('skips an earlier recipient unless sending to earlier recipients is chosen', () => {
    expect(repeatSkipOf(earlier, choices('skip', 'skip'))).toBe('earlier-campaign');
    expect(repeatSkipOf(earlier, choices('send', 'skip'))).toBe('earlier-campaign');
    expect(repeatSkipOf(earlier, choices('skip', 'send'))).toBeNull();
    expect(repeatSkipOf(earlier, choices('send', 'send'))).toBeNull();
  });

  it('keeps a row that is both only when both are chosen, and names the repeat first', () => {
    expect(repeatSkipOf(both, choices('skip', 'skip'))).toBe('repeat-in-campaign');
    expect(repeatSkipOf(both, choices('skip', 'send'))).toBe('repeat-in-campaign');
    expect(repeatSkipOf(both, choices('send', 'skip'))).toBe('earlier-campaign');
    expect(repeatSkipOf(both, choices('send', 'send'))).toBeNull();
  });

  it('lists the four combinations once each, the default first', () => {
    expect(EVERY_REPEAT_CHOICE[0]).toEqual(DEFAULT_REPEAT_CHOICES);
    expect(new Set(EVERY_REPEAT_CHOICE.map((c) => `${c.inCampaign}/${c.earlier}`)).size).toBe(4);
  });
});

describe('toSendUnderChoices', () => {
  const row = (over: Partial<FigureRow>): FigureRow => ({ repeatOf: null, earlierRecipient: false, errors: [], amount: usd(2500), productId: 1, ...over });
  const rows: FigureRow[] = [
    row({}), // kept always
    row({ productId: 2, amount: usd(5000) }), // kept always, another product
    row({ repeatOf: 2, productId: 2, amount: usd(5000) }), // a repeat
    row({ earlierRecipient: true, amount: usd(1000) }), // an earlier recipient
    row({ repeatOf: 2, earlierRecipient: true, amount: { currency: 'EUR', minor: 700 } }), // both
    row({ repeatOf: 2, errors: ['bad e-mail'] }), // invalid: neither sent nor skipped by a policy
    row({ amount: null }), // no amount: counted as a row, adds no money
  ];

  it('counts, for each choice, the valid rows kept and left out, and what the kept ones cost per currency and product', () => {
    const figures = toSendUnderChoices(rows);
    expect(figures.map((f) => [f.repeats, f.rows, f.skipped])).toEqual([
      [choices('skip', 'skip'), 3, 3],
      [choices('send', 'skip'), 4, 2],
      [choices('skip', 'send'), 4, 2],
      [choices('send', 'send'), 6, 0],
    ]);
    expect(figureFor(figures, choices('skip', 'skip'))).toMatchObject({
      amounts: [usd(7500)],
      byProduct: [
        { productId: 1, rows: 2, amounts: [usd(2500)] },
        { productId: 2, rows: 1, amounts: [usd(5000)] },
      ],
    });
    expect(figureFor(figures, choices('send', 'send'))).toMatchObject({
      amounts: [{ currency: 'EUR', minor: 700 }, usd(13500)],
      byProduct: [
        { productId: 1, rows: 4, amounts: [{ currency: 'EUR', minor: 700 }, usd(3500)] },
        { productId: 2, rows: 2, amounts: [usd(10000)] },
      ],
    });
  });

  it('agrees row by row with the rule: a row is kept under a choice exactly when repeatSkipOf says null', () => {
    for (const figure of toSendUnderChoices(rows)) {
      const valid = rows.filter((r) => r.errors.length === 0);
      expect(figure.rows).toBe(valid.filter((r) => repeatSkipOf(r, figure.repeats) === null).length);
      expect(figure.rows + figure.skipped).toBe(valid.length);
    }
  });

  it('answers zeros for no rows, and null for a choice it was not asked about', () => {
    expect(toSendUnderChoices([])).toEqual(EVERY_REPEAT_CHOICE.map((repeats) => ({ repeats, rows: 0, skipped: 0, amounts: [], byProduct: [] })));
    expect(figureFor(toSendUnderChoices(rows, [DEFAULT_REPEAT_CHOICES]), choices('send', 'send'))).toBeNull();
  });
});
