// Where the window lands when it loads. A fresh first launch (no screen in the address bar) shows the
// welcome; a reload keeps the screen the person was on, even if they never pressed a button of the
// welcome (they went to Environments from the header and sent a campaign): before, such a reload of
// a campaign of 300 sent gifts landed on the welcome instead.
import { describe, expect, it } from 'vitest';
import type { CallOutput } from '../../../../shared/contract.ts';
import { createStores } from '../../../../renderer/src/stores/index.ts';
import { fakeApi, ManualClock, ok, summary } from '../helpers/fakes.ts';

const info = (firstLaunch: boolean): CallOutput<'app:info'> => ({
  version: '1.0.0',
  shell: 'browser',
  environment: 'sandbox',
  firstLaunch,
  keychain: { available: true, notice: null },
  sampleCsvName: 'sample-recipients.csv',
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

  it('is the welcome when the list of campaigns cannot be read', async () => {
    const clock = new ManualClock();
    const fake = fakeApi({ 'app:info': () => ok(info(true)) });
    const app = createStores({ api: fake.api, timers: clock, now: clock.now }).app;
    await app.getState().load(null);
    expect(app.getState().route).toEqual({ name: 'welcome' });
  });

  it('is the list when the welcome was dismissed and the address bar names no screen', async () => {
    const app = load(false);
    await app.getState().load(null);
    expect(app.getState().route).toEqual({ name: 'campaigns' });
  });
});
