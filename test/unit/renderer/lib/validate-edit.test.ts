import { describe, expect, it } from 'vitest';
import { amountErrorShort, editErrors } from '../../../../renderer/src/lib/validate-edit.ts';
import { money } from '../../../../shared/domain/money.ts';
import type { ProductForValidation } from '../../../../shared/domain/validation.ts';

const fixed: ProductForValidation = { id: 1, currency: 'USD', price: { kind: 'fixed', amount: money(1000, 'USD') } };
const fields = (message: string) => ({ name: 'Grace Hopper', email: 'grace@example.com', amount: '', message });

describe('editErrors: a personal message as the person types it', () => {
  it('fills the message in from the row\'s cells, as the engine will on save', () => {
    expect(editErrors(fixed, 3, fields('Thanks for {Event}, {first_name}: {amount}'), undefined, { Event: 'Gala' })).toEqual({});
  });

  it('names an unknown field without the line prefix, like the other live errors', () => {
    expect(editErrors(fixed, 3, fields('Thanks for {Evnt}'), undefined, { Event: 'Gala' }).message).toMatch(
      /^the message uses \{Evnt\}, which is neither a column of the file nor a field; it can use \{first_name\}, \{name\}, \{amount\}, \{Event\}/,
    );
  });

  it('refuses a lone brace and a message too long once filled in', () => {
    expect(editErrors(fixed, 3, fields('Enjoy :-}')).message).toBe('the message has a "}" that closes no field; write }} for a brace');
    expect(editErrors(fixed, 3, fields(`${'x'.repeat(990)} {name}`)).message).toBe(
      'the message is 1003 characters long with its fields filled in; the limit is 1000',
    );
  });
});

describe('amountErrorShort: the one line under the editor\'s Amount input', () => {
  const range: ProductForValidation = { id: 2, currency: 'USD', price: { kind: 'range', min: money(500, 'USD'), max: money(50000, 'USD') } };
  const amountError = (product: ProductForValidation, amount: string) => {
    const error = editErrors(product, 4, { name: 'Grace Hopper', email: 'grace@example.com', amount, message: '' }).amount;
    if (error === undefined) throw new Error('expected an amount error');
    return amountErrorShort(error, amount, product);
  };

  it('says what to type for an amount the product refuses, not the start of the sentence', () => {
    expect(amountError(range, '900')).toBe('At most 500.00');
    expect(amountError(range, '4.99')).toBe('At least 5.00');
    expect(amountError(fixed, '12')).toBe('Must be 10.00');
  });

  it('keeps any other amount error as it is', () => {
    expect(amountError(range, 'ten')).toBe(editErrors(range, 4, { name: 'G', email: 'g@example.com', amount: 'ten', message: '' }).amount);
    expect(amountError(range, '20 EUR')).toBe('"20 EUR" is in EUR, but the product is priced in USD');
  });
});
