import { describe, expect, it } from 'vitest';
import { defaultMessageProblem } from '../../../../renderer/src/features/new-campaign/default-message.ts';

const reason = 'the message uses {Evnt}, which is neither a column of the file nor a field';

describe('defaultMessageProblem (from the preview\'s defaultMessage)', () => {
  it('is null when no row using the default message fails it', () => {
    expect(defaultMessageProblem({ defaultMessage: null })).toBeNull();
  });

  it('names the line and the reason for one row', () => {
    expect(defaultMessageProblem({ defaultMessage: { rows: 1, firstLine: 3, reason } })).toBe(
      'The message from the gift step cannot be sent on line 3: the message uses {Evnt}, which is neither a column of the file nor a field. Go back to the gift step to change it.',
    );
  });

  it('counts the rows and names the first', () => {
    expect(defaultMessageProblem({ defaultMessage: { rows: 2_500, firstLine: 7, reason } })).toBe(
      `The message from the gift step cannot be sent on 2500 rows (the first on line 7): ${reason}. Go back to the gift step to change it.`,
    );
  });
});
