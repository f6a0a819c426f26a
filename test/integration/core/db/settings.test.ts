import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { CorruptRowError } from '../../../../electron/core/db/parse.ts';
import {
  deleteSetting,
  getSetting,
  SecretSettingError,
  setSetting,
} from '../../../../electron/core/db/repos/settings.ts';
import { T0, tempDb } from '../../../support/db-seed.ts';

describe('settings', () => {
  it('store JSON values and read them back parsed, with a fallback when unset', () => {
    const { db } = tempDb();
    const env = z.enum(['simulator', 'sandbox', 'production']);
    expect(getSetting(db, 'environment.current', env, 'simulator')).toBe('simulator');
    setSetting(db, 'environment.current', 'sandbox', T0);
    setSetting(db, 'rate.sandbox', { perSecond: 2 }, T0);
    expect(getSetting(db, 'environment.current', env, 'simulator')).toBe('sandbox');
    setSetting(db, 'environment.current', 'production', T0 + 1);
    expect(getSetting(db, 'environment.current', env, 'simulator')).toBe('production');
    expect(getSetting(db, 'rate.sandbox', z.object({ perSecond: z.number() }), { perSecond: 0 })).toEqual({ perSecond: 2 });
    expect(deleteSetting(db, 'rate.sandbox')).toBe(true);
    expect(deleteSetting(db, 'rate.sandbox')).toBe(false);
  });

  it('a stored value that no longer fits its schema is reported, not cast', () => {
    const { db } = tempDb();
    setSetting(db, 'rate.sandbox', 'fast', T0);
    expect(() => getSetting(db, 'rate.sandbox', z.number(), 1)).toThrow(CorruptRowError);
  });

  it('never store anything named like an API key, at the top or nested', () => {
    const { db } = tempDb();
    expect(() => setSetting(db, 'apiKey.sandbox', 'sk_live_123', T0)).toThrow(SecretSettingError);
    expect(() => setSetting(db, 'sandbox.token', 'x', T0)).toThrow(SecretSettingError);
    expect(() =>
      setSetting(db, 'environments', { sandbox: { baseUrl: 'https://sandbox.example', api_key: 'sk' } }, T0),
    ).toThrow(SecretSettingError);
    expect(db.prepare('SELECT count(*) FROM settings').pluck().get()).toBe(0);
  });
});
