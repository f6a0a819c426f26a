// Where the window lands when it loads. A fresh first launch (no screen in the address bar) shows the
// welcome; a reload keeps the screen the person was on, even if they never pressed a button of the
// welcome (they went to Environments from the header and sent a campaign): before, such a reload of
// a campaign of 300 sent gifts landed on the welcome instead.
import { describe, expect, it } from 'vitest';
import type { CallOutput } from '../../../../shared/contract.ts';
import { contractFingerprint } from '../../../../shared/contract-fingerprint.ts';
import { createStores } from '../../../../renderer/src/stores/index.ts';
import { fakeApi, ManualClock, ok, summary } from '../helpers/fakes.ts';

const info = (firstLaunch: boolean): CallOutput<'app:info'> => ({
  version: '1.0.0',
  shell: 'browser',
  environment: 'sandbox',
  firstLaunch,
  keychain: { available: true, notice: null },
  sampleCsvName: 'sample-recipients.csv',
  contract: contractFingerprint(),
});

function load(firstLaunch: boolean, campaigns: CallOutput<'campaigns:list'>['campaigns'] = []) {
  const clock = new ManualClock();
  const fake = fakeApi({ 'app:info': () => ok(info(firstLaunch)), 'campaigns:list': () => ok({ campaigns }) });
  return createStores({ api: fake.api, timers: clock, now: clock.now }).app;
}

describe('the screen the window loads on', () => {
  it('is the welcome on a first launch opened afresh', async () => {
    const app = load(true);
    await app.getState().load(null);
    expect(app.getState().route).toEqual({ name: 'welcome' });
  });

  it('is the campaign in the address bar on a reload, though the welcome was never dismissed', async () => {
    const app = load(true);
    await app.getState().load({ name: 'campaign', id: 'c_1' });
    expect(app.getState().phase).toBe('ready');
    expect(app.getState().route).toEqual({ name: 'campaign', id: 'c_1' });
  });

  it('is the list, not the welcome, when the data folder already holds campaigns (made with the CLI)', async () => {
    const app = load(true, [summary({ id: 'c_cli', name: 'Made with giftbatch send' })]);
    await app.getState().load(null);
    expect(app.getState().route).toEqual({ name: 'campaigns' });
    // The welcome is still there for whoever opens it by its address.
    await app.getState().load({ name: 'welcome' });
    expect(app.getState().route).toEqual({ name: 'welcome' });
  });

  it('is the error screen, not the welcome, when the list of campaigns cannot be read on a first launch', async () => {
    const clock = new ManualClock();
    const fake = fakeApi({ 'app:info': () => ok(info(true)), 'campaigns:list': () => ({ ok: false, error: { code: 'internal', message: 'The data file could not be read.' } }) });
    const app = createStores({ api: fake.api, timers: clock, now: clock.now }).app;
    await app.getState().load(null);
    expect(app.getState()).toMatchObject({ phase: 'failed', loadError: 'The data file could not be read.', differentBuilds: false });
  });

  it('is the error screen, not the welcome, when the engine is of another build (its contract differs), naming the restart', async () => {
    const clock = new ManualClock();
    const fake = fakeApi({ 'app:info': () => ok({ ...info(true), contract: 'an-older-build' }), 'campaigns:list': () => ok({ campaigns: [] }) });
    const app = createStores({ api: fake.api, timers: clock, now: clock.now }).app;
    await app.getState().load(null);
    expect(app.getState()).toMatchObject({ phase: 'failed', differentBuilds: true });
    expect(app.getState().loadError).toBe(
      'This window and the Giftbatch engine are from different builds: restart Giftbatch. Stop `npm start` (or `npm run web`) in its terminal, start it again, and open the address it prints.',
    );
    // Nothing else was asked of it.
    expect(fake.calls.map((c) => c.name)).toEqual(['app:info']);
  });

  it('is the error screen when the engine\'s answer to app:info does not read as this window expects (an engine older than the fingerprint)', async () => {
    const clock = new ManualClock();
    const fake = fakeApi({ 'app:info': () => ({ ok: false, error: { code: 'contract-mismatch', message: 'This window and the Giftbatch engine are from different builds: restart Giftbatch.' } }) });
    const app = createStores({ api: fake.api, timers: clock, now: clock.now }).app;
    await app.getState().load(null);
    expect(app.getState()).toMatchObject({ phase: 'failed', differentBuilds: true });
  });

  it('is the list when the welcome was dismissed and the address bar names no screen', async () => {
    const app = load(false);
    await app.getState().load(null);
    expect(app.getState().route).toEqual({ name: 'campaigns' });
  });
});
