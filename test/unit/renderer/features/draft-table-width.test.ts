// The draft table (the wizard's review and a sent campaign's "Rows to fix" panel) fits beside the
// cost box at 1280 px wide, a gift column included, so each row's Edit and Skip stay in view: the
// rows clip what overflows (.grid-row { overflow: hidden }), and Skip was cut off at 1280.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const css = readFileSync(fileURLToPath(new URL('../../../../renderer/src/styles/app.css', import.meta.url)), 'utf8');
const REM = 16;

/** The first rule for `selector` outside any media query: its declarations. */
function rule(selector: string): string {
  const at = css.indexOf(`${selector} {`);
  if (at < 0) throw new Error(`no rule ${selector}`);
  return css.slice(at, css.indexOf('}', at));
}

function rem(value: string): number {
  const m = /^([\d.]+)rem$/.exec(value.trim());
  if (!m) throw new Error(`not a rem length: ${value}`);
  return Number(m[1]);
}

/** The narrowest a row of this grid can be, in px: each column's fixed or minimum width, the gaps, the row's padding (0.75rem each side). */
function narrowest(selector: string, gapSelector = selector): number {
  const template = /grid-template-columns: ([^;]+);/.exec(rule(selector))?.[1] ?? '';
  const columns = template.match(/minmax\([^)]*\)|[^\s]+/g) ?? [];
  const widths = columns.map((c) => (c.startsWith('minmax(') ? rem(c.slice(7).split(',')[0] ?? '') : rem(c)));
  const gap = rem(/gap: ([^;]+);/.exec(rule(gapSelector))?.[1] ?? '0rem');
  return (widths.reduce((a, b) => a + b, 0) + gap * (columns.length - 1) + 2 * 0.75) * REM;
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
});
