// Environments & key, from S15-W's walk: a missing keychain said in words with the system's error
// folded for support; "Use Sandbox" right after its connection test failed asks first; a key the
// engine refused to save says why by the key field, and keeps saying it until the key is changed.
import { createElement, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CallOutput, EnvironmentInfo } from '../../../../shared/contract.ts';
import { contractFingerprint } from '../../../../shared/contract-fingerprint.ts';
import { EnvironmentsScreen } from '../../../../renderer/src/features/environments/EnvironmentsScreen.tsx';
import { KeyForm } from '../../../../renderer/src/features/environments/KeyForm.tsx';
import { uiOf } from '../../../../renderer/src/stores/environments-store.ts';
import { createStores, type Stores } from '../../../../renderer/src/stores/index.ts';
import { StoresContext } from '../../../../renderer/src/stores/hooks.ts';
import { fakeApi, ManualClock, ok, type Handlers } from '../helpers/fakes.ts';

const DBUS = 'Cannot autolaunch D-Bus without X11 $DISPLAY';
const SPACES = 'The API key contains spaces or control characters. Paste it again without them.';
const REFUSED = 'The sandbox service at https://sandbox.example refused the API key.';

const sandbox: EnvironmentInfo = { name: 'sandbox', baseUrl: 'https://sandbox.example', simulated: false, rate: 5, key: { set: true, endsWith: '1234' }, keySource: 'session' };

function setup(handlers: Handlers = {}) {
  const clock = new ManualClock();
  const fake = fakeApi({
    'environments:test': () => ok({ ok: false, message: REFUSED, products: null }),
    'environments:setKey': () => ({ ok: false, error: { code: 'invalid-input', message: SPACES } }),
    'environments:select': () => ok({ ok: true as const }),
    ...handlers,
  });
  const stores = createStores({ api: fake.api, timers: clock, now: clock.now });
  stores.environments.setState({ status: 'ready', current: 'simulator', environments: [sandbox] });
  return { stores, fake };
}

/** Server-rendered markup, reading the stores as they are now. */
function render(stores: Stores, element: ReactElement): string {
  for (const store of Object.values(stores)) {
    const s = store as { getInitialState?: unknown; getState?: unknown };
    if (typeof s.getState === 'function') s.getInitialState = s.getState;
  }
  return renderToStaticMarkup(createElement(StoresContext.Provider, { value: stores }, element));
}

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('the keychain notice', () => {
  it('says what a missing keychain means for the person, and keeps the system error folded for support', () => {
    const { stores } = setup();
    const info: CallOutput<'app:info'> = {
      version: '1.0.0',
      shell: 'browser',
      environment: 'simulator',
      firstLaunch: false,
      keychain: { available: false, notice: 'A key you save is kept only while Giftbatch is open.', detail: DBUS },
      sampleCsvName: 'sample-recipients.csv',
      contract: contractFingerprint(),
    };
    stores.app.setState({ info });
    const html = render(stores, createElement(EnvironmentsScreen));
    const notice = /data-testid="keychain-notice"[\s\S]*?<details/.exec(html)?.[0] ?? '';
    expect(text(notice)).toContain('No keychain on this computer. A key you save is kept only while Giftbatch is open.');
    expect(notice).not.toContain('D-Bus');
    expect(html).toMatch(/<details[^>]*data-testid="keychain-detail"[^>]*><summary>Details for support<\/summary><span[^>]*>Cannot autolaunch D-Bus without X11 \$DISPLAY<\/span><\/details>/);
  });
});

describe('Use, after the connection test failed', () => {
  it('asks first, and switches only when told to use it anyway', async () => {
    const { stores, fake } = setup();
    const envs = stores.environments.getState();
    await envs.test('sandbox');
    expect(await envs.select('sandbox')).toBe(false);
    expect(fake.callsOf('environments:select')).toEqual([]);
    expect(uiOf(stores.environments.getState(), 'sandbox').confirmUse).toBe(true);
    expect(stores.environments.getState().current).toBe('simulator');

    envs.cancelUse('sandbox');
    expect(uiOf(stores.environments.getState(), 'sandbox').confirmUse).toBe(false);

    expect(await envs.select('sandbox', { despiteFailedTest: true })).toBe(true);
    expect(fake.callsOf('environments:select')).toEqual([{ environment: 'sandbox' }]);
    expect(stores.environments.getState().current).toBe('sandbox');
  });

  it('does not ask after a test that passed, or once a new key replaced the one tested', async () => {
    const passed = setup({ 'environments:test': () => ok({ ok: true, message: 'Connected.', products: 3 }) });
    await passed.stores.environments.getState().test('sandbox');
    expect(await passed.stores.environments.getState().select('sandbox')).toBe(true);

    const rekeyed = setup({ 'environments:setKey': () => ok({ ...sandbox, key: { set: true, endsWith: '5678' } }) });
    await rekeyed.stores.environments.getState().test('sandbox');
    await rekeyed.stores.environments.getState().setKey('sandbox', 'good-key-5678');
    expect(await rekeyed.stores.environments.getState().select('sandbox')).toBe(true);
  });
});

describe('a key that could not be saved', () => {
  it('says why by the key field (aria-describedby), through a connection test, until the key is changed', async () => {
    const { stores } = setup();
    const envs = stores.environments.getState();
    expect(await envs.setKey('sandbox', 'bad key')).toBe(false);
    await envs.test('sandbox');
    expect(uiOf(stores.environments.getState(), 'sandbox').keyError).toBe(SPACES);

    const html = render(stores, createElement(KeyForm, { env: sandbox, busy: false }));
    expect(html).toMatch(/<input[^>]*aria-invalid="true"[^>]*aria-describedby="env-sandbox-key-error"[^>]*data-testid="env-sandbox-key"/);
    expect(html).toContain(`<span id="env-sandbox-key-error" class="field-error" role="alert" data-testid="env-sandbox-key-error">Key not saved: ${SPACES}</span>`);

    envs.keyEdited('sandbox');
    expect(uiOf(stores.environments.getState(), 'sandbox').keyError).toBeNull();
    expect(render(stores, createElement(KeyForm, { env: sandbox, busy: false }))).not.toContain('Key not saved');
  });
});
