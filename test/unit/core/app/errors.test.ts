import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError, classifyError, createRedactor } from '../../../../electron/core/app/errors.ts';
import { CampaignBusyError } from '../../../../electron/core/campaigns/send-queue.ts';
import { ConfigurationError } from '../../../../electron/core/connections.ts';
import { IllegalSendStateError } from '../../../../electron/core/db/repos/campaigns.ts';
import { campaignNotFoundMessage, CampaignNotFoundError, ServiceError } from '../../../../electron/core/engine.ts';
import { MoneyError } from '../../../../shared/domain/money.ts';

describe('classifyError', () => {
  it.each([
    [new AppError('conflict', 'busy'), 'conflict', 'busy'],
    [new CampaignNotFoundError('c_x', '/data'), 'not-found', campaignNotFoundMessage('c_x', '/data')],
    [new ConfigurationError('no address'), 'configuration', 'no address'],
    [new ServiceError('refused', 'auth'), 'service-auth', 'refused'],
    [new ServiceError('down', 'unreachable'), 'service-unreachable', 'down'],
    [new ServiceError('400', 'rejected'), 'service-rejected', '400'],
    [new ServiceError('no product', 'not-found'), 'not-found', 'no product'],
    [new CampaignBusyError('Campaign "Gala" is being sent right now by another Giftbatch'), 'conflict', 'Campaign "Gala" is being sent right now by another Giftbatch'],
  ] as const)('maps %s to its contract code and keeps its message', (error, code, message) => {
    expect(classifyError(error, 'x:y')).toMatchObject({ code, message, expected: true });
  });

  it('makes a zod failure invalid-input with a readable message naming the field', () => {
    const result = z.object({ campaignId: z.string() }).safeParse({});
    if (result.success) throw new Error('should fail');
    const classified = classifyError(result.error, 'campaigns:get');
    expect(classified.code).toBe('invalid-input');
    expect(classified.message).toMatch(/campaigns:get.*campaignId/s);
  });

  it('treats bad amounts as invalid input and impossible state moves as conflicts', () => {
    expect(classifyError(new MoneyError('"x" is not a decimal amount'), 'c').code).toBe('invalid-input');
    expect(classifyError(new IllegalSendStateError('draft to done'), 'c').code).toBe('conflict');
  });

  it('hides anything unexpected behind a generic internal message', () => {
    const classified = classifyError(new TypeError('cannot read x of undefined at /home/me/secret'), 'campaigns:list');
    expect(classified).toMatchObject({ code: 'internal', expected: false });
    expect(classified.message).not.toMatch(/undefined|secret/);
    expect(classified.message).toMatch(/campaigns:list/);
    expect(classifyError('a string', 'c').code).toBe('internal');
  });
});

describe('redactor', () => {
  it('masks every registered key wherever it appears, and ignores strings too short to be keys', () => {
    const r = createRedactor();
    r.add('sk_live_abcdef123456');
    r.add('abc');
    r.add(undefined);
    expect(r.redact('key sk_live_abcdef123456 was refused; sk_live_abcdef123456 again')).toBe('key [redacted key] was refused; [redacted key] again');
    expect(r.redact('abc stays')).toBe('abc stays');
  });
});
