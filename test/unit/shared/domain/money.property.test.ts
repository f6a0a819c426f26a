// Money is exact for every currency exponent, 0 (KRW, JPY), 2 (USD, EUR) and 3 (KWD, BHD): decimal
// text ↔ minor units round-trips, a JSON number agrees with its text, and totals are BigInt-exact
// sums per currency, never across currencies.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDecimalText, compareMoney, currencyExponent, exactAmount, exactTotals, fromNumber, MoneyError, parseDecimal, toDecimal, totalsByCurrency, ZERO_DECIMAL, type Money } from '../../../../shared/domain/money.ts';

const CURRENCIES = ['KRW', 'JPY', 'USD', 'EUR', 'KWD', 'BHD'] as const;
const currency = fc.constantFrom(...CURRENCIES);

/** Decimal text with at most the currency's decimals, optional sign, leading zeros and trailing zeros. */
const decimalText = currency.chain((c) => {
  const exp = currencyExponent(c);
  return fc
    .record({
      sign: fc.constantFrom('', '-', '+'),
      zeros: fc.constantFrom('', '0', '00'),
      whole: fc.bigInt({ min: 0n, max: 10n ** BigInt(15 - exp) - 1n }),
      fraction: fc.option(fc.integer({ min: 0, max: exp }).chain((n) => fc.stringMatching(new RegExp(`^[0-9]{${n}}$`))), { nil: null }),
    })
    .map(({ sign, zeros, whole, fraction }) => ({ currency: c, exp, text: `${sign}${zeros}${whole}${fraction === null ? '' : `.${fraction}`}` }));
});

/** The minor units a decimal text means, computed with BigInt, independently of money.ts. */
function expectedMinor(text: string, exp: number): bigint {
  const [, sign = '', whole = '0', fraction = ''] = /^([+-]?)(\d+)(?:\.(\d*))?$/.exec(text) ?? [];
  const value = BigInt(whole) * 10n ** BigInt(exp) + BigInt(fraction.padEnd(exp, '0') || '0');
  return sign === '-' ? -value : value;
}

describe('money', () => {
  it('parseDecimal reads any decimal text with at most the currency exponent exactly, and toDecimal writes it back canonically', () => {
    fc.assert(
      fc.property(decimalText, ({ currency: c, exp, text }) => {
        const parsed = parseDecimal(text, c);
        expect(BigInt(parsed.minor)).toBe(expectedMinor(text, exp));
        expect(parsed.currency).toBe(c);
        const written = toDecimal(parsed);
        // Canonical: exactly `exp` decimals, no leading zeros, no plus sign.
        expect(written).toMatch(exp === 0 ? /^-?(0|[1-9]\d*)$/ : new RegExp(`^-?(0|[1-9]\\d*)\\.\\d{${exp}}$`));
        expect(parseDecimal(written, c)).toEqual(parsed);
        expect(toDecimal(parseDecimal(written, c))).toBe(written);
      }),
      { numRuns: 400 },
    );
  });

  it('toDecimal ∘ parseDecimal is the identity on minor units, for every safe integer', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), currency, (minor, c) => {
        const m: Money = { minor, currency: c };
        expect(parseDecimal(toDecimal(m), c)).toEqual(m);
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses more decimals than the currency allows, unless asked to round (half away from zero)', () => {
    fc.assert(
      fc.property(currency, fc.integer({ min: 0, max: 10 ** 9 }), fc.integer({ min: 1, max: 9 }), (c, whole, digit) => {
        const exp = currencyExponent(c);
        const text = `${whole}.${'0'.repeat(exp)}${digit}`;
        expect(() => parseDecimal(text, c)).toThrow(MoneyError);
        const rounded = parseDecimal(text, c, { round: true });
        expect(BigInt(rounded.minor)).toBe(BigInt(whole) * 10n ** BigInt(exp) + (digit >= 5 ? 1n : 0n));
      }),
      { numRuns: 500 },
    );
  });

  it("fromNumber of a decimal's JSON number agrees with parseDecimal of its text", () => {
    fc.assert(
      fc.property(decimalText, ({ currency: c, text }) => {
        // Up to 15 significant digits: every such decimal survives the trip through a double.
        expect(fromNumber(Number(text), c)).toEqual(parseDecimal(text, c));
      }),
      { numRuns: 400 },
    );
  });

  it('fromNumber with rounding gives whole minor units within half a unit of the double, for any finite amount', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true, noDefaultInfinity: true }), currency, (value, c) => {
        const m = fromNumber(value, c, { round: true });
        expect(Number.isSafeInteger(m.minor)).toBe(true);
        expect(Math.abs(m.minor / 10 ** currencyExponent(c) - value)).toBeLessThanOrEqual(0.5 / 10 ** currencyExponent(c) + 1e-6);
      }),
      { numRuns: 1000 },
    );
  });

  it('totals of any list equal the BigInt sums per currency, one entry per currency present, never summed across currencies', () => {
    const amount = fc.record({ minor: fc.integer({ min: -(10 ** 12), max: 10 ** 12 }), currency });
    fc.assert(
      fc.property(fc.array(amount, { maxLength: 60 }), (list) => {
        const sums = new Map<string, bigint>();
        for (const m of list) sums.set(m.currency, (sums.get(m.currency) ?? 0n) + BigInt(m.minor));
        const totals = totalsByCurrency(list);
        expect(totals.map((t) => t.currency)).toEqual([...sums.keys()].sort());
        for (const t of totals) expect(BigInt(t.minor)).toBe(sums.get(t.currency));
        // Totals of totals change nothing; a list split anywhere totals the same.
        expect(totalsByCurrency(totals)).toEqual(totals);
        const cut = Math.floor(list.length / 2);
        expect(totalsByCurrency([...totalsByCurrency(list.slice(0, cut)), ...totalsByCurrency(list.slice(cut))])).toEqual(totals);
      }),
      { numRuns: 500 },
    );
  });

  it('never compares amounts of different currencies', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer(), currency, currency, (a, b, ca, cb) => {
        fc.pre(ca !== cb);
        expect(() => compareMoney({ minor: a, currency: ca }, { minor: b, currency: cb })).toThrow(MoneyError);
      }),
      { numRuns: 100 },
    );
  });
});

describe('exact sums of decimal texts as a service sends them (charges with more decimals than their currency)', () => {
  /** Up to 6 decimals: a converted charge such as 7.4925. */
  const charge = fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: 0, max: 6 })).map(([units, scale]) => {
    const digits = units.toString().padStart(scale + 1, '0');
    return { units, scale, text: scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}` };
  });

  it('equal the BigInt sum at the finest scale, with the currency decimals at least and no trailing zeros past them', () => {
    fc.assert(
      fc.property(fc.array(charge, { maxLength: 30 }), currency, (charges, c) => {
        const total = exactTotals(charges.map((x) => ({ currency: c, amount: x.text })));
        const scale = Math.max(6, currencyExponent(c));
        const expected = charges.reduce((sum, x) => sum + x.units * 10n ** BigInt(scale - x.scale), 0n);
        if (charges.length === 0) {
          expect(total).toEqual([]);
          return;
        }
        const [{ amount } = { amount: '' }] = total;
        const [whole = '', fraction = ''] = amount.split('.');
        expect(BigInt(whole + fraction.padEnd(scale, '0'))).toBe(expected);
        expect(fraction.length).toBeGreaterThanOrEqual(currencyExponent(c));
        if (fraction.length > currencyExponent(c)) expect(fraction.endsWith('0')).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('pad to the currency and keep what is past it', () => {
    expect(exactAmount('25', 'USD')).toEqual({ currency: 'USD', amount: '25.00' });
    expect(exactAmount('7.4925', 'USD')).toEqual({ currency: 'USD', amount: '7.4925' });
    expect(exactAmount('30000.0', 'KRW')).toEqual({ currency: 'KRW', amount: '30000' });
    expect(exactTotals([{ currency: 'USD', amount: '0.1' }, { currency: 'USD', amount: '0.2' }, { currency: 'KRW', amount: '5' }])).toEqual([
      { currency: 'KRW', amount: '5' },
      { currency: 'USD', amount: '0.30' },
    ]);
    expect(() => addDecimalText(ZERO_DECIMAL, '1e3')).toThrow(MoneyError);
  });
});
