// What an order costs the account: price × rate × (1 + fee), rounded half-up to the account
// currency's minor unit, computed exactly (see decimal.ts).

import type { Money } from '../../shared/domain/money.ts';
import { CROSS_CURRENCY_FEE_RATE, exchangeRate } from './catalog.ts';
import { add, dec, decToMoney, moneyToDec, mul, ONE, ZERO, type Decimal } from './decimal.ts';

export interface Quote {
  readonly rate: Decimal;
  readonly feeRate: Decimal;
  readonly charged: Money;
}

export function quote(price: Money, accountCurrency: string): Quote {
  const same = price.currency === accountCurrency;
  const rate = exchangeRate(price.currency, accountCurrency);
  const feeRate = same ? ZERO : dec(CROSS_CURRENCY_FEE_RATE);
  const exact = mul(mul(moneyToDec(price), rate), add(ONE, feeRate));
  return { rate, feeRate, charged: decToMoney(exact, accountCurrency) };
}
