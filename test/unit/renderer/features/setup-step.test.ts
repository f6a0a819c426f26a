// The gift step as the window renders it (server-rendered markup) when the catalog cannot be read:
// the reason is said once, in the catalog's box beside its Try again, not a second time at the foot.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SetupStep } from '../../../../renderer/src/features/new-campaign/SetupStep.tsx';
import { createStores } from '../../../../renderer/src/stores/index.ts';
import { StoresContext } from '../../../../renderer/src/stores/hooks.ts';
import { fakeApi, ManualClock } from '../helpers/fakes.ts';

const REASON = 'The sandbox service at https://sandbox.example refused the API key.';

function render(patch: Partial<ReturnType<ReturnType<typeof createStores>['wizard']['getState']>> = {}): string {
  const clock = new ManualClock();
  const stores = createStores({ api: fakeApi({}).api, timers: clock, now: clock.now });
  stores.wizard.setState({ productsStatus: 'failed', productsError: REASON, ...patch });
  // Server rendering reads a store's initial state (useSyncExternalStore's server snapshot): render this one.
  stores.wizard.getInitialState = stores.wizard.getState;
  return renderToStaticMarkup(createElement(StoresContext.Provider, { value: stores }, createElement(SetupStep)))
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ');
}

describe('SetupStep when the catalog cannot be read', () => {
  it('says why once, with the way to try again', () => {
    const text = render();
    expect(text.split(REASON).length - 1).toBe(1);
    expect(text).toContain(`Could not load the catalog: ${REASON} Try again`);
  });

  it('says a refused key as that, with the way to Environments & key; the request stays folded (S15-W\'s walk)', () => {
    const serviceWords = `${REASON} GET /v1/products?country_code=US&page=0&size=100: the service did not accept the API key (HTTP 401). Check the key set for this environment.`;
    const text = render({ environment: 'sandbox', productsError: serviceWords, productsErrorCode: 'service-auth' });
    expect(text).toContain('The Sandbox service refused the API key , so its catalog could not be read. Check the key set for Sandbox (or enter a new one) under Environments & key, then try again. Open Environments & key Try again');
    // The service's words (the request, for support) come after the buttons, folded, not in the sentence.
    expect(text.indexOf('GET /v1/products')).toBeGreaterThan(text.indexOf('Open Environments & key'));
    expect(text).toContain(`The service's answer ${serviceWords}`);
    expect(text).not.toContain('Could not load the catalog');
  });
});
