// What a checked file would send once stored, under each choice for repeated recipients: the
// valid rows the import keeps (shared/domain/skips.ts repeatSkipOf, the rule the importer stores),
// how many it leaves out, and the face value per currency and per product. Four small answers for
// any file, so the import step shows the figure for whichever boxes are ticked without asking again.
import { totalsByCurrency, type Money } from './money.ts';
import { EVERY_REPEAT_CHOICE, repeatSkipOf, sameRepeatChoices, type RepeatChoices, type RepeatFacts } from './skips.ts';

/** A row as these figures need it: valid or not, its address facts, its amount and product. */
export interface FigureRow extends RepeatFacts {
  readonly errors: readonly unknown[];
  readonly amount: Money | null;
  readonly productId: number;
}

export interface ProductFigure {
  readonly productId: number;
  readonly rows: number;
  readonly amounts: readonly Money[];
}

export interface ToSendFigure {
  readonly repeats: RepeatChoices;
  /** Valid rows the draft keeps to send. */
  readonly rows: number;
  /** Valid rows a repeat policy leaves out (stored skipped). */
  readonly skipped: number;
  /** The kept rows' face value per currency. */
  readonly amounts: readonly Money[];
  /** The kept rows per product (a gift per row), in the order first seen, each with its face value per currency. */
  readonly byProduct: readonly ProductFigure[];
}

interface Tally {
  readonly repeats: RepeatChoices;
  rows: number;
  skipped: number;
  readonly sums: Map<string, number>;
  readonly products: Map<number, { rows: number; sums: Map<string, number> }>;
}

const add = (sums: Map<string, number>, amount: Money | null): void => {
  if (amount) sums.set(amount.currency, (sums.get(amount.currency) ?? 0) + amount.minor);
};
const moneyOf = (sums: Map<string, number>): Money[] => totalsByCurrency([...sums].map(([currency, minor]) => ({ currency, minor })));

/** The figures under each of `choices` (every combination unless told), in their order; one pass over the rows. */
export function toSendUnderChoices(rows: Iterable<FigureRow>, choices: readonly RepeatChoices[] = EVERY_REPEAT_CHOICE): ToSendFigure[] {
  const tallies: Tally[] = choices.map((repeats) => ({ repeats, rows: 0, skipped: 0, sums: new Map(), products: new Map() }));
  for (const row of rows) {
    if (row.errors.length > 0) continue;
    for (const t of tallies) {
      if (repeatSkipOf(row, t.repeats) !== null) {
        t.skipped += 1;
        continue;
      }
      t.rows += 1;
      add(t.sums, row.amount);
      let product = t.products.get(row.productId);
      if (!product) t.products.set(row.productId, (product = { rows: 0, sums: new Map() }));
      product.rows += 1;
      add(product.sums, row.amount);
    }
  }
  return tallies.map((t) => ({
    repeats: t.repeats,
    rows: t.rows,
    skipped: t.skipped,
    amounts: moneyOf(t.sums),
    byProduct: [...t.products].map(([productId, p]) => ({ productId, rows: p.rows, amounts: moneyOf(p.sums) })),
  }));
}

/** The figure for `choices` among those `toSendUnderChoices` gave (every combination is there unless it was told fewer). */
export function figureFor<F extends { readonly repeats: RepeatChoices }>(figures: readonly F[], choices: RepeatChoices): F | null {
  return figures.find((f) => sameRepeatChoices(f.repeats, choices)) ?? null;
}
