// The delivery report handed to finance: one row per recipient, then its totals section (report-totals.ts).
// UTF-8 with BOM so Excel opens it right; text cells that a spreadsheet would run as a formula are
// neutralised (OWASP CSV injection); written to a temporary file and renamed, so a crash never
// leaves half a report.
import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Papa from 'papaparse';
import { crashPoint } from '../crash-points.ts';
import { skipCauseOf, skippedBecause, type SkipPolicy } from '../../../shared/domain/skips.ts';
import { exactAmount, isCurrencyCode, isPlainDecimal, toDecimal, type DecimalAmount } from '../../../shared/domain/money.ts';
import { neutralise, REPORT_COLUMNS, type ReportRow, type ReportSource } from './report-columns.ts';
import { totalsRecords } from './report-totals.ts';
import type { Db } from '../db/open.ts';
import type { Issue } from '../db/parse.ts';
import { listCampaignRows, type Recipient } from '../db/repos/recipients.ts';
import { campaignProducts, getCampaign, productIdOf, type ProductSnapshot } from '../db/repos/campaigns.ts';

export { neutralise, REPORT_COLUMNS, type ReportRow, type ReportSource } from './report-columns.ts';
export { totalsRecords } from './report-totals.ts';

const BOM = '\uFEFF';
/** Cells a spreadsheet could split: always quoted, whatever the delimiter it assumes. */
const SPLITTABLE = /[,;]/;

const iso = (ms: number | null) => (ms == null ? '' : new Date(ms).toISOString());
const id = (n: number | null) => (n == null ? '' : String(n));

export function reportRecord(row: ReportRow): string[] {
  return [
    neutralise(row.name),
    neutralise(row.email),
    row.amount ? toDecimal(row.amount) : neutralise(row.amountAsWritten?.text ?? null),
    row.amount?.currency ?? row.amountAsWritten?.currency ?? '',
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
    neutralise(issuedAmount(row.issued)),
    neutralise(row.issued?.currency ?? null),
    neutralise(row.findings.length > 0 ? row.findings.join('; ') : null),
    id(row.productId),
    neutralise(row.productName),
    neutralise(row.issued?.text ?? null),
  ];
}

/**
 * What the service says it issued, in the form of the other money columns ("20" → "20.00", "12.5" →
 * "12.50"; more decimals than the currency has stay, "7.4925"), when its currency and its amount can be
 * read; otherwise its text as stated. issued_amount_as_stated keeps the exact text always.
 */
function issuedAmount(issued: ReportRow['issued']): string | null {
  if (!issued) return null;
  const currency = issued.currency.toUpperCase();
  return isCurrencyCode(currency) && isPlainDecimal(issued.text) ? exactAmount(issued.text.trim(), currency).amount : issued.text;
}

/** The report: its header, a record per row, a blank line and the totals section (report-totals.ts; with the source, where the orders went). */
export function renderReport(rows: readonly ReportRow[], source: ReportSource | null = null): string {
  const data = [[...REPORT_COLUMNS], ...rows.map(reportRecord), [], ...totalsRecords(rows, source)];
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

export function toReportRow(r: Recipient, product: { id: number; name: string | null; currency?: string | null } | null = null): ReportRow {
  const amount = r.amountMinor != null && r.currency ? { minor: r.amountMinor, currency: r.currency } : null;
  return {
    name: r.name,
    email: r.email,
    amount,
    // The file's amount read in its product's currency (the reason in last_error names it so).
    amountAsWritten: amount === null && r.amountText ? { text: r.amountText, currency: r.currency ?? product?.currency ?? null } : null,
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
    return toReportRow(r, id === null ? null : { id, name: products.get(id)?.name ?? null, currency: products.get(id)?.currency ?? null });
  });
}

/** The campaign's report as written to a file: its rows, and its totals with where its orders went. */
export function campaignReport(db: Db, campaignId: string): string {
  const campaign = getCampaign(db, campaignId);
  const source = campaign ? { environment: campaign.environment, baseUrl: campaign.baseUrl, giftPerRow: campaign.giftPerRow } : null;
  return renderReport(reportRowsOf(db, campaignId), source);
}
