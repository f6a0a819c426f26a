// How money reads on screen: "USD 1,234.50", from the exact decimal text the contract carries.
// No floats on the way: the text is regrouped, never converted to a number.
import type { MoneyDto } from '../../../shared/contract.ts';
import { exactAmount, parseDecimal, toDecimal, totalsByCurrency, type Money } from '../../../shared/domain/money.ts';

/** Groups the whole part of a plain decimal by thousands: "1234567.5" → "1,234,567.5". */
export function groupDigits(decimal: string): string {
  const match = /^(-?)(\d+)(\.\d+)?$/.exec(decimal);
  if (!match) return decimal;
  const [, sign = '', whole = '', frac = ''] = match;
  return `${sign}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${frac}`;
}

/** The amount with exactly its currency's decimals, when it parses; else as it came. */
export function normalizedDecimal(m: MoneyDto): string {
  try {
    return toDecimal(parseDecimal(m.amount, m.currency, { round: true }));
  } catch {
    return m.amount;
  }
}

export function formatMoneyDto(m: MoneyDto): string {
  return `${m.currency} ${groupDigits(normalizedDecimal(m))}`;
}

/**
 * An amount the service stated (a charge, what it issued), exactly as given: never rounded, padded
 * to at least its currency's decimals ("USD 7.4925", "USD 25.00"); text that is no decimal as it came.
 */
export function formatStated(m: MoneyDto): string {
  try {
    return `${m.currency} ${groupDigits(exactAmount(m.amount, m.currency).amount)}`;
  } catch {
    return `${m.currency} ${m.amount}`;
  }
}

/** Totals per currency, one after the other; never added across currencies. */
export function formatTotals(list: readonly MoneyDto[], empty = '—', format: (m: MoneyDto) => string = formatMoneyDto): string {
  if (list.length === 0) return empty;
  return list.map(format).join(' · ');
}

export function toMoney(m: MoneyDto): Money | null {
  try {
    return parseDecimal(m.amount, m.currency, { round: true });
  } catch {
    return null;
  }
}

export function toDto(m: Money): MoneyDto {
  return { currency: m.currency, amount: toDecimal(m) };
}

/** Sums amounts per currency (amounts that do not parse are left out rather than guessed). */
export function sumByCurrency(list: Iterable<MoneyDto | null>): MoneyDto[] {
  const parsed: Money[] = [];
  for (const m of list) {
    if (!m) continue;
    const money = toMoney(m);
    if (money) parsed.push(money);
  }
  return totalsByCurrency(parsed).map(toDto);
}

export type PriceDto = { kind: 'fixed'; amount: MoneyDto } | { kind: 'range'; min: MoneyDto; max: MoneyDto };

export function formatPrice(price: PriceDto): string {
  if (price.kind === 'fixed') return formatMoneyDto(price.amount);
  return `${formatMoneyDto(price.min)} – ${groupDigits(normalizedDecimal(price.max))}`;
}

/** "1 KRW = 0.00075 USD": the service's rate goes from the product currency to the account currency. */
export function formatRate(from: string, to: string, rate: string): string {
  return `1 ${from} = ${rate} ${to}`;
}

export interface RateView {
  from: string;
  to: string;
  rate: string;
}

/** The distinct exchange rates among rows that were charged in another currency than their amount's. */
export function exchangeRates(rows: Iterable<{ amount: MoneyDto | null; charged: MoneyDto | null; exchangeRate: string | null }>): RateView[] {
  const seen = new Map<string, RateView>();
  for (const r of rows) {
    if (!r.amount || !r.charged || r.exchangeRate === null) continue;
    if (r.amount.currency === r.charged.currency && Number(r.exchangeRate) === 1) continue;
    const key = `${r.amount.currency}>${r.charged.currency}:${r.exchangeRate}`;
    if (!seen.has(key)) seen.set(key, { from: r.amount.currency, to: r.charged.currency, rate: r.exchangeRate });
  }
  return [...seen.values()];
}
