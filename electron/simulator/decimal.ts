// Exact decimal arithmetic for exchange rates and fee rates. A rate such as 0.00075 is not
// representable as a float, and the charge must be exact to the minor unit, so rates are kept
// as an integer of digits with a decimal scale and multiplied with BigInt.

import { currencyExponent, type Money } from '../../shared/domain/money.ts';

export interface Decimal {
  /** The value times 10^scale. */
  readonly digits: bigint;
  readonly scale: number;
}

export function dec(text: string): Decimal {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new Error(`"${text}" is not a plain non-negative decimal`);
  const [, whole = '', frac = ''] = match;
  return { digits: BigInt(whole + frac), scale: frac.length };
}

export const ONE: Decimal = { digits: 1n, scale: 0 };
export const ZERO: Decimal = { digits: 0n, scale: 0 };

export function mul(a: Decimal, b: Decimal): Decimal {
  return { digits: a.digits * b.digits, scale: a.scale + b.scale };
}

export function add(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return {
    digits: a.digits * 10n ** BigInt(scale - a.scale) + b.digits * 10n ** BigInt(scale - b.scale),
    scale,
  };
}

/** Shortest decimal text: "0.00075", "1", "1.02". */
export function decToString(a: Decimal): string {
  if (a.scale === 0) return a.digits.toString();
  const text = a.digits.toString().padStart(a.scale + 1, '0');
  const whole = text.slice(0, text.length - a.scale);
  const frac = text.slice(text.length - a.scale).replace(/0+$/, '');
  return frac === '' ? whole : `${whole}.${frac}`;
}

export function decToNumber(a: Decimal): number {
  return Number(decToString(a));
}

/** A money amount as a decimal of its major unit (2500 USD minor → 25.00). */
export function moneyToDec(m: Money): Decimal {
  if (m.minor < 0) throw new Error('negative amounts are not used by the simulator');
  return { digits: BigInt(m.minor), scale: currencyExponent(m.currency) };
}

/** Rounds half-up to the minor units of `currency`. */
export function decToMoney(a: Decimal, currency: string): Money {
  const exp = currencyExponent(currency);
  let minor: bigint;
  if (a.scale <= exp) {
    minor = a.digits * 10n ** BigInt(exp - a.scale);
  } else {
    const divisor = 10n ** BigInt(a.scale - exp);
    minor = a.digits / divisor;
    if ((a.digits % divisor) * 2n >= divisor) minor += 1n;
  }
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error('amount too large');
  return { minor: Number(minor), currency: currency.toUpperCase() };
}
