import { describe, expect, it } from 'vitest';
import { inCliWords } from '../../../electron/cli/status.ts';
import { authDetail, breakerDetail } from '../../../electron/core/campaigns/send-outcome.ts';

// The engine's pause details name the window's Resume button; the CLI says the command instead.
describe('inCliWords', () => {
  it('says `giftbatch resume ID` where the engine says to press Resume, at a sentence start or inside one', () => {
    expect(inCliWords('Sending was paused. Press Resume to send the rest.', 'c_1')).toBe('Sending was paused. Run `giftbatch resume c_1` to send the rest.');
    expect(inCliWords(authDetail('HTTP 401'), 'c_2')).toBe(
      'The service rejected the API key, so sending stopped (HTTP 401). Set the key for this environment again, then run `giftbatch resume c_2`.',
    );
    expect(inCliWords(breakerDetail(8, { kind: 'ambiguous', reason: 'timeout', status: undefined, endpoint: 'POST /v1/orders', message: 'timeout' }), 'c_3')).toBe(
      '8 requests in a row got no clear answer (last: timeout on POST /v1/orders). Sending paused; run `giftbatch resume c_3` when the service is back.',
    );
  });

  it('leaves words that name no button as they are', () => {
    expect(inCliWords('Sending is done: 60 ordered, 0 failed.', 'c_1')).toBe('Sending is done: 60 ordered, 0 failed.');
    expect(inCliWords('resume later', 'c_1')).toBe('resume later');
  });
});
