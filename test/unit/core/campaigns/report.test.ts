import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { ReportRow } from '../../../../electron/core/campaigns/report.ts';
import { REPORT_COLUMNS, neutralise, renderReport, writeFileAtomically } from '../../../../electron/core/campaigns/report.ts';

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
    const totals = parse(renderReport(rows)).filter((r) => r[0]?.startsWith('TOTAL'));
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
    const totals = parsed.filter((r) => r[0]?.startsWith('TOTAL'));
    expect(totals.map((r) => [r[0], r[2], r[3]])).toEqual([
      ['TOTAL ordered (2 orders)', '17.50', 'USD'],
      ['TOTAL charged', '7.50', 'USD'],
    ]);
    const header = parsed[0] ?? [];
    expect(parsed[1]?.[header.indexOf('issued_amount')]).toBe('5');
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
    const dir = mkdtempSync(join(tmpdir(), 'giftbatch-report-'));
    const file = join(dir, 'report.csv');
    writeFileAtomically(file, 'first');
    writeFileAtomically(file, 'second');
    expect(readFileSync(file, 'utf8')).toBe('second');
    expect(readdirSync(dir)).toEqual(['report.csv']);
    expect(() => writeFileAtomically(join(dir, 'missing-folder', 'r.csv'), 'x')).toThrow();
    expect(readdirSync(dir)).toEqual(['report.csv']);
  });
});
