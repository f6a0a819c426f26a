// The draft table (the wizard's review and a sent campaign's "Rows to fix" panel) fits beside the
// cost box at 1280 px wide, a gift column included, so each row's Edit and Skip stay in view: the
// rows clip what overflows (.grid-row { overflow: hidden }), and Skip was cut off at 1280.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const css = readFileSync(fileURLToPath(new URL('../../../../renderer/src/styles/app.css', import.meta.url)), 'utf8');
const REM = 16;

/** The first rule for `selector` (after `from`, e.g. a media query's opening): its declarations. */
function rule(selector: string, from = 0): string {
  const at = css.indexOf(`${selector} {`, from);
  if (at < 0) throw new Error(`no rule ${selector}`);
  return css.slice(at, css.indexOf('}', at));
}

/** A grid's columns as written: each a fixed rem, or minmax(min rem, share fr). */
function columnsOf(selector: string, from = 0): Array<{ min: number; fr: number }> {
  const template = /grid-template-columns: ([^;]+);/.exec(rule(selector, from))?.[1] ?? '';
  return (template.match(/minmax\([^)]*\)|[^\s]+/g) ?? []).map((c) => {
    if (!c.startsWith('minmax(')) return { min: rem(c), fr: 0 };
    const [min, fr] = c.slice(7, -1).split(',');
    return { min: rem(min ?? ''), fr: Number(/([\d.]+)fr/.exec(fr ?? '')?.[1] ?? 0) };
  });
}

function rem(value: string): number {
  const m = /^([\d.]+)rem$/.exec(value.trim());
  if (!m) throw new Error(`not a rem length: ${value}`);
  return Number(m[1]);
}

/** The narrowest a row of this grid can be, in px: each column's fixed or minimum width, the gaps, the row's padding (0.75rem each side). */
function narrowest(selector: string, gapSelector = selector, from = 0): number {
  const columns = columnsOf(selector, from);
  const gap = rem(/gap: ([^;]+);/.exec(rule(gapSelector, from))?.[1] ?? '0rem');
  return (columns.reduce((a, c) => a + c.min, 0) + gap * (columns.length - 1) + 2 * 0.75) * REM;
}

// 1280 wide, less a 15 px scrollbar, the page's padding (1.25rem each side), the panel card's padding
// and border (1rem + 1px each side), the cost box beside it (19rem) and the gap (1rem), the table's border.
const AT_1280 = 1280 - 15 - 2 * 20 - 2 * 17 - 19 * REM - REM - 2;
// Up to 1100 wide the cost box goes under the table: at 1024 the table has the panel's whole width.
const AT_1024 = 1024 - 15 - 2 * 20 - 2 * 17 - 2;

describe('the draft table’s columns', () => {
  it('fit the Fix panel beside its cost box at 1280 wide', () => {
    expect(narrowest('.draft-table .grid-row')).toBeLessThanOrEqual(AT_1280);
  });

  it('fit it with a gift column too, at 1280 and at 1024 wide', () => {
    const products = narrowest('.draft-table.draft-table-products .grid-row', '.draft-table .grid-row');
    expect(products).toBeLessThanOrEqual(AT_1280);
    expect(products).toBeLessThanOrEqual(AT_1024);
  });

  it('give the E-mail column at least the Message column’s room, with or without a gift column', () => {
    // Line, Name, E-mail, …: the e-mail is the third column; the Message is the fourth from the end.
    for (const selector of ['.draft-table .grid-row', '.draft-table.draft-table-products .grid-row']) {
      const columns = columnsOf(selector);
      const email = columns[2];
      const message = columns[columns.length - 3];
      expect(email?.fr, selector).toBeGreaterThanOrEqual(message?.fr ?? Infinity);
      expect(email?.min, selector).toBeGreaterThanOrEqual(message?.min ?? Infinity);
    }
  });
});

// A campaign's rows (the Recipients table) at 1024 wide: the page's width less a scrollbar, the
// page's padding and the table's border; no card around it.
const CAMPAIGN_AT_1024 = 1024 - 15 - 2 * 20 - 2;
const NARROW = css.indexOf('@media (max-width: 1100px)');

describe('the campaign’s rows table at 1024 wide', () => {
  it('fits, a gift column included, so Details (a problem row’s reason) is not cut at the right edge', () => {
    expect(NARROW).toBeGreaterThan(0);
    expect(narrowest('.rows-table .grid-row', '.rows-table .grid-row', NARROW)).toBeLessThanOrEqual(CAMPAIGN_AT_1024);
    expect(narrowest('.rows-table.rows-table-products .grid-row', '.rows-table .grid-row', NARROW)).toBeLessThanOrEqual(CAMPAIGN_AT_1024);
  });

  it('gives Details the widest share: Order, Item and Charged are often "—" on the rows that need it', () => {
    for (const selector of ['.rows-table .grid-row', '.rows-table.rows-table-products .grid-row']) {
      const columns = columnsOf(selector, NARROW);
      const details = columns[columns.length - 1];
      expect(details?.min, selector).toBeGreaterThanOrEqual(10);
      expect(details?.fr, selector).toBe(Math.max(...columns.map((c) => c.fr)));
    }
  });
});
