import { describe, expect, it } from 'vitest';
import type { Preview } from '../../../../renderer/src/stores/wizard-store.ts';
import { defaultMessageProblem } from '../../../../renderer/src/features/new-campaign/default-message.ts';

const unknown = (line: number) => ({ field: 'message', message: `Line ${line}: the message uses {Evnt}, which is neither a column of the file nor a field` });
const row = (line: number, message: string, errors: { field: string; message: string }[] = []) => ({
  line,
  name: 'A',
  email: 'a@example.com',
  amount: null,
  message,
  errors,
  warnings: [],
});
const preview = (rows: ReturnType<typeof row>[]) => ({ rows }) as unknown as Preview;

describe('defaultMessageProblem', () => {
  it('is null when every row using the default message can send it', () => {
    expect(defaultMessageProblem(preview([row(2, ''), row(3, 'Own {nope}', [unknown(3)])]))).toBeNull();
  });

  it('names the line and the reason for one row', () => {
    expect(defaultMessageProblem(preview([row(2, 'Own'), row(3, '', [unknown(3)])]))).toBe(
      'The message from the gift step cannot be sent on line 3: the message uses {Evnt}, which is neither a column of the file nor a field. Go back to the gift step to change it.',
    );
  });

  it('counts the rows and names the first', () => {
    expect(defaultMessageProblem(preview([row(2, '', [unknown(2)]), row(3, '', [unknown(3)]), row(4, '', [{ field: 'email', message: 'Line 4: bad' }])]))).toMatch(
      /^The message from the gift step cannot be sent on 2 rows \(the first on line 2\): the message uses \{Evnt\}/,
    );
  });
});
