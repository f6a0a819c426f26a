import { describe, expect, it } from 'vitest';
import { parseDecimal } from '../../../shared/domain/money.ts';
import { decToString, exchangeRate, quote } from '../../../electron/simulator/index.ts';

describe('simulator pricing', () => {
  it('same-currency orders are charged the price at rate 1 and fee 0', () => {
    const q = quote(parseDecimal('25', 'USD'), 'USD');
    expect(q.charged).toEqual({ minor: 2500, currency: 'USD' });
    expect(decToString(q.rate)).toBe('1');
    expect(decToString(q.feeRate)).toBe('0');
  });

  it('a KRW product is charged in USD at the rate plus the fee, exact to the cent', () => {
    // 30000 × 0.00075 × 1.02 = 22.95
    const q = quote(parseDecimal('30000', 'KRW'), 'USD');
    expect(decToString(q.rate)).toBe('0.00075');
    expect(decToString(q.feeRate)).toBe('0.02');
    expect(q.charged).toEqual({ minor: 2295, currency: 'USD' });
  });

  it('rounds half-up to the account minor unit', () => {
    // 12345 KRW × 0.00075 × 1.02 = 9.4439250 → 9.44; 5000 KRW → 3.825 → 3.83
    expect(quote(parseDecimal('12345', 'KRW'), 'USD').charged.minor).toBe(944);
    expect(quote(parseDecimal('5000', 'KRW'), 'USD').charged.minor).toBe(383);
  });

  it('charges a zero-decimal account currency in whole units', () => {
    // 25 USD × 1350 × 1.02 = 34425 KRW
    expect(quote(parseDecimal('25', 'USD'), 'KRW').charged).toEqual({ minor: 34425, currency: 'KRW' });
  });

  it('cross rates between two non-USD currencies are the exact product of both legs', () => {
    expect(decToString(exchangeRate('KRW', 'EUR'))).toBe('0.00069375');
    // 20 GBP × (1.27 × 0.925 = 1.17475) × 1.02 = 23.96490 → 23.96 EUR
    expect(quote(parseDecimal('20', 'GBP'), 'EUR').charged).toEqual({ minor: 2396, currency: 'EUR' });
  });
});
