// Money is never a float in our code: an integer count of minor units plus a currency code.
// Amounts arrive as JSON numbers or CSV text; both are read through their decimal text, so
// 0.1 + 0.2 never happens here.

export interface Money {
  /** Integer count of the currency's minor units (cents for USD, won for KRW, fils for KWD). */
  readonly minor: number;
  /** ISO 4217 code, upper case. */
  readonly currency: string;
}

// ISO 4217 exponents that differ from the default of 2.
const EXPONENTS: Readonly<Record<string, number>> = {
  BIF: 0, CLP: 0, DJF: 0, GNF: 0, ISK: 0, JPY: 0, KMF: 0, KRW: 0, PYG: 0, RWF: 0, UGX: 0,
  UYI: 0, VND: 0, VUV: 0, XAF: 0, XOF: 0, XPF: 0,
  BHD: 3, IQD: 3, JOD: 3, KWD: 3, LYD: 3, OMR: 3, TND: 3,
};

export class MoneyError extends Error {
  override readonly name = 'MoneyError';
}

export function isCurrencyCode(code: string): boolean {
  return /^[A-Z]{3}$/.test(code);
}

export function currencyExponent(currency: string): number {
  const code = currency.toUpperCase();
  if (!isCurrencyCode(code)) throw new MoneyError(`"${currency}" is not a three-letter currency code`);
  return EXPONENTS[code] ?? 2;
}

/**
 * Parses a plain decimal ("25", "25.5", "-3.125", "1e3" is refused) into minor units of `currency`.
 * Throws when the text has more decimals than the currency allows, unless `round` is set, in which
 * case it rounds half away from zero (used for amounts a service computed, such as a converted charge).
 */
export function parseDecimal(text: string, currency: string, opts: { round?: boolean } = {}): Money {
  const exp = currencyExponent(currency);
  const match = /^([+-]?)(\d+)(?:\.(\d*))?$/.exec(text.trim());
  if (!match) throw new MoneyError(`"${text}" is not a decimal amount`);
  const [, sign = '', whole = '', frac = ''] = match;
  const kept = frac.slice(0, exp).padEnd(exp, '0');
  const dropped = frac.slice(exp);
  let minor = BigInt(whole + kept);
  if (/[1-9]/.test(dropped)) {
    if (!opts.round) {
      throw new MoneyError(`${text} has more decimals than ${currency.toUpperCase()} allows (${exp})`);
    }
    if (dropped.charCodeAt(0) >= '5'.charCodeAt(0)) minor += 1n;
  }
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) throw new MoneyError(`${text} is too large an amount`);
  const value = Number(minor);
  return { minor: sign === '-' && value !== 0 ? -value : value, currency: currency.toUpperCase() };
}

/** Converts a JSON number from the service into minor units, through its shortest decimal text. */
export function fromNumber(value: number, currency: string, opts: { round?: boolean } = {}): Money {
  if (!Number.isFinite(value)) throw new MoneyError(`${value} is not a finite amount`);
  return parseDecimal(plainDecimal(value), currency, opts);
}

/** The decimal text of a money value, with exactly the currency's number of decimals ("25.00", "30000"). */
export function toDecimal(money: Money): string {
  const exp = currencyExponent(money.currency);
  const negative = money.minor < 0;
  const digits = Math.abs(money.minor).toString().padStart(exp + 1, '0');
  const whole = digits.slice(0, digits.length - exp);
  const frac = exp > 0 ? `.${digits.slice(digits.length - exp)}` : '';
  return `${negative ? '-' : ''}${whole}${frac}`;
}

/** The JSON number the service expects for an amount (25, 25.5, 30000). */
export function toNumber(money: Money): number {
  return Number(toDecimal(money));
}

/** "USD 25.00" — unambiguous and locale-free, for messages and logs. */
export function formatMoney(money: Money): string {
  return `${money.currency} ${toDecimal(money)}`;
}

export function money(minor: number, currency: string): Money {
  if (!Number.isSafeInteger(minor)) throw new MoneyError(`${minor} is not a whole number of minor units`);
  currencyExponent(currency);
  return { minor, currency: currency.toUpperCase() };
}

/** Totals per currency, never summed across currencies; sorted by currency code. */
export function totalsByCurrency(amounts: Iterable<Money>): Money[] {
  const sums = new Map<string, number>();
  for (const m of amounts) {
    const next = (sums.get(m.currency) ?? 0) + m.minor;
    if (!Number.isSafeInteger(next)) throw new MoneyError(`the ${m.currency} total is too large`);
    sums.set(m.currency, next);
  }
  return [...sums.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, minor]) => ({ currency, minor }));
}

/** An exact decimal: `units` × 10^-`scale`. */
export interface ExactDecimal {
  readonly units: bigint;
  readonly scale: number;
}

export const ZERO_DECIMAL: ExactDecimal = { units: 0n, scale: 0 };

/** Whether text is a plain decimal ("7.4925", "-3", "12.50"): what addDecimalText takes. */
export function isPlainDecimal(text: string): boolean {
  return /^[+-]?\d+(?:\.\d+)?$/.test(text.trim());
}

/** Adds a plain decimal text ("7.4925", "-3", "12.50") to an exact sum, with no rounding at all. */
export function addDecimalText(sum: ExactDecimal, text: string): ExactDecimal {
  const match = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) throw new MoneyError(`"${text}" is not a decimal amount`);
  const [, sign = '', whole = '', frac = ''] = match;
  const scale = Math.max(sum.scale, frac.length);
  const units = BigInt(whole + frac.padEnd(scale, '0')) * (sign === '-' ? -1n : 1n);
  return { units: sum.units * 10n ** BigInt(scale - sum.scale) + units, scale };
}

/** An exact sum as decimal text with the currency's decimals, and more only where they are not zeros ("19.9925", "19.60", "30000"). */
export function exactDecimalText(sum: ExactDecimal, currency: string): string {
  const exponent = currencyExponent(currency);
  let { units, scale } = sum;
  while (scale > exponent && units % 10n === 0n) {
    units /= 10n;
    scale -= 1;
  }
  if (scale < exponent) {
    units *= 10n ** BigInt(exponent - scale);
    scale = exponent;
  }
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${digits.slice(digits.length - scale)}` : ''}`;
}

/** An amount as exact decimal text with its currency, when it may carry more decimals than the currency ("USD 7.4925"). */
export interface DecimalAmount {
  readonly currency: string;
  readonly amount: string;
}

/** Exact sums per currency of decimal amounts, sorted by currency code, each with at least its currency's decimals. */
export function exactTotals(amounts: Iterable<DecimalAmount>): DecimalAmount[] {
  const sums = new Map<string, ExactDecimal>();
  for (const a of amounts) sums.set(a.currency, addDecimalText(sums.get(a.currency) ?? ZERO_DECIMAL, a.amount));
  return [...sums.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, sum]) => ({ currency, amount: exactDecimalText(sum, currency) }));
}

/** One decimal text as shown: exact, with at least its currency's decimals ("25" USD → "25.00"; "7.4925" stays). */
export function exactAmount(text: string, currency: string): DecimalAmount {
  return { currency, amount: exactDecimalText(addDecimalText(ZERO_DECIMAL, text), currency) };
}

export function compareMoney(a: Money, b: Money): number {
  if (a.currency !== b.currency) {
    throw new MoneyError(`cannot compare ${a.currency} with ${b.currency}`);
  }
  return a.minor - b.minor;
}

// Number → decimal text without exponent notation (1e-7 → "0.0000001", 1e21 → "1000000000000000000000").
export function plainDecimal(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  const [mantissa = '', expText = '0'] = text.toLowerCase().split('e');
  const exp = Number(expText);
  const negative = mantissa.startsWith('-');
  const [intPart = '', fracPart = ''] = mantissa.replace('-', '').split('.');
  const digits = intPart + fracPart;
  const point = intPart.length + exp;
  let out: string;
  if (point <= 0) out = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length);
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return negative ? `-${out}` : out;
}
