// The delivery report's columns, its row as the report reads it, and the one guard every text cell we
// did not write goes through (OWASP CSV injection): shared by the rows (report.ts) and the totals
// section (report-totals.ts).
import type { Environment } from '../../../shared/domain/campaigns.ts';
import type { DecimalAmount, Money } from '../../../shared/domain/money.ts';

export interface ReportRow {
  name: string | null;
  email: string | null;
  amount: Money | null;
  /**
   * The amount as the file wrote it, when it did not become `amount` (out of the product's range,
   * not a number: recipients.amount_text), with the currency it was read in: shown in the amount
   * columns so the row can be read beside its reason.
   */
  amountAsWritten?: { text: string; currency: string | null } | null;
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
  // issued_amount is written with its currency's decimals ("20.00"); this keeps the service's exact text ("20").
  'issued_amount_as_stated',
] as const;

/** Where a report's campaign was sent: its totals section names it, and says when no real gift was sent. */
export interface ReportSource {
  readonly environment: Environment;
  readonly baseUrl: string;
  /** It chooses a gift per row: its totals section has a subtotal per product. */
  readonly giftPerRow: boolean;
}

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
