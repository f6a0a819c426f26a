// The delivery report handed to finance: one row per recipient, then totals per currency.
// UTF-8 with BOM so Excel opens it right; text cells that a spreadsheet would run as a formula are
// neutralised (OWASP CSV injection); written to a temporary file and renamed, so a crash never
// leaves half a report.
import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Papa from 'papaparse';
import { crashPoint } from '../crash-points.ts';
import type { Money } from '../../../shared/domain/money.ts';
import { skipCauseOf, skippedBecause, type SkipPolicy } from '../../../shared/domain/skips.ts';
import { exactAmount, exactTotals, isCurrencyCode, isPlainDecimal, toDecimal, type DecimalAmount } from '../../../shared/domain/money.ts';
import type { Db } from '../db/open.ts';
import type { Issue } from '../db/parse.ts';
import { listCampaignRows, type Recipient } from '../db/repos/recipients.ts';
import { campaignProducts, getCampaign, productIdOf, type ProductSnapshot } from '../db/repos/campaigns.ts';

export interface ReportRow {
  name: string | null;
  email: string | null;
  amount: Money | null;
  state: string;
  orderId: number | null;
  orderStatus: string | null;
  itemId: number | null;
  itemStatus: string | null;
  /** What the service charged, exactly as it stated it. */
  charged: DecimalAmount | null;
  /** What the service says it issued (the item's price), as received. */
  issued: { text: string; currency: string } | null;
  /** Each difference from what the row asked, and each value we could not read, as sentences. */
  findings: readonly string[];
  exchangeRate: string | null;
  feeRate: string | null;
  externalReferenceId: string;
  sentAt: number | null;
  deliveredAt: number | null;
  acceptanceExpiry: number | null;
  /** What went wrong, or why the row was not sent (its validation errors, who skipped it, the service's refusal): see whyNotSent. */
  lastError: string | null;
  line: number;
  /** The product it is ordered as (its own gift, else the campaign's), and that product's name as checked. */
  productId: number | null;
  productName: string | null;
}

export const REPORT_COLUMNS = [
  'name',
  'email',
  'amount',
  'currency',
  'state',
  'order_id',
  'order_status',
  'item_id',
  'item_status',
  'charged_amount',
  'charged_currency',
  'exchange_rate',
  'fee_rate',
  'external_reference_id',
  'sent_at',
  'delivered_at',
  'acceptance_expiry',
  'last_error',
  'source_line',
  // Added by schema 4 (issue 9); appended so the columns before keep their places.
  'issued_amount',
  'issued_currency',
  'discrepancy',
  // Added by schema 7 (issue 13, a gift per row): the product each row is ordered as.
  'product_id',
  'product_name',
] as const;

const BOM = '\uFEFF';

/**
 * OWASP: a cell starting with = + - @ tab CR or LF may run as a formula; prefix it with a quote so
 * the spreadsheet shows it as text. Spaces before the = + - @ count as nothing (a spreadsheet that
 * trims cells on import would see the formula). Only for text we did not produce (names, e-mails,
 * messages, the service's words).
 */
export function neutralise(text: string | null): string {
  if (text == null) return '';
  // A spreadsheet that splits the cell on `,` or `;` (Excel in a `;` locale, de-DE) would run each
  // piece that starts a formula: each such piece is neutralised too (and the cell is quoted).
  const pieces = text.replace(PIECE_FORMULA_START, "$1'$2");
  return FORMULA_START.test(pieces) ? `'${pieces}` : pieces;
}

const FORMULA_START = /^\s*[=+\-@]|^[\t\r\n]/;
const PIECE_FORMULA_START = /([,;][ \t]*)([=+\-@])/g;
/** Cells a spreadsheet could split: always quoted, whatever the delimiter it assumes. */
const SPLITTABLE = /[,;]/;

const iso = (ms: number | null) => (ms == null ? '' : new Date(ms).toISOString());
const decimal = (m: Money | null) => (m ? toDecimal(m) : '');
const id = (n: number | null) => (n == null ? '' : String(n));

export function reportRecord(row: ReportRow): string[] {
  return [
    neutralise(row.name),
    neutralise(row.email),
    decimal(row.amount),
    row.amount?.currency ?? '',
    row.state,
    id(row.orderId),
    neutralise(row.orderStatus),
    id(row.itemId),
    neutralise(row.itemStatus),
    row.charged?.amount ?? '',
    row.charged?.currency ?? '',
    neutralise(row.exchangeRate),
    neutralise(row.feeRate),
    neutralise(row.externalReferenceId),
    iso(row.sentAt),
    iso(row.deliveredAt),
    iso(row.acceptanceExpiry),
    neutralise(row.lastError),
    String(row.line),
    neutralise(row.issued?.text ?? null),
    neutralise(row.issued?.currency ?? null),
    neutralise(row.findings.length > 0 ? row.findings.join('; ') : null),
    id(row.productId),
    neutralise(row.productName),
  ];
}

/** The totals block: what the service issued per product currency, and what it charged per account currency. */
export function totalsRecords(rows: readonly ReportRow[]): string[][] {
  const blank = REPORT_COLUMNS.map(() => '');
  const record = (label: string, total: DecimalAmount) => {
    const out = [...blank];
    out[0] = label;
    out[2] = total.amount;
    out[3] = total.currency;
    return out;
  };
  const ordered = rows.filter((r) => r.orderId != null);
  const orderedLabel = `TOTAL ordered (${ordered.length} orders)`;
  const records: string[][] = [];
  const orderedTotals = exactTotals(ordered.flatMap((r) => faceValueOf(r) ?? []));
  for (const total of orderedTotals) records.push(record(orderedLabel, total));
  const chargedTotals = exactTotals(rows.flatMap((r) => (r.charged ? [r.charged] : [])));
  for (const total of chargedTotals) records.push(record('TOTAL charged', total));
  // Nothing ordered (or charged) still says so, in the rows' own currencies: finance reads a zero,
  // not a report that seems cut short. A charge's currency is the account's, unknown until one.
  if (orderedTotals.length === 0) {
    const currencies = [...new Set(rows.flatMap((r) => (r.amount ? [r.amount.currency] : [])))].sort();
    if (currencies.length === 0) records.push(record(orderedLabel, { currency: '', amount: '0' }));
    for (const currency of currencies) records.push(record(orderedLabel, { currency, amount: toDecimal({ minor: 0, currency }) }));
  }
  if (chargedTotals.length === 0) records.push(record('TOTAL charged', { currency: '', amount: '0' }));
  return records;
}

/**
 * An order's face value as the service stated it (the item's price); the row's own amount only for
 * orders recorded before the service's word was kept, or when its price is not an amount in a
 * currency we know (the row is flagged, and the report's issued columns show what it said).
 */
function faceValueOf(row: ReportRow): DecimalAmount | null {
  const issued = row.issued;
  if (issued && isCurrencyCode(issued.currency.toUpperCase()) && isPlainDecimal(issued.text)) return { currency: issued.currency.toUpperCase(), amount: issued.text };
  return row.amount ? { currency: row.amount.currency, amount: toDecimal(row.amount) } : null;
}

export function renderReport(rows: readonly ReportRow[]): string {
  const data = [[...REPORT_COLUMNS], ...rows.map(reportRecord), [], ...totalsRecords(rows)];
  return BOM + Papa.unparse(data, { newline: '\r\n', quotes: (value: unknown) => typeof value === 'string' && SPLITTABLE.test(value) }) + '\r\n';
}

/** Writes beside the target, flushes, then renames over it: the report is whole or absent. */
export function writeFileAtomically(path: string, content: string | Uint8Array): void {
  const dir = dirname(path);
  const prefix = `.${basename(path)}.`;
  // A writer killed mid-write leaves its temporary file: clear those before writing anew.
  for (const name of readdirSync(dir)) if (name.startsWith(prefix) && name.endsWith('.tmp')) rmSync(join(dir, name), { force: true });
  const temp = join(dir, `${prefix}${process.pid}.tmp`);
  try {
    const fd = openSync(temp, 'w');
    try {
      const bytes = typeof content === 'string' ? Buffer.from(content) : content;
      const half = Math.floor(bytes.length / 2);
      writeSync(fd, bytes.subarray(0, half));
      crashPoint('mid-report');
      writeSync(fd, bytes.subarray(half));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** What the service charged for a row, exactly as it stated it (older rows: their minor units). */
export function chargedAmountOf(r: Pick<Recipient, 'chargedText' | 'charged'>): DecimalAmount | null {
  if (!r.charged) return null;
  return r.chargedText === null ? { currency: r.charged.currency, amount: toDecimal(r.charged) } : exactAmount(r.chargedText, r.charged.currency);
}

export function toReportRow(r: Recipient, product: { id: number; name: string | null } | null = null): ReportRow {
  return {
    name: r.name,
    email: r.email,
    amount: r.amountMinor != null && r.currency ? { minor: r.amountMinor, currency: r.currency } : null,
    state: r.state,
    orderId: r.orderId,
    orderStatus: r.orderStatus,
    itemId: r.itemId,
    itemStatus: r.itemStatus,
    charged: chargedAmountOf(r),
    issued: r.issued,
    findings: r.findings.map((f) => f.message),
    exchangeRate: r.exchangeRate?.rate ?? null,
    feeRate: r.feeRate,
    externalReferenceId: r.externalReferenceId,
    sentAt: r.sentAt,
    deliveredAt: r.deliveredAt,
    acceptanceExpiry: r.acceptanceExpiry,
    lastError: whyNotSent(r),
    line: r.line,
    productId: product?.id ?? r.productId,
    productName: product?.name ?? null,
  };
}

/** A row's validation errors as one readable sentence, without the "Line N: " each one starts with (the report has the line). */
export function issuesText(issues: readonly Issue[], line: number): string {
  const prefix = `Line ${line}: `;
  return issues.map((i) => (i.message.startsWith(prefix) ? i.message.slice(prefix.length) : i.message)).join('; ');
}

/**
 * The report's last_error: what the service or the queue last said about the row, and for every row
 * that was not sent, why: its validation errors (invalid), who skipped it (skipped), the service's
 * refusal (failed), that it waits to be sent (ready) or for the service's answer (sending), and how
 * its order ended (cancelled). Never empty for a row without a standing order.
 */
export function whyNotSent(
  r: Readonly<Pick<Recipient, 'state' | 'lastError' | 'line' | 'orderStatus' | 'itemStatus'>> & { readonly errors: readonly Issue[]; readonly skippedBy?: SkipPolicy | null },
): string | null {
  const issues = issuesText(r.errors, r.line);
  switch (r.state) {
    case 'invalid':
      return `Not valid: ${issues || 'no reason was recorded; edit the row to check it again'}`;
    case 'skipped':
      return issues ? `${skippedBecause()} (it was not valid: ${issues})` : skippedBecause(skipCauseOf(r.skippedBy ?? null));
    case 'failed':
      return r.lastError ?? 'The service refused the order; it gave no reason.';
    case 'ready':
      return r.lastError ?? 'Not sent yet: it goes when the campaign is sent or resumed.';
    case 'sending':
      return r.lastError ?? "Sent, without the service's answer recorded yet: it is looked up under its reference before anything is sent again.";
    case 'cancelled':
      return r.lastError ?? `The order was cancelled (order status ${r.orderStatus ?? 'not stated'}, item status ${r.itemStatus ?? 'not stated'}).`;
    case 'ordered':
    case 'delivered':
      return r.lastError;
  }
}

/** Every row of the campaign as the report shows it, in file order. */
export function reportRowsOf(db: Db, campaignId: string): ReportRow[] {
  const campaign = getCampaign(db, campaignId);
  const products = campaign ? campaignProducts(db, campaign) : new Map<number, ProductSnapshot>();
  return listCampaignRows(db, campaignId).map((r) => {
    const id = campaign ? productIdOf(campaign, r) : r.productId;
    return toReportRow(r, id === null ? null : { id, name: products.get(id)?.name ?? null });
  });
}
