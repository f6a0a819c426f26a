import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/temp-dirs.ts';
import type { ReportRow } from '../../../../electron/core/campaigns/report.ts';
import { REPORT_COLUMNS, neutralise, renderReport, whyNotSent, writeFileAtomically } from '../../../../electron/core/campaigns/report.ts';
import { skippedBecause } from '../../../../shared/domain/skips.ts';
import { EMBEDDED_SIMULATOR_URL } from '../../../../electron/core/connections.ts';

function row(over: Partial<ReportRow> = {}): ReportRow {
  return {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    amount: { minor: 2500, currency: 'USD' },
    state: 'delivered',
    orderId: 9001,
    orderStatus: 'COMPLETED',
    itemId: 7001,
    itemStatus: 'COMPLETED',
    charged: { amount: '25.00', currency: 'USD' },
    exchangeRate: '1',
    feeRate: '0',
    externalReferenceId: 'gb-abc',
    sentAt: Date.UTC(2026, 10, 22, 10, 0, 0),
    deliveredAt: Date.UTC(2026, 10, 22, 10, 0, 5),
    acceptanceExpiry: null,
    lastError: null,
    line: 2,
    issued: null,
    findings: [],
    productId: 101,
    productName: 'Northwind Books Gift Card $25',
    ...over,
  };
}

function parse(text: string): string[][] {
  return Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: false }).data;
}

describe('the delivery report', () => {
  it('starts with a UTF-8 BOM and the stable header', () => {
    const text = renderReport([row()]);
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(parse(text)[0]).toEqual([...REPORT_COLUMNS]);
  });

  it('has one row per recipient with exact decimal amounts and ISO times', () => {
    const [, first] = parse(renderReport([row({ amount: { minor: 30000, currency: 'KRW' }, charged: { amount: '23.46', currency: 'USD' }, exchangeRate: '0.00075' })]));
    expect(first?.slice(0, 5)).toEqual(['Ada Lovelace', 'ada@example.com', '30000', 'KRW', 'delivered']);
    expect(first?.slice(9, 13)).toEqual(['23.46', 'USD', '0.00075', '0']);
    expect(first?.[14]).toBe('2026-11-22T10:00:00.000Z');
    expect(first?.[18]).toBe('2');
  });

  it('ends with totals per currency, never summed across currencies', () => {
    const rows = [
      row({ amount: { minor: 2500, currency: 'USD' }, charged: { amount: '25.00', currency: 'USD' } }),
      row({ amount: { minor: 1000, currency: 'USD' }, charged: { amount: '10.00', currency: 'USD' } }),
      row({ amount: { minor: 30000, currency: 'KRW' }, charged: { amount: '23.46', currency: 'USD' } }),
      row({ state: 'failed', orderId: null, charged: null }),
    ];
    const totals = parse(renderReport(rows)).filter((r) => /^TOTAL (ordered|charged)/.test(r[0] ?? ''));
    expect(totals.map((r) => [r[0], r[2], r[3]])).toEqual([
      ['TOTAL ordered (3 orders)', '30000', 'KRW'],
      ['TOTAL ordered (3 orders)', '35.00', 'USD'],
      ['TOTAL charged', '58.46', 'USD'],
    ]);
  });

  it('totals what the service says it issued and charged, exactly, not what the rows asked', () => {
    const rows = [
      // The service issued USD 5.00 for a USD 11.50 gift, and charged a converted 7.4925.
      row({ amount: { minor: 1150, currency: 'USD' }, issued: { text: '5', currency: 'USD' }, charged: { amount: '7.4925', currency: 'USD' }, findings: ['the service issued USD 5.00 for a USD 11.50 gift'] }),
      row({ amount: { minor: 1250, currency: 'USD' }, issued: { text: '12.5', currency: 'USD' }, charged: { amount: '0.0075', currency: 'USD' } }),
    ];
    const parsed = parse(renderReport(rows));
    const totals = parsed.filter((r) => /^TOTAL (ordered|charged)/.test(r[0] ?? ''));
    expect(totals.map((r) => [r[0], r[2], r[3]])).toEqual([
      ['TOTAL ordered (2 orders)', '17.50', 'USD'],
      ['TOTAL charged', '7.50', 'USD'],
    ]);
    const header = parsed[0] ?? [];
    // In the form of the other money columns; the service's own text beside, at the end.
    expect(parsed[1]?.[header.indexOf('issued_amount')]).toBe('5.00');
    expect(parsed[1]?.[header.indexOf('issued_amount_as_stated')]).toBe('5');
    expect(parsed[2]?.[header.indexOf('issued_amount')]).toBe('12.50');
    expect(parsed[2]?.[header.indexOf('issued_amount_as_stated')]).toBe('12.5');
    expect(parsed[1]?.[header.indexOf('discrepancy')]).toBe('the service issued USD 5.00 for a USD 11.50 gift');
  });

  it.each(['=1+1', '+1+1', '-1+1', '@SUM(A1)', '\t=cmd', '\r=cmd', '\n=cmd', '=HYPERLINK("http://x","y")', "=cmd|' /C calc'!A0"])(
    'neutralises the formula payload %j in every text cell',
    (payload) => {
      const [, cells] = parse(renderReport([row({ name: payload, email: payload, lastError: payload })]));
      expect(cells?.[0]).toBe(`'${payload}`);
      expect(cells?.[1]).toBe(`'${payload}`);
      expect(cells?.[17]).toBe(`'${payload}`);
    },
  );

  it('leaves harmless text alone, including commas, quotes and newlines inside a cell', () => {
    expect(neutralise('Zoë "Z" O’Brien, Jr.')).toBe('Zoë "Z" O’Brien, Jr.');
    const [, cells] = parse(renderReport([row({ name: 'Line one\nline two, "quoted"' })]));
    expect(cells?.[0]).toBe('Line one\nline two, "quoted"');
  });

  it('is written whole or not at all, with no temporary file left behind', () => {
    const dir = tempDir('giftbatch-report-');
    const file = join(dir, 'report.csv');
    writeFileAtomically(file, 'first');
    writeFileAtomically(file, 'second');
    expect(readFileSync(file, 'utf8')).toBe('second');
    expect(readdirSync(dir)).toEqual(['report.csv']);
    expect(() => writeFileAtomically(join(dir, 'missing-folder', 'r.csv'), 'x')).toThrow();
    expect(readdirSync(dir)).toEqual(['report.csv']);
  });

  it('keeps its totals section when nothing was ordered: zero ordered in the rows\' currency, zero charged', () => {
    const rows = [
      row({ state: 'invalid', orderId: null, charged: null, lastError: 'Not valid: the e-mail address is missing' }),
      row({ state: 'skipped', orderId: null, charged: null, lastError: 'Skipped by the organiser' }),
    ];
    const totals = parse(renderReport(rows)).filter((r) => /^TOTAL (ordered|charged)/.test(r[0] ?? ''));
    expect(totals.map((r) => [r[0], r[2], r[3]])).toEqual([
      ['TOTAL ordered (0 orders)', '0.00', 'USD'],
      ['TOTAL charged', '0', ''],
    ]);
    // Without even an amount to name a currency, the zeros stand alone.
    const bare = parse(renderReport([])).filter((r) => /^TOTAL (ordered|charged)/.test(r[0] ?? ''));
    expect(bare.map((r) => [r[0], r[2], r[3]])).toEqual([
      ['TOTAL ordered (0 orders)', '0', ''],
      ['TOTAL charged', '0', ''],
    ]);
  });

  const simulator = { environment: 'simulator', baseUrl: 'http://127.0.0.1:4010', giftPerRow: false } as const;
  const section = (csv: string) => {
    const records = parse(csv);
    return records.slice(records.findIndex((r) => r.length === 1 && r[0] === '') + 1).filter((r) => r.length > 1);
  };

  it('names where its orders went, after the totals, and says plainly when no real gift was sent', () => {
    const last = (environment: 'simulator' | 'sandbox' | 'production', baseUrl: string) => section(renderReport([row()], { environment, baseUrl, giftPerRow: false })).at(-1);
    expect(last('simulator', 'http://127.0.0.1:4010')?.[0]).toBe(
      'TOTALS from Simulator (http://127.0.0.1:4010): TEST ONLY, no real gift was sent and no money was charged',
    );
    expect(last('sandbox', 'https://sandbox.gifts.example')?.[0]).toBe(
      "TOTALS from Sandbox (https://sandbox.gifts.example): TEST ONLY, no real gift was sent: the service's test environment",
    );
    expect(last('production', 'https://api.gifts.example')?.[0]).toBe('TOTALS from Production (https://api.gifts.example): orders here are real gifts, charged to the account');
    // The built-in simulator's address is a marker, not a place: the line says what it is.
    expect(last('simulator', EMBEDDED_SIMULATOR_URL)?.[0]).toMatch(/^TOTALS from Simulator \(built into the app\): TEST ONLY/);
    // One cell, the rest of the line empty: the columns stay where the header puts them.
    expect(last('production', 'https://api.gifts.example')?.slice(1).every((c) => c === '')).toBe(true);
    expect(last('production', 'https://api.gifts.example')).toHaveLength(REPORT_COLUMNS.length);
  });

  it('counts the rows in every state, in the window\'s words, after the money totals', () => {
    const rows = [
      row(),
      row({ state: 'ordered', deliveredAt: null }),
      row({ state: 'ordered', deliveredAt: null }),
      row({ state: 'failed', orderId: null, charged: null }),
      row({ state: 'invalid', orderId: null, charged: null, amount: null }),
      row({ state: 'skipped', orderId: null, charged: null }),
    ];
    expect(section(renderReport(rows, simulator)).map((r) => r[0])).toEqual([
      'TOTAL ordered (3 orders)',
      'TOTAL charged',
      'TOTAL delivered (1 row)',
      'TOTAL awaiting delivery (2 rows, state ordered)',
      'TOTAL not sent yet (0 rows, state ready)',
      'TOTAL sending (0 rows)',
      'TOTAL failed (1 row)',
      'TOTAL cancelled (0 rows)',
      'TOTAL needs fixing (1 row, state invalid)',
      'TOTAL skipped (1 row)',
      expect.stringMatching(/^TOTALS from Simulator/),
    ]);
  });

  it('subtotals each product of a campaign with a gift per row: its rows and orders, face value as issued, and charged', () => {
    const books = { productId: 101, productName: 'Northwind Books Gift Card $25' };
    const market = { productId: 202, productName: 'Harborline Market eGift' };
    const rows = [
      row({ ...books }),
      row({ ...books, issued: { text: '25', currency: 'USD' }, charged: { amount: '24.50', currency: 'USD' } }),
      row({ ...market, amount: { minor: 4000, currency: 'USD' }, charged: { amount: '40.00', currency: 'USD' } }),
      row({ ...market, state: 'failed', orderId: null, charged: null, amount: { minor: 1500, currency: 'USD' } }),
      row({ productId: 303, productName: null, state: 'invalid', orderId: null, charged: null, amount: { minor: 900, currency: 'USD' } }),
    ];
    const cells = (r: string[] | undefined) =>
      r && [r[0], ...(['amount', 'currency', 'charged_amount', 'charged_currency', 'product_id', 'product_name'] as const).map((c) => r[REPORT_COLUMNS.indexOf(c)])];
    const products = section(renderReport(rows, { ...simulator, giftPerRow: true })).filter((r) => r[REPORT_COLUMNS.indexOf('product_id')] !== '');
    expect(products.map(cells)).toEqual([
      ['TOTAL Northwind Books Gift Card $25 (2 rows, 2 orders)', '50.00', 'USD', '49.50', 'USD', '101', 'Northwind Books Gift Card $25'],
      ['TOTAL Harborline Market eGift (2 rows, 1 order)', '40.00', 'USD', '40.00', 'USD', '202', 'Harborline Market eGift'],
      ['TOTAL product 303 (1 row, 0 orders)', '0.00', 'USD', '0', '', '303', ''],
    ]);
    // A campaign of one product has no subtotals: its totals say it all.
    expect(section(renderReport(rows, simulator)).filter((r) => r[REPORT_COLUMNS.indexOf('product_id')] !== '')).toEqual([]);
  });

  it('shows what the file said for an amount that was refused, in the amount columns, beside its reason', () => {
    const [, cells] = parse(
      renderReport([
        row({
          state: 'invalid',
          orderId: null,
          charged: null,
          amount: null,
          amountAsWritten: { text: '750', currency: 'USD' },
          lastError: "Not valid: the amount USD 750.00 is outside the product's range of USD 5.00 to USD 500.00",
        }),
      ]),
    );
    expect(cells?.slice(2, 5)).toEqual(['750', 'USD', 'invalid']);
    expect(cells?.[17]).toMatch(/outside the product's range/);
    // Text the file wrote goes through the same guard as any other.
    const [, formula] = parse(renderReport([row({ state: 'invalid', orderId: null, amount: null, amountAsWritten: { text: '=1+1', currency: null } })]));
    expect(formula?.slice(2, 4)).toEqual(["'=1+1", '']);
  });
});

describe('why a row was not sent (the report\'s last_error)', () => {
  const base = { line: 7, errors: [], lastError: null, orderStatus: null, itemStatus: null } as const;

  it('gives an invalid row its validation errors, joined, without the line each starts with', () => {
    const errors = [
      { field: 'email', message: 'Line 7: "ada@" is not a valid e-mail address' },
      { field: 'amount', message: "Line 7: the amount USD 30.00 differs from the product's fixed price of USD 25.00" },
    ];
    expect(whyNotSent({ ...base, state: 'invalid', errors })).toBe(
      'Not valid: "ada@" is not a valid e-mail address; the amount USD 30.00 differs from the product\'s fixed price of USD 25.00',
    );
    // A message that does not start with its own line keeps its words whole.
    expect(whyNotSent({ ...base, state: 'invalid', errors: [{ message: 'Line 3: moved' }] })).toBe('Not valid: Line 3: moved');
    expect(whyNotSent({ ...base, state: 'invalid' })).toMatch(/^Not valid: no reason was recorded/);
  });

  it('says who skipped a row, in the one wording a policy skip will share, with its errors when it had some', () => {
    expect(skippedBecause()).toBe('Skipped by the organiser');
    expect(skippedBecause({ by: 'policy', policy: 'repeated recipient' })).toBe('Skipped by policy: repeated recipient');
    expect(whyNotSent({ ...base, state: 'skipped' })).toBe('Skipped by the organiser');
    expect(whyNotSent({ ...base, state: 'skipped', skippedBy: 'repeat-in-campaign' })).toBe(
      'Skipped by policy: its address repeats an earlier line of this campaign (one gift per person unless "one gift per row" is chosen)',
    );
    expect(whyNotSent({ ...base, state: 'skipped', skippedBy: 'earlier-campaign' })).toMatch(/^Skipped by policy: its recipient already has a gift/);
    expect(whyNotSent({ ...base, state: 'skipped', errors: [{ message: 'Line 7: the recipient name is missing' }] })).toBe(
      'Skipped by the organiser (it was not valid: the recipient name is missing)',
    );
  });

  it("keeps the service's refusal of a failed row, and never leaves an unsent row empty", () => {
    expect(whyNotSent({ ...base, state: 'failed', lastError: 'the balance is too low (HTTP 402 INSUFFICIENT_BALANCE)' })).toBe(
      'the balance is too low (HTTP 402 INSUFFICIENT_BALANCE)',
    );
    expect(whyNotSent({ ...base, state: 'failed' })).toMatch(/refused/);
    expect(whyNotSent({ ...base, state: 'ready' })).toMatch(/^Not sent yet/);
    expect(whyNotSent({ ...base, state: 'sending' })).toMatch(/looked up under its reference/);
    expect(whyNotSent({ ...base, state: 'cancelled', orderStatus: 'PAYMENT_EXPIRED', itemStatus: 'PENDING' })).toBe(
      'The order was cancelled (order status PAYMENT_EXPIRED, item status PENDING).',
    );
    // A row with a standing order has nothing to explain.
    expect(whyNotSent({ ...base, state: 'delivered' })).toBeNull();
    expect(whyNotSent({ ...base, state: 'ordered' })).toBeNull();
  });
});
