// The delivery report's totals section, below its rows and a blank line. Every line's first cell
// starts with "TOTAL", so a reader that tells the rows from the totals by that word keeps working as
// lines are added; lines are only ever added after the ones before, which keep their words and places:
//   TOTAL ordered (N orders) / TOTAL charged — what the service issued and charged, per currency;
//   TOTAL <state> (N rows) — how many rows stand in each state, the window's words;
//   TOTAL <product> (N rows, M orders) — a campaign with a gift per row: each product's rows, the face
//     value of its orders (amount, currency) and what they were charged (charged_amount, charged_currency);
//   TOTALS from <environment> (<address>) — where the orders went, and for a test environment that no
//     real gift was sent.
import { exactTotals, isCurrencyCode, isPlainDecimal, toDecimal, type DecimalAmount } from '../../../shared/domain/money.ts';
import { plural } from '../../../shared/domain/plural.ts';
import type { RowState } from '../../../shared/domain/rows.ts';
import { neutralise, REPORT_COLUMNS, type ReportRow, type ReportSource } from './report-columns.ts';

type Column = (typeof REPORT_COLUMNS)[number];

function line(cells: Partial<Record<Column, string>>): string[] {
  return REPORT_COLUMNS.map((column) => cells[column] ?? '');
}

/** The totals section: see the top of this file. Without a source (a report of rows alone) it has no environment line and no subtotals per product. */
export function totalsRecords(rows: readonly ReportRow[], source: ReportSource | null = null): string[][] {
  return [...amountTotals(rows), ...stateCounts(rows), ...(source?.giftPerRow ? productSubtotals(rows) : []), ...(source ? [environmentLine(source)] : [])];
}

/** What the service issued per product currency, and what it charged per account currency. */
function amountTotals(rows: readonly ReportRow[]): string[][] {
  const record = (label: string, total: DecimalAmount) => line({ name: label, amount: total.amount, currency: total.currency });
  const ordered = rows.filter((r) => r.orderId != null);
  const orderedLabel = `TOTAL ordered (${ordered.length} orders)`;
  const records: string[][] = [];
  const orderedTotals = exactTotals(ordered.flatMap((r) => faceValueOf(r) ?? []));
  for (const total of orderedTotals) records.push(record(orderedLabel, total));
  const chargedTotals = exactTotals(rows.flatMap((r) => (r.charged ? [r.charged] : [])));
  for (const total of chargedTotals) records.push(record('TOTAL charged', total));
  // Nothing ordered (or charged) still says so, in the rows' own currencies: finance reads a zero,
  // not a report that seems cut short. A charge's currency is the account's, unknown until one.
  if (orderedTotals.length === 0) for (const zero of zerosIn(rows)) records.push(record(orderedLabel, zero));
  if (chargedTotals.length === 0) records.push(record('TOTAL charged', { currency: '', amount: '0' }));
  return records;
}

/** A zero in each currency the rows' amounts are in; a bare '0' when none has an amount. */
function zerosIn(rows: readonly ReportRow[]): DecimalAmount[] {
  const currencies = [...new Set(rows.flatMap((r) => (r.amount ? [r.amount.currency] : [])))].sort();
  return currencies.length === 0 ? [{ currency: '', amount: '0' }] : currencies.map((currency) => ({ currency, amount: toDecimal({ minor: 0, currency }) }));
}

/** Each state as the window names it (its rows' filters and labels); the row's own `state` word after it where they differ. */
const STATE_LINES: readonly { readonly state: RowState; readonly label: string }[] = [
  { state: 'delivered', label: 'delivered' },
  { state: 'ordered', label: 'awaiting delivery' },
  { state: 'ready', label: 'not sent yet' },
  { state: 'sending', label: 'sending' },
  { state: 'failed', label: 'failed' },
  { state: 'cancelled', label: 'cancelled' },
  { state: 'invalid', label: 'needs fixing' },
  { state: 'skipped', label: 'skipped' },
];

/** How many rows stand in each state: every state, its zero too, so the lines are the same in every report and add up to its rows. */
function stateCounts(rows: readonly ReportRow[]): string[][] {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.state, (counts.get(r.state) ?? 0) + 1);
  return STATE_LINES.map(({ state, label }) => {
    const n = counts.get(state) ?? 0;
    return line({ name: `TOTAL ${label} (${plural(n, 'row')}${label === state ? '' : `, state ${state}`})` });
  });
}

/** Per product a row is ordered as (in the order the rows first name it): its rows and orders, their face value as issued, and what they were charged. */
function productSubtotals(rows: readonly ReportRow[]): string[][] {
  const products = new Map<number, ReportRow[]>();
  for (const r of rows) if (r.productId != null) products.set(r.productId, [...(products.get(r.productId) ?? []), r]);
  return [...products.entries()].flatMap(([productId, its]) => {
    const ordered = its.filter((r) => r.orderId != null);
    const name = its.find((r) => r.productName)?.productName ?? null;
    const label = neutralise(`TOTAL ${name ?? `product ${productId}`} (${plural(its.length, 'row')}, ${plural(ordered.length, 'order')})`);
    const faceValues = exactTotals(ordered.flatMap((r) => faceValueOf(r) ?? []));
    const charged = exactTotals(its.flatMap((r) => (r.charged ? [r.charged] : [])));
    const face = faceValues.length > 0 ? faceValues : zerosIn(its);
    const paid = charged.length > 0 ? charged : [{ currency: '', amount: '0' }];
    // One line a currency; a product's gifts are in one currency and charged in the account's, so almost always one.
    return Array.from({ length: Math.max(face.length, paid.length) }, (_, i) =>
      line({
        name: label,
        amount: face[i]?.amount ?? '',
        currency: face[i]?.currency ?? '',
        charged_amount: paid[i]?.amount ?? '',
        charged_currency: paid[i]?.currency ?? '',
        product_id: String(productId),
        product_name: neutralise(name),
      }),
    );
  });
}

/** connections.ts's EMBEDDED_SIMULATOR_URL (not imported: it would load the simulator into the worker that writes reports); a test holds them equal. */
const EMBEDDED_SIMULATOR_URL = 'simulator://embedded';

const ENVIRONMENT_NAMES: Readonly<Record<ReportSource['environment'], string>> = { simulator: 'Simulator', sandbox: 'Sandbox', production: 'Production' };

/** Where the campaign's orders went, and plainly, for a Simulator or Sandbox campaign, that no real gift was sent. */
function environmentLine(source: ReportSource): string[] {
  const address = source.baseUrl === EMBEDDED_SIMULATOR_URL ? 'built into the app' : source.baseUrl || 'no address recorded';
  const where = `TOTALS from ${ENVIRONMENT_NAMES[source.environment]} (${address})`;
  const what =
    source.environment === 'production'
      ? 'orders here are real gifts, charged to the account'
      : source.environment === 'simulator'
        ? 'TEST ONLY, no real gift was sent and no money was charged'
        : "TEST ONLY, no real gift was sent: the service's test environment";
  return line({ name: neutralise(`${where}: ${what}`) });
}

/**
 * An order's face value as the service stated it (the item's price); the row's own amount only for
 * orders recorded before the service's word was kept, or when its price is not an amount in a
 * currency we know (the row is flagged, and the report's issued columns show what it said).
 */
export function faceValueOf(row: Pick<ReportRow, 'issued' | 'amount'>): DecimalAmount | null {
  const issued = row.issued;
  if (issued && isCurrencyCode(issued.currency.toUpperCase()) && isPlainDecimal(issued.text)) return { currency: issued.currency.toUpperCase(), amount: issued.text };
  return row.amount ? { currency: row.amount.currency, amount: toDecimal(row.amount) } : null;
}
