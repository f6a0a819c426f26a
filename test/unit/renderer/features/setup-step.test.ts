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

function render(): string {
  const clock = new ManualClock();
  const stores = createStores({ api: fakeApi({}).api, timers: clock, now: clock.now });
  stores.wizard.setState({ productsStatus: 'failed', productsError: REASON });
  // Server rendering reads a store's initial state (useSyncExternalStore's server snapshot): render this one.
  stores.wizard.getInitialState = stores.wizard.getState;
  return renderToStaticMarkup(createElement(StoresContext.Provider, { value: stores }, createElement(SetupStep)))
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');
}

describe('SetupStep when the catalog cannot be read', () => {
  it('says why once, with the way to try again', () => {
    const text = render();
    expect(text.split(REASON).length - 1).toBe(1);
    expect(text).toContain(`Could not load the catalog: ${REASON} Try again`);
  });
});
