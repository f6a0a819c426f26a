import { describe, expect, it } from 'vitest';
import { parseAmount, type DecimalSeparator } from '../../../../../shared/domain/csv/amount.ts';

const ok = (text: string, currency: string, sep: DecimalSeparator = '.'): number => {
  const result = parseAmount(text, currency, sep);
  if (!result.ok) throw new Error(result.reason);
  expect(result.money.currency).toBe(currency);
  return result.money.minor;
};
const reason = (text: string, currency: string, sep: DecimalSeparator = '.'): string => {
  const result = parseAmount(text, currency, sep);
  if (result.ok) throw new Error(`expected "${text}" to be refused`);
  return result.reason;
};

describe('parseAmount', () => {
  it.each([
    ['25', 2500],
    ['25.00', 2500],
    ['25.5', 2550],
    ['$25', 2500],
    ['US$ 25', 2500],
    ['USD 25', 2500],
    ['25 USD', 2500],
    ['usd25', 2500],
    ['  25.00  ', 2500],
    ['1,000.00', 100000],
    ['1,000', 100000],
    ["1'000.50", 100050],
    ['1 000.50', 100050],
    ['0.99', 99],
  ])('reads %s in a point-decimal file as %i US cents', (text, minor) => {
    expect(ok(text, 'USD')).toBe(minor);
  });

  it.each([
    ['25,50', 2550],
    ['25,5', 2550],
    ['€25', 2500],
    ['25 €', 2500],
    ['25,50 €', 2550],
    ['EUR 25,50', 2550],
    ['1.000,00', 100000],
    ['1.000', 100000],
    ['1 000,50', 100050],
    ['25.50', 2550],
  ])('reads %s in a semicolon (decimal-comma) file as %i euro cents', (text, minor) => {
    expect(ok(text, 'EUR', ',')).toBe(minor);
  });

  it.each([
    ['30,000', 30000],
    ['30000', 30000],
    ['₩30,000', 30000],
    ['30,000원', 30000],
    ['KRW 30000', 30000],
  ])('reads the won amount %s as %i', (text, minor) => {
    expect(ok(text, 'KRW')).toBe(minor);
  });

  it('reads a lone comma followed by three digits as a thousands separator in a point-decimal file', () => {
    expect(ok('25,500', 'USD')).toBe(2550000);
  });

  it('reads a lone comma followed by one or two digits as a decimal comma even in a point-decimal file', () => {
    expect(ok('25,50', 'EUR')).toBe(2550);
  });

  it('refuses more decimals than the currency allows, naming the currency', () => {
    expect(reason('25.005', 'USD')).toBe('"25.005" has more decimals than USD allows (2)');
    expect(reason('30000.5', 'KRW')).toBe('"30000.5" has more decimals than KRW allows (none)');
  });

  it('accepts trailing zero decimals beyond the currency exponent', () => {
    expect(ok('25.000', 'USD')).toBe(2500);
    expect(ok('30000.00', 'KRW')).toBe(30000);
  });

  it('refuses a currency mark that contradicts the product currency', () => {
    expect(reason('€25', 'USD')).toBe('"€25" is in EUR, but the product is priced in USD');
    expect(reason('EUR 25', 'USD')).toBe('"EUR 25" is in EUR, but the product is priced in USD');
    expect(reason('$25', 'EUR')).toBe('"$25" is in dollars, but the product is priced in EUR');
    expect(reason('30,000원', 'USD')).toBe('"30,000원" is in KRW, but the product is priced in USD');
  });

  it('reads a lone point followed by three digits as a thousands separator in a decimal-comma file', () => {
    expect(ok('25.000', 'EUR', ',')).toBe(2500000);
  });

  it('accepts "$" for other dollar currencies', () => {
    expect(ok('$25', 'CAD')).toBe(2500);
  });

  it.each(['abc', '25 apples', '12-5', '--', '$', '1.2.3', '1,00,000', ',000', '25..0', '1,2345.00'])(
    'refuses "%s" as not an amount',
    (text) => {
      expect(reason(text, 'USD')).toMatch(/^".*" is not an amount/);
    },
  );

  it('refuses zero and negative amounts', () => {
    expect(reason('0', 'USD')).toBe('"0" is not a positive amount');
    expect(reason('-25', 'USD')).toBe('"-25" is not a positive amount');
    expect(reason('-$25', 'USD')).toBe('"-$25" is not a positive amount');
  });

  it('refuses amounts too large to count exactly', () => {
    expect(reason('99999999999999999999', 'USD')).toBe('"99999999999999999999" is too large an amount');
  });
});
