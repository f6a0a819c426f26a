import { describe, expect, it } from 'vitest';
import { chargedCurrencies, chargeNote } from '../../../../renderer/src/lib/charge-currency.ts';
import { summary } from '../helpers/fakes.ts';

const eur = [{ currency: 'EUR', amount: '195.50' }];

describe('what the confirmation says about the charge currency', () => {
  it('learns the currencies charged before from this environment’s campaigns only', () => {
    const list = [
      summary({ environment: 'sandbox', charged: [{ currency: 'USD', amount: '215.36' }] }),
      summary({ environment: 'sandbox', charged: [] }),
      summary({ environment: 'production', charged: [{ currency: 'GBP', amount: '10.00' }] }),
    ];
    expect(chargedCurrencies(list, 'sandbox')).toEqual(['USD']);
    expect(chargedCurrencies(list, 'simulator')).toEqual([]);
  });

  it('says a EUR total on an account charged in USD before is an estimate charged in USD at the service’s rate and fee', () => {
    const note = chargeNote(eur, ['USD']);
    expect(note?.estimate).toBe(true);
    expect(note?.text).toContain("face value in EUR; earlier orders here were charged in USD, so expect the charge in USD, converted at the service's rate and with its fee");
    // No rate is guessed: no figure but what was given.
    expect(note?.text).not.toMatch(/\d/);
  });

  it('says plainly the charge may be in the account’s currency when the app does not know it', () => {
    for (const known of [[], ['GBP', 'USD']]) {
      const note = chargeNote(eur, known);
      expect(note).toEqual({
        text: "Your balance is charged in your account's currency: if that is not EUR, the amount is converted at the service's rate and may include its fee. Each row shows what was charged once ordered.",
        estimate: false,
      });
    }
  });

  it('says the known currency when it is the total’s, and nothing without a total', () => {
    expect(chargeNote([{ currency: 'USD', amount: '110.00' }], ['USD'])).toEqual({ text: 'Your balance is charged in USD, as earlier orders here were.', estimate: false });
    expect(chargeNote([], ['USD'])).toBeNull();
  });
});
