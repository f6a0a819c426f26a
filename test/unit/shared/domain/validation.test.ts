import { describe, expect, it } from 'vitest';
import { money } from '../../../../shared/domain/money.ts';
import { validateRows, type ProductForValidation, type RowInput } from '../../../../shared/domain/validation.ts';

const fixed: ProductForValidation = { id: 1, currency: 'USD', price: { kind: 'fixed', amount: money(2500, 'USD') } };
const range: ProductForValidation = {
  id: 2,
  currency: 'USD',
  price: { kind: 'range', min: money(1000, 'USD'), max: money(10000, 'USD') },
};
const krw: ProductForValidation = {
  id: 3,
  currency: 'KRW',
  price: { kind: 'range', min: money(10000, 'KRW'), max: money(100000, 'KRW') },
};

let nextLine = 2;
const row = (fields: Partial<Omit<RowInput, 'line' | 'problem'>> = {}, extra: Partial<RowInput> = {}): RowInput => ({
  line: nextLine++,
  name: 'Ann Example',
  email: 'ann@example.com',
  amount: '',
  message: '',
  ...fields,
  ...extra,
});
const one = (input: RowInput, product = fixed, options = {}) => validateRows([input], product, options).rows[0]!;
const errorsOf = (input: RowInput, product = fixed, options = {}) => one(input, product, options).errors;

describe('validateRows: e-mail and name', () => {
  it('accepts a complete row and trims its fields', () => {
    const result = one(row({ name: '  Ann Example ', email: ' Ann@Example.com ', message: ' Thanks! ' }, { line: 14 }));
    expect(result).toEqual({
      line: 14,
      name: 'Ann Example',
      email: 'Ann@Example.com',
      amount: money(2500, 'USD'),
      amountText: null,
      message: 'Thanks!',
      errors: [],
      warnings: [],
      raw: [],
      repeatOf: null,
      earlierRecipient: false,
      productId: fixed.id,
    });
  });

  it('marks a valid row whose address an earlier valid line has, and one an earlier campaign had', () => {
    const rows = validateRows(
      [
        row({ email: 'bad@' }, { line: 2 }),
        row({ email: 'ann@example.com' }, { line: 3 }),
        row({ email: 'ANN@example.com' }, { line: 4 }),
        row({ email: 'bad@' }, { line: 5 }),
        row({ email: 'bo@example.com' }, { line: 6 }),
        // The first line of cy@ is invalid (no name): the first valid one is the one later ones repeat.
        row({ email: 'cy@example.com', name: '' }, { line: 7 }),
        row({ email: 'CY@example.com' }, { line: 8 }),
        row({ email: 'cy@example.com' }, { line: 9 }),
      ],
      fixed,
      { knownEmails: new Set(['bo@example.com']) },
    ).rows;
    expect(rows.map((r) => [r.line, r.repeatOf, r.earlierRecipient])).toEqual([
      [2, null, false],
      [3, null, false],
      [4, 3, false],
      [5, null, false],
      [6, null, true],
      [7, null, false],
      [8, null, false],
      [9, 8, false],
    ]);
  });

  it('keeps the cells a row was read from', () => {
    expect(one(row({}, { raw: ['Ann Example', 'ann@example.com', '', 'x'] })).raw).toEqual(['Ann Example', 'ann@example.com', '', 'x']);
  });

  it('names the line and the address when the e-mail is not valid', () => {
    expect(errorsOf(row({ email: 'bob@example' }, { line: 14 }))).toEqual([
      { field: 'email', message: 'Line 14: "bob@example" is not a valid e-mail address' },
    ]);
  });

  it('requires an e-mail address', () => {
    expect(errorsOf(row({ email: '  ' }, { line: 3 }))).toEqual([{ field: 'email', message: 'Line 3: the e-mail address is missing' }]);
  });

  it('refuses an e-mail address over 254 characters with its length', () => {
    expect(errorsOf(row({ email: `${'a'.repeat(60)}@${'b'.repeat(200)}.com` }, { line: 3 }))).toEqual([
      { field: 'email', message: 'Line 3: the e-mail address is 265 characters long; the limit is 254' },
    ]);
  });

  it('requires a name', () => {
    expect(errorsOf(row({ name: '' }, { line: 4 }))).toEqual([{ field: 'name', message: 'Line 4: the recipient name is missing' }]);
  });

  it('refuses a name over 200 characters', () => {
    expect(errorsOf(row({ name: 'x'.repeat(201) }, { line: 4 }))).toEqual([
      { field: 'name', message: 'Line 4: the name is 201 characters long; the limit is 200' },
    ]);
  });

  it('refuses a name with a line break in it', () => {
    expect(errorsOf(row({ name: 'Ann\nExample' }, { line: 4 }))).toEqual([
      { field: 'name', message: 'Line 4: the name "Ann\nExample" contains a line break or control character' },
    ]);
  });

  it('accepts a multi-line message within 1000 characters and refuses a longer one', () => {
    expect(errorsOf(row({ message: `Thanks\n${'x'.repeat(993)}` }))).toEqual([]);
    expect(errorsOf(row({ message: 'x'.repeat(1001) }, { line: 9 }))).toEqual([
      { field: 'message', message: 'Line 9: the message is 1001 characters long; the limit is 1000' },
    ]);
  });

  it('refuses a message with a control character other than a line break or tab', () => {
    expect(errorsOf(row({ message: 'Hi\u0007' }, { line: 9 }))).toEqual([
      { field: 'message', message: 'Line 9: the message contains a control character; remove it' },
    ]);
  });

  it('turns a reading problem from the parser into a row error', () => {
    expect(errorsOf(row({}, { line: 7, problem: 'the record has 2 fields but the header has 4' }))).toEqual([
      { field: 'row', message: 'Line 7: the record has 2 fields but the header has 4' },
    ]);
  });
});

describe('validateRows: amounts for a fixed-price product', () => {
  it('uses the product price when the amount is empty', () => {
    expect(one(row()).amount).toEqual(money(2500, 'USD'));
  });

  it('accepts an amount equal to the fixed price, however it is written', () => {
    for (const amount of ['25', '25.00', '$25', 'USD 25.0']) expect(errorsOf(row({ amount }))).toEqual([]);
  });

  it('refuses an amount that differs from the fixed price, naming both', () => {
    expect(errorsOf(row({ amount: '30' }, { line: 5 }))).toEqual([
      {
        field: 'amount',
        message: "Line 5: the amount USD 30.00 differs from the product's fixed price of USD 25.00; leave the amount empty or use the fixed price",
      },
    ]);
  });

  it('refuses an amount in another currency', () => {
    expect(errorsOf(row({ amount: '€25' }, { line: 5 }))).toEqual([
      { field: 'amount', message: 'Line 5: "€25" is in EUR, but the product is priced in USD' },
    ]);
  });

  it('refuses more decimals than the currency allows', () => {
    expect(errorsOf(row({ amount: '25.005' }, { line: 5 }))).toEqual([
      { field: 'amount', message: 'Line 5: "25.005" has more decimals than USD allows (2)' },
    ]);
  });

  it('sends nothing for a product whose fixed price is not in its own currency, and totals nothing', () => {
    const odd: ProductForValidation = { id: 4, currency: 'USD', price: { kind: 'fixed', amount: money(2500, 'EUR') } };
    const result = validateRows([row({}, { line: 5 }), row({ amount: '25' }, { line: 6 })], odd);
    for (const validated of result.rows) {
      expect(validated.amount).toBeNull();
      expect(validated.errors).toEqual([{ field: 'amount', message: `Line ${validated.line}: the product's price is in EUR, not in its currency USD` }]);
    }
    expect(result.totals).toMatchObject({ valid: 0, invalid: 2, totals: [] });
  });
});

describe('validateRows: amounts for a range product', () => {
  it('uses the row amount when present', () => {
    expect(one(row({ amount: '42.50' }), range).amount).toEqual(money(4250, 'USD'));
  });

  it('uses the default amount when the row has none', () => {
    expect(one(row(), range, { defaultAmount: money(2000, 'USD') }).amount).toEqual(money(2000, 'USD'));
  });

  it('refuses a row with no amount when no default is set', () => {
    expect(errorsOf(row({}, { line: 6 }), range)).toEqual([
      { field: 'amount', message: 'Line 6: no amount and no default amount: enter an amount or set a default amount' },
    ]);
  });

  it('refuses a default amount in another currency', () => {
    expect(errorsOf(row({}, { line: 6 }), range, { defaultAmount: money(2000, 'EUR') })).toEqual([
      { field: 'amount', message: "Line 6: the default amount EUR 20.00 is not in the product's currency USD" },
    ]);
  });

  it('accepts the bounds themselves and refuses amounts outside them, naming the bounds with the currency', () => {
    expect(errorsOf(row({ amount: '10' }), range)).toEqual([]);
    expect(errorsOf(row({ amount: '100' }), range)).toEqual([]);
    expect(errorsOf(row({ amount: '9.99' }, { line: 8 }), range)).toEqual([
      { field: 'amount', message: "Line 8: the amount USD 9.99 is outside the product's range of USD 10.00 to USD 100.00" },
    ]);
    expect(errorsOf(row({ amount: '100.01' }, { line: 8 }), range)).toEqual([
      { field: 'amount', message: "Line 8: the amount USD 100.01 is outside the product's range of USD 10.00 to USD 100.00" },
    ]);
  });

  it('checks a default amount against the range too', () => {
    expect(errorsOf(row({}, { line: 8 }), range, { defaultAmount: money(500, 'USD') })).toEqual([
      { field: 'amount', message: "Line 8: the amount USD 5.00 is outside the product's range of USD 10.00 to USD 100.00" },
    ]);
  });

  it('reads decimal commas when the file uses them', () => {
    expect(one(row({ amount: '25,50' }), range, { decimalSeparator: ',' }).amount).toEqual(money(2550, 'USD'));
  });

  it('reads won amounts with thousands separators', () => {
    expect(one(row({ amount: '30,000' }), krw).amount).toEqual(money(30000, 'KRW'));
  });
});

describe('validateRows: duplicates and totals', () => {
  it('warns on every repeat of an e-mail after the first, naming the first line, without making it invalid', () => {
    const result = validateRows(
      [
        row({ email: 'ann@example.com' }, { line: 3 }),
        row({ email: 'bob@example.com' }, { line: 4 }),
        row({ email: ' ANN@example.com' }, { line: 9 }),
        row({ email: 'ann@EXAMPLE.com' }, { line: 12 }),
      ],
      fixed,
    );
    expect(result.rows.map((r) => r.warnings)).toEqual([
      [],
      [],
      [{ field: 'email', message: 'Line 9: "ANN@example.com" also appears on line 3' }],
      [{ field: 'email', message: 'Line 12: "ann@EXAMPLE.com" also appears on line 3' }],
    ]);
    expect(result.totals).toMatchObject({ rows: 4, valid: 4, invalid: 0, duplicateEmails: 2 });
  });

  it('warns when an e-mail was a recipient in an earlier campaign', () => {
    const result = one(row({ email: 'Ann@Example.com' }, { line: 3 }), fixed, { knownEmails: new Set(['ann@example.com']) });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([
      { field: 'email', message: 'Line 3: "Ann@Example.com" was already a recipient in an earlier campaign' },
    ]);
  });

  it('counts valid and invalid rows and totals only the valid amounts, per currency', () => {
    const result = validateRows(
      [row({ amount: '20' }), row({ amount: '30.50' }), row({ amount: '5' }), row({ email: 'nope', amount: '50' })],
      range,
    );
    expect(result.totals).toEqual({
      rows: 4,
      valid: 2,
      invalid: 2,
      duplicateEmails: 2,
      knownEmails: 0,
      totals: [money(5050, 'USD')],
    });
  });

  it('reports an empty list as zero rows with no totals', () => {
    expect(validateRows([], fixed).totals).toEqual({ rows: 0, valid: 0, invalid: 0, duplicateEmails: 0, knownEmails: 0, totals: [] });
  });
});
