// Reads an amount cell as people type it in spreadsheets ("25", "$25", "25,50 €", "USD 25",
// "30,000원", "1.234,56") into Money in the product's currency. A currency mark that contradicts the
// product is an error, never a conversion.
import { currencyExponent, MoneyError, parseDecimal, type Money } from '../money.ts';

export type DecimalSeparator = '.' | ',';

export type AmountResult = { readonly ok: true; readonly money: Money } | { readonly ok: false; readonly reason: string };

// Marks that name one currency. "$" and "¥" are shared by several and handled apart.
const MARKS: Readonly<Record<string, string>> = {
  '€': 'EUR', '£': 'GBP', '₩': 'KRW', '￦': 'KRW', '원': 'KRW', '₹': 'INR', '円': 'JPY', '元': 'CNY',
  'US$': 'USD', 'U$': 'USD', 'A$': 'AUD', 'AU$': 'AUD', 'C$': 'CAD', 'CA$': 'CAD', 'NZ$': 'NZD',
  'HK$': 'HKD', 'S$': 'SGD', 'R$': 'BRL', 'MX$': 'MXN', 'NT$': 'TWD', 'FR.': 'CHF', 'SFR.': 'CHF',
};
const DOLLARS = new Set(['USD', 'CAD', 'AUD', 'NZD', 'HKD', 'SGD', 'MXN', 'TWD', 'BRL', 'CLP', 'COP', 'ARS']);
const YEN_YUAN = new Set(['JPY', 'CNY']);

const CODE = /^[A-Z]{3}$/;
const LEADING_MARK = /^[^\d.,+\-\u2212]*/;
// Where the trailing mark (a currency code or sign after the number) begins: a scan from the end.
// The expression /[^\d.,]*$/ would retry from every position and take time growing with the square
// of a long cell.
function trailingMarkStart(text: string): number {
  let at = text.length;
  while (at > 0) {
    const c = text.charCodeAt(at - 1);
    if ((c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2c) break;
    at--;
  }
  return at;
}
const NUMBER_CHARS = /^[\d.,'\s]+$/;
const SPLIT_DOT = /[.'\s]/;
const SPLIT_COMMA = /[,'\s]/;
const SPLIT_SPACE = /['\s]/;
const DIGITS = /^\d+$/;

/**
 * Parses `text` (not empty) into money of `currency`. `decimalSeparator` is the file's convention:
 * ',' for semicolon-separated files from locales that write "25,50"; a lone separator of the other
 * kind counts as a thousands separator only when exactly three digits follow it ("30,000").
 */
export function parseAmount(text: string, currency: string, decimalSeparator: DecimalSeparator): AmountResult {
  const shown = text.trim();
  // Most cells are a bare number ("25", "25.50"): read those without the general machinery, which
  // matters at 100,000 rows.
  const simple = simpleAmount(shown, currency, decimalSeparator);
  if (simple !== null) return simple;
  let rest = shown;
  let negative = false;
  if (rest.startsWith('-') || rest.startsWith('\u2212') || rest.startsWith('+')) {
    negative = rest[0] !== '+';
    rest = rest.slice(1).trim();
  }
  const prefix = LEADING_MARK.exec(rest)?.[0] ?? '';
  rest = rest.slice(prefix.length);
  if (rest.startsWith('-') || rest.startsWith('\u2212') || rest.startsWith('+')) {
    negative = negative || rest[0] !== '+';
    rest = rest.slice(1);
  }
  const suffix = rest.slice(trailingMarkStart(rest));
  const number = rest.slice(0, rest.length - suffix.length).trim();

  if (number === '' || !NUMBER_CHARS.test(number)) return refused(shown, 'is not an amount');
  for (const mark of [prefix.trim(), suffix.trim()]) {
    if (mark === '') continue;
    const problem = checkMark(mark, currency);
    if (problem !== null) return refused(shown, problem);
  }
  const plain = plainDecimal(number, decimalSeparator);
  if (plain === null) return refused(shown, 'is not an amount: check its thousands and decimal separators');
  if (negative) return refused(shown, 'is not a positive amount');
  let money: Money;
  try {
    money = parseDecimal(plain, currency);
  } catch (error) {
    if (!(error instanceof MoneyError)) throw error;
    if (error.message.includes('more decimals')) {
      const exp = currencyExponent(currency);
      return refused(shown, `has more decimals than ${currency.toUpperCase()} allows (${exp === 0 ? 'none' : exp})`);
    }
    return refused(shown, 'is too large an amount');
  }
  if (money.minor === 0) return refused(shown, 'is not a positive amount');
  return { ok: true, money };
}

// Digits with at most one decimal separator of the file's kind, else null for the general path.
function simpleAmount(shown: string, currency: string, decimalSeparator: DecimalSeparator): AmountResult | null {
  const sep = decimalSeparator.charCodeAt(0);
  const n = shown.length;
  let whole = 0;
  let wholeDigits = 0;
  let i = 0;
  for (; i < n; i++) {
    const c = shown.charCodeAt(i);
    if (c < 0x30 || c > 0x39) break;
    whole = whole * 10 + (c - 0x30);
    wholeDigits++;
  }
  if (wholeDigits === 0 || wholeDigits > 12) return null;
  const exp = exponentOf(currency);
  let frac = 0;
  if (i < n) {
    if (shown.charCodeAt(i) !== sep || i + 1 === n) return null;
    let fracDigits = 0;
    for (i++; i < n; i++) {
      const c = shown.charCodeAt(i);
      if (c < 0x30 || c > 0x39) return null;
      if (fracDigits < exp) frac = frac * 10 + (c - 0x30);
      else if (c !== 0x30) {
        for (; i < n; i++) if (shown.charCodeAt(i) < 0x30 || shown.charCodeAt(i) > 0x39) return null;
        return refused(shown, `has more decimals than ${currency.toUpperCase()} allows (${exp === 0 ? 'none' : exp})`);
      }
      fracDigits++;
    }
    for (; fracDigits < exp; fracDigits++) frac *= 10;
  } else {
    frac = 0;
  }
  const minor = whole * 10 ** exp + frac;
  if (minor === 0) return refused(shown, 'is not a positive amount');
  return { ok: true, money: { minor, currency: currency.toUpperCase() } };
}

// currencyExponent validates its argument each time; every row of a file has the same currency.
let cachedCurrency = '';
let cachedExponent = 2;
function exponentOf(currency: string): number {
  if (currency !== cachedCurrency) {
    cachedExponent = currencyExponent(currency);
    cachedCurrency = currency;
  }
  return cachedExponent;
}

function refused(shown: string, why: string): AmountResult {
  return { ok: false, reason: `"${shown}" ${why}` };
}

// Null when the mark fits the product's currency, else the reason it does not.
function checkMark(mark: string, currency: string): string | null {
  const upper = mark.toUpperCase();
  const product = currency.toUpperCase();
  if (upper === '$') return DOLLARS.has(product) ? null : `is in dollars, but the product is priced in ${product}`;
  if (upper === '¥' || upper === '￥') return YEN_YUAN.has(product) ? null : `is in yen or yuan, but the product is priced in ${product}`;
  const code = CODE.test(upper) ? upper : MARKS[upper];
  if (code === undefined) return 'is not an amount';
  return code === product ? null : `is in ${code}, but the product is priced in ${product}`;
}

// "1.234,56" → "1234.56", or null when the separators do not form a number.
function plainDecimal(number: string, decimalSeparator: DecimalSeparator): string | null {
  const lastDot = number.lastIndexOf('.');
  const lastComma = number.lastIndexOf(',');
  let decimalAt = -1;
  let group = '';
  if (lastDot >= 0 && lastComma >= 0) {
    decimalAt = Math.max(lastDot, lastComma);
    group = lastDot > lastComma ? ',' : '.';
  } else if (lastDot >= 0 || lastComma >= 0) {
    const sep = lastDot >= 0 ? '.' : ',';
    const at = Math.max(lastDot, lastComma);
    const once = number.indexOf(sep) === at;
    const threeAfter = number.length - at - 1 === 3;
    if (once && (sep === decimalSeparator || !threeAfter)) decimalAt = at;
    else group = sep;
  }
  const whole = decimalAt >= 0 ? number.slice(0, decimalAt) : number;
  const frac = decimalAt >= 0 ? number.slice(decimalAt + 1) : '';
  if (frac !== '' && !DIGITS.test(frac)) return null;
  const wholeDigits = ungroup(whole, group);
  if (wholeDigits === null) return null;
  if (wholeDigits === '' && frac === '') return null;
  return frac === '' ? wholeDigits || '0' : `${wholeDigits || '0'}.${frac}`;
}

// Thousands groups: the first of 1–3 digits, each later one exactly 3, one separator between groups.
function ungroup(whole: string, group: string): string | null {
  if (whole === '' || DIGITS.test(whole)) return whole;
  const parts = whole.split(group === '.' ? SPLIT_DOT : group === ',' ? SPLIT_COMMA : SPLIT_SPACE);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (!DIGITS.test(part) || (i === 0 ? part.length > 3 : part.length !== 3)) return null;
  }
  return parts.join('');
}
