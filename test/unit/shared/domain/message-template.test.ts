import { describe, expect, it } from 'vitest';
import { cellsByHeader, fillMessage, type MessageFields } from '../../../../shared/domain/message-template.ts';
import { money } from '../../../../shared/domain/money.ts';
import {
  MAX_MESSAGE_LENGTH,
  messageTemplateOf,
  rowMessage,
  validateRows,
  type ProductForValidation,
  type RowInput,
} from '../../../../shared/domain/validation.ts';

const fields = (overrides: Partial<MessageFields> = {}): MessageFields => ({
  name: 'Ann Example',
  amount: money(2500, 'USD'),
  columns: { Name: 'Ann Example', Email: 'ann@example.com', Team: ' Speakers ', 'Favourite drink': 'Flat white' },
  ...overrides,
});
const filled = (template: string, f: MessageFields = fields()) => {
  const result = fillMessage(template, f);
  if (!result.ok) throw new Error(`expected "${template}" to fill in, got: ${result.problem}`);
  return result.text;
};
const problem = (template: string, f: MessageFields = fields()) => {
  const result = fillMessage(template, f);
  if (result.ok) throw new Error(`expected "${template}" to be refused, got: ${result.text}`);
  return result.problem;
};

describe('fillMessage: the fields', () => {
  it('returns a message without braces as it is', () => {
    expect(filled('Thank you for coming!')).toBe('Thank you for coming!');
    expect(filled('')).toBe('');
  });

  it('fills {name} with the recipient name', () => {
    expect(filled('Dear {name},')).toBe('Dear Ann Example,');
  });

  it('fills {amount} as the recipient reads it (formatMoney), in the currency\'s decimals', () => {
    expect(filled('A gift of {amount}')).toBe('A gift of USD 25.00');
    expect(filled('{amount}', fields({ amount: money(30000, 'KRW') }))).toBe('KRW 30000');
    expect(filled('{amount}', fields({ amount: money(12345, 'KWD') }))).toBe('KWD 12.345');
  });

  it('fills {first_name} with the first word of the name when the file has no first-name column', () => {
    expect(filled('Hi {first_name}!')).toBe('Hi Ann!');
    expect(filled('Hi {first_name}!', fields({ name: 'Zoë  van der Berg' }))).toBe('Hi Zoë!');
  });

  it('fills {first_name} from a first-name column, even with several words, and falls back to the name when its cell is empty', () => {
    const columns = { 'First name': 'Mary Ann', 'Last name': 'Lee', Email: 'm@example.com' };
    expect(filled('Hi {first_name}', fields({ name: 'Mary Ann Lee', columns }))).toBe('Hi Mary Ann');
    expect(filled('Hi {first_name}', fields({ name: 'Mary Ann Lee', columns: { ...columns, 'First name': '  ' } }))).toBe('Hi Mary');
    // A German export's Vorname is recognised as the first-name column too.
    expect(filled('Hallo {first_name}', fields({ name: 'Jürgen Groß', columns: { Vorname: 'Jürgen', Nachname: 'Groß' } }))).toBe('Hallo Jürgen');
  });

  it('fills any column by its header, trimmed, matched as headers are (case, spaces and punctuation ignored)', () => {
    expect(filled('Team: {Team}')).toBe('Team: Speakers');
    expect(filled('{team}/{TEAM}/{ team }')).toBe('Speakers/Speakers/Speakers');
    expect(filled('Enjoy a {favourite_drink} on us')).toBe('Enjoy a Flat white on us');
    expect(filled('{Favourite drink}')).toBe('Flat white');
  });

  it('spells {first_name} in any of the ways a header may be written', () => {
    expect(filled('{First Name} {firstname} {FIRST-NAME}')).toBe('Ann Ann Ann');
  });

  it('lets the three built-in fields win over a column of the same name', () => {
    const columns = { Name: 'ann example (from the file)', Amount: '25' };
    expect(filled('{name} {amount}', fields({ columns }))).toBe('Ann Example USD 25.00');
  });

  it('fills an empty cell as nothing and says which column fields were empty; an absent amount is nothing too', () => {
    expect(fillMessage('[{Team}] [{team}] [{Email}]', fields({ columns: { Team: ' ', Email: 'a@b.c' } }))).toEqual({ ok: true, text: '[] [] [a@b.c]', empty: ['{Team}'] });
    expect(fillMessage('[{amount}]', fields({ amount: null }))).toEqual({ ok: true, text: '[]', empty: [] });
  });

  it('keeps non-ASCII text, fields and cells as they are', () => {
    const columns = { 이름: '김민수', 'Équipe': 'Bénévoles 🎉' };
    expect(filled('{이름}님, 감사합니다! {équipe} — {amount}', fields({ name: '김민수', amount: money(30000, 'KRW'), columns }))).toBe(
      '김민수님, 감사합니다! Bénévoles 🎉 — KRW 30000',
    );
  });

  it('does not read a filled-in cell as a template', () => {
    expect(filled('{Team}', fields({ columns: { Team: '{name} }{' } }))).toBe('{name} }{');
  });

  it('fills every occurrence of a field, and a template of fields only', () => {
    expect(filled('{first_name}{first_name}')).toBe('AnnAnn');
  });
});

describe('fillMessage: literal braces', () => {
  it('writes {{ as { and }} as }', () => {
    expect(filled('Use {{braces}} like this')).toBe('Use {braces} like this');
    expect(filled('{{{name}}}')).toBe('{Ann Example}');
    expect(filled('}}{{')).toBe('}{');
  });

  it('refuses a lone "}" and says how to write a brace', () => {
    expect(problem('Enjoy :-}')).toBe('the message has a "}" that closes no field; write }} for a brace');
  });

  it('refuses a "{" that is never closed, or closed only after another "{"', () => {
    expect(problem('Enjoy :-{')).toBe('the message has a "{" that starts a field with no "}" after it; write {{ for a brace');
    expect(problem('{name {Team}')).toBe('the message has a "{" that starts a field with no "}" after it; write {{ for a brace');
  });
});

describe('fillMessage: unknown fields', () => {
  it('names the unknown field and lists what the message can use', () => {
    expect(problem('Hi {nickname}!')).toBe(
      'the message uses {nickname}, which is neither a column of the file nor a field; it can use {first_name}, {name}, {amount}, {Name}, {Email}, {Team}, {Favourite drink} (write {{ for a brace)',
    );
  });

  it('names every unknown field once', () => {
    expect(problem('{a} {b} {a} {c}', fields({ columns: {} }))).toBe(
      'the message uses {a}, {b} and {c}, which are neither a column of the file nor a field; it can use {first_name}, {name}, {amount} (write {{ for a brace)',
    );
  });

  it('refuses an empty field and one of punctuation only', () => {
    expect(problem('{}', fields({ columns: {} }))).toContain('the message uses {}, which is');
    expect(problem('{ - }', fields({ columns: {} }))).toContain('the message uses {-}, which is');
  });

  it('lists at most eight columns', () => {
    const columns = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`Col ${i + 1}`, 'x']));
    expect(problem('{nope}', fields({ columns }))).toContain('{Col 8}, … (write');
  });
});

describe('cellsByHeader', () => {
  it('names cells by header, "column N" past the header, the later of two equal headers kept', () => {
    expect(cellsByHeader(['Name', 'Email', 'Name'], ['a', 'b', 'c', 'd'])).toEqual({ Name: 'c', Email: 'b', 'column 4': 'd' });
  });
});

describe('rowMessage: what an order carries', () => {
  it('is null without a template, the filled text with one', () => {
    expect(rowMessage(null, fields())).toEqual({ ok: true, text: null, empty: [] });
    expect(rowMessage('  ', fields())).toEqual({ ok: true, text: null, empty: [] });
    expect(rowMessage('Hi {first_name}', fields())).toEqual({ ok: true, text: 'Hi Ann', empty: [] });
  });

  it('refuses a message that is over the limit once filled in, with its length', () => {
    const long = { ...fields().columns, Speech: 'x'.repeat(MAX_MESSAGE_LENGTH) };
    expect(rowMessage('Hi {name}: {Speech}', fields({ columns: long }))).toEqual({
      ok: false,
      problem: `the message is ${MAX_MESSAGE_LENGTH + 16} characters long with its fields filled in; the limit is ${MAX_MESSAGE_LENGTH}`,
    });
    expect(rowMessage('{Speech}', fields({ columns: long }))).toEqual({ ok: true, text: 'x'.repeat(MAX_MESSAGE_LENGTH), empty: [] });
  });

  it('refuses a control character a cell brought in', () => {
    expect(rowMessage('Team {Team}', fields({ columns: { Team: 'A\u0007B' } }))).toEqual({
      ok: false,
      problem: 'the message contains a control character with its fields filled in; remove it',
    });
  });

  it('takes the row\'s own message before the campaign\'s', () => {
    expect(messageTemplateOf('Own', 'Default')).toBe('Own');
    expect(messageTemplateOf('  ', 'Default')).toBe('Default');
    expect(messageTemplateOf(null, '')).toBeNull();
  });
});

const fixed: ProductForValidation = { id: 1, currency: 'USD', price: { kind: 'fixed', amount: money(2500, 'USD') } };
const headers = ['Name', 'Email', 'Team', 'Message'];
const fileRow = (line: number, cells: [string, string, string, string]): RowInput => ({
  line,
  name: cells[0],
  email: cells[1],
  amount: '',
  message: cells[3],
  raw: cells,
  headers,
});

describe('validateRows: each row\'s message filled in, errors with their line', () => {
  const rows = [
    fileRow(2, ['Ann Example', 'ann@example.com', 'Speakers', '']),
    fileRow(3, ['Bob Example', 'bob@example.com', 'Crew', 'Thanks {first_name} from {Tema}']),
    fileRow(5, ['Cy Example', 'cy@example.com', 'Crew', 'Thanks {first_name}!']),
    fileRow(6, ['Di Example', 'di@example.com', 'x'.repeat(990), '']),
  ];
  const check = (defaultMessage: string | null) => validateRows(rows, fixed, { defaultMessage });

  it('gives an unknown field its line and the field, and counts the row invalid with its amount out of the total', () => {
    const result = check('Dear {name} of {Team}');
    expect(result.rows.map((r) => r.errors)).toEqual([
      [],
      [{ field: 'message', message: expect.stringMatching(/^Line 3: the message uses \{Tema\}, which is neither a column/) }],
      [],
      [{ field: 'message', message: 'Line 6: the message is 1009 characters long with its fields filled in; the limit is 1000' }],
    ]);
    expect(result.totals).toMatchObject({ rows: 4, valid: 2, invalid: 2, totals: [money(5000, 'USD')] });
  });

  it('checks the default message only for rows without their own', () => {
    const result = check(null);
    expect(result.rows.map((r) => r.errors.length)).toEqual([0, 1, 0, 0]);
    expect(result.totals).toMatchObject({ valid: 3, invalid: 1, totals: [money(7500, 'USD')] });
  });

  it('warns of a column field that is empty on the line, with the message as it reads', () => {
    const result = validateRows([fileRow(4, ['Ann Example', 'ann@example.com', '', 'Hi {first_name} of {Team}!'])], fixed);
    expect(result.rows[0]!.errors).toEqual([]);
    expect(result.rows[0]!.warnings).toEqual([{ field: 'message', message: 'Line 4: the message\'s {Team} is empty on this line, so it reads "Hi Ann of !"' }]);
    expect(result.totals.valid).toBe(1);
  });

  it('keeps the row\'s message as written: the template, not the filled text', () => {
    expect(check('Hi {first_name}').rows[2]!.message).toBe('Thanks {first_name}!');
  });

  it('takes a stored row\'s cells from its columns', () => {
    const stored: RowInput = { line: 7, name: 'Ed Example', email: 'ed@example.com', amount: '', message: 'Hi {Team}', columns: { Team: 'Crew' } };
    expect(validateRows([stored], fixed).rows[0]!.errors).toEqual([]);
    expect(validateRows([{ ...stored, columns: {} }], fixed).rows[0]!.errors[0]?.message).toMatch(/^Line 7: the message uses \{Team\}/);
  });

  it('does not count a row whose message fails as the first of its address: a later line with it is the first valid one', () => {
    const result = validateRows(
      [fileRow(2, ['Ann Example', 'ann@example.com', 'x', 'Hi {nope}']), fileRow(3, ['Ann Example', 'ann@example.com', 'x', 'Hi {name}'])],
      fixed,
    );
    expect(result.rows.map((r) => r.repeatOf)).toEqual([null, null]);
  });

  it('leaves a row whose message is already refused as written with that one error', () => {
    const result = validateRows([fileRow(9, ['Ann Example', 'ann@example.com', 'x', `{nope}${'y'.repeat(1000)}`])], fixed);
    expect(result.rows[0]!.errors).toEqual([{ field: 'message', message: 'Line 9: the message is 1006 characters long; the limit is 1000' }]);
  });
});
