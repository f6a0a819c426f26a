// Report export → import keeps every value (issue 5, property tests): whatever names, e-mails and
// error texts hold (commas, quotes, newlines, unicode, formula-looking text), reading the report back
// gives each value exactly, except that a cell a spreadsheet would run as a formula carries one
// leading `'` (OWASP CSV injection), and nothing else changes.
import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { neutralise, renderReport, REPORT_COLUMNS, type ReportRow } from '../../../../electron/core/campaigns/report.ts';
import { parseCsv } from '../../../support/parse-csv.ts';
import { isPlainDecimal, parseDecimal, toDecimal } from '../../../../shared/domain/money.ts';

// A formula character first, or after spaces a spreadsheet may trim on import.
const FORMULA_START = /^\s*[=+\-@]|^[\t\r\n]/;
/** A piece after a `,` or `;` (where a spreadsheet in some locale splits the cell) that starts a formula. */
const PIECE_START = /([,;][ \t]*)([=+\-@])/g;
/** The value with a quote before each formula-looking piece and, if it starts like one, before it all. */
const neutralised = (value: string): string => {
  const pieces = value.replace(PIECE_START, "$1'$2");
  return FORMULA_START.test(pieces) ? `'${pieces}` : pieces;
};

const tricky = fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', '\r\n', ',', ';', '"', "'", ' ', '\uFEFF', 'é', '€', '한', '😀', 'a', '1', '|', '!');
const text: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.array(tricky, { maxLength: 12 }).map((parts) => parts.join('')),
  fc.tuple(fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n'), fc.string({ maxLength: 10 })).map(([a, b]) => a + b),
  fc.constantFrom("=cmd|' /C calc'!A0", '=HYPERLINK("http://evil.example","x")', '@SUM(1+1)*cmd|\' /C calc\'!A0', '-2+3', '+1'),
);
const nullable = (arb: fc.Arbitrary<string>) => fc.option(arb, { nil: null });
const maybeId = fc.option(fc.integer({ min: 1, max: 2 ** 40 }), { nil: null });
const maybeTime = fc.option(fc.integer({ min: 0, max: 4_102_444_800_000 }), { nil: null });
const currency = fc.constantFrom('USD', 'KRW', 'KWD');
const money = fc.option(
  fc.tuple(fc.integer({ min: 1, max: 10 ** 12 }), currency).map(([minor, c]) => ({ minor, currency: c })),
  { nil: null },
);

const reportRow: fc.Arbitrary<ReportRow> = fc.record({
  name: nullable(text),
  email: nullable(text),
  amount: money,
  amountAsWritten: fc.option(fc.record({ text: fc.constantFrom('750', 'ten', '=1+1', '25,50'), currency: fc.constantFrom('USD', null) }), { nil: null }),
  state: fc.constantFrom('ready', 'sending', 'ordered', 'delivered', 'failed', 'skipped', 'invalid'),
  orderId: maybeId,
  orderStatus: nullable(fc.constantFrom('COMPLETED', 'PAYMENT_PENDING', '=SOMETHING_NEW')),
  itemId: maybeId,
  itemStatus: nullable(fc.constantFrom('PENDING', 'COMPLETED', '-odd')),
  charged: fc.option(
    fc.tuple(fc.stringMatching(/^\d{1,9}(\.\d{1,6})?$/), currency).map(([amount, c]) => ({ amount, currency: c })),
    { nil: null },
  ),
  issued: fc.option(fc.record({ text: fc.constantFrom('25', '5.00', '=1+1'), currency: fc.constantFrom('USD', 'KRW') }), { nil: null }),
  findings: fc.array(text, { maxLength: 2 }),
  exchangeRate: nullable(fc.constantFrom('1', '0.00075', '1300.5')),
  feeRate: nullable(fc.constantFrom('0', '0.03')),
  externalReferenceId: fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
  sentAt: maybeTime,
  deliveredAt: maybeTime,
  acceptanceExpiry: maybeTime,
  lastError: nullable(text),
  line: fc.integer({ min: 1, max: 1_000_000 }),
  productId: maybeId,
  productName: nullable(fc.constantFrom('Northwind Books Gift Card $25', '=HYPERLINK("x")', 'Café, "Tier 1"')),
});

/** What a reader must find in each column for a row: the value, neutralised where it could run. */
function expectedCells(row: ReportRow): Record<(typeof REPORT_COLUMNS)[number], string> {
  const iso = (ms: number | null) => (ms == null ? '' : new Date(ms).toISOString());
  return {
    name: neutralise(row.name),
    email: neutralise(row.email),
    // Without an amount, what the file wrote (text we did not write: neutralised).
    amount: row.amount ? toDecimal(row.amount) : neutralise(row.amountAsWritten?.text ?? null),
    currency: row.amount?.currency ?? row.amountAsWritten?.currency ?? '',
    state: row.state,
    order_id: row.orderId == null ? '' : String(row.orderId),
    order_status: neutralise(row.orderStatus),
    item_id: row.itemId == null ? '' : String(row.itemId),
    item_status: neutralise(row.itemStatus),
    charged_amount: row.charged?.amount ?? '',
    charged_currency: row.charged?.currency ?? '',
    exchange_rate: neutralise(row.exchangeRate),
    fee_rate: neutralise(row.feeRate),
    external_reference_id: neutralise(row.externalReferenceId),
    sent_at: iso(row.sentAt),
    delivered_at: iso(row.deliveredAt),
    acceptance_expiry: iso(row.acceptanceExpiry),
    last_error: neutralise(row.lastError),
    source_line: String(row.line),
    // In the currency's form where it reads as an amount ("25" USD → "25.00"), else as stated.
    issued_amount: row.issued === null ? '' : isPlainDecimal(row.issued.text) ? toDecimal(parseDecimal(row.issued.text, row.issued.currency)) : neutralise(row.issued.text),
    issued_currency: neutralise(row.issued?.currency ?? null),
    discrepancy: neutralise(row.findings.length > 0 ? row.findings.join('; ') : null),
    product_id: row.productId == null ? '' : String(row.productId),
    product_name: neutralise(row.productName),
    issued_amount_as_stated: neutralise(row.issued?.text ?? null),
  };
}

describe('delivery report export → import', () => {
  it('neutralises exactly the cells and the pieces that could run as a formula, with one quote each and nothing else', () => {
    fc.assert(
      fc.property(nullable(text), (value) => {
        const out = neutralise(value);
        if (value === null) expect(out).toBe('');
        else expect(out).toBe(neutralised(value));
        expect(FORMULA_START.test(out)).toBe(false);
        for (const piece of out.split(/[,;]/).slice(1)) expect(/^[ \t]*[=+\-@]/.test(piece)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('papaparse reads back every cell of every row, exactly (formula cells with their leading quote)', () => {
    fc.assert(
      fc.property(fc.array(reportRow, { minLength: 1, maxLength: 8 }), (rows) => {
        const csv = renderReport(rows);
        expect(csv.startsWith('\uFEFF')).toBe(true);
        const parsed = Papa.parse<string[]>(csv.slice(1), { newline: '\r\n', skipEmptyLines: false });
        expect(parsed.errors).toEqual([]);
        const [header, ...records] = parsed.data;
        expect(header).toEqual([...REPORT_COLUMNS]);
        rows.forEach((row, i) => {
          const cells = records[i] ?? [];
          const expected = expectedCells(row);
          expect(Object.fromEntries(REPORT_COLUMNS.map((c, j) => [c, cells[j]]))).toEqual(expected);
          for (const [column, original] of [['name', row.name], ['email', row.email], ['last_error', row.lastError]] as const) {
            const cell = cells[REPORT_COLUMNS.indexOf(column)] ?? '';
            // The only change to a value is a quote in front of each formula-looking piece.
            if (original !== null) expect(cell).toBe(neutralised(original));
          }
        });
      }),
      { numRuns: 300 },
    );
  });

  it("our own CSV import reads a report's names and e-mails back, on the line each record starts", () => {
    fc.assert(
      fc.property(fc.array(reportRow, { minLength: 1, maxLength: 6 }), (rows) => {
        const csv = renderReport(rows);
        const parsed = parseCsv(new TextEncoder().encode(csv));
        expect(parsed.delimiter).toBe(',');
        expect(parsed.headers.slice(0, 2)).toEqual(['name', 'email']);
        // The importer reads every line ending as LF, inside quoted cells too.
        const lf = (s: string) => s.replace(/\r\n?/g, '\n');
        let line = 2;
        rows.forEach((row, i) => {
          const record = parsed.records[i];
          const expected = expectedCells(row);
          expect(record?.raw.slice(0, 2)).toEqual([lf(expected.name), lf(expected.email)]);
          expect(record?.problem ?? null).toBeNull();
          expect(record?.line).toBe(line);
          line += 1 + REPORT_COLUMNS.reduce((n, c) => n + (lf(expected[c]).match(/\n/g)?.length ?? 0), 0);
        });
      }),
      { numRuns: 200 },
    );
  });
});
