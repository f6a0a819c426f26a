// Opening a draft in the wizard (Review and send, a follow-up, the campaigns list) asks first when the
// wizard holds a new campaign not saved yet: what counts as one, and the question's words. "New
// campaign" goes back to the campaign in progress as it was left, and the wizard's Start over asks the
// same question before emptying it.
import { createElement, isValidElement, type ReactElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ProductDto } from '../../../../shared/contract.ts';
import {
  askBeforeDiscard,
  DiscardNewCampaignDialog,
  openNewCampaign,
  startOver,
  type PendingDiscard,
} from '../../../../renderer/src/features/new-campaign/DiscardNewCampaign.tsx';
import { welcomeChoices } from '../../../../renderer/src/features/welcome/WelcomeScreen.tsx';
import { NewCampaignScreen } from '../../../../renderer/src/features/new-campaign/NewCampaignScreen.tsx';
import { createStores, type Stores } from '../../../../renderer/src/stores/index.ts';
import { StoresContext } from '../../../../renderer/src/stores/hooks.ts';
import { newCampaignInProgress, unsavedNewCampaign, type WizardState } from '../../../../renderer/src/stores/wizard-store.ts';
import { fakeApi, ManualClock, row, settle, summary } from '../helpers/fakes.ts';

function allStores(): Stores {
  const clock = new ManualClock();
  return createStores({ api: fakeApi({}).api, timers: clock, now: clock.now });
}

function wizard() {
  return allStores().wizard;
}

const file = { fileName: 'guests.csv', bytesBase64: 'bmFtZQ==', size: 4 };

describe('a new campaign in progress', () => {
  it('is nothing while nothing is chosen or typed', () => {
    expect(unsavedNewCampaign(wizard().getState())).toBeNull();
  });

  it('is named once a product, a file, a sender, a message or a default amount is given, or while it is being saved', () => {
    const w = wizard();
    w.setState({ name: 'Spring gala', productId: 7 });
    expect(unsavedNewCampaign(w.getState())).toBe('“Spring gala”');
    w.setState({ file });
    expect(unsavedNewCampaign(w.getState())).toBe('“Spring gala”, with guests.csv');
    expect(unsavedNewCampaign({ ...wizard().getState(), senderName: 'Ada' })).toMatch(/^“Campaign \d{4}-\d\d-\d\d”$/);
    expect(unsavedNewCampaign({ ...wizard().getState(), name: ' ', message: 'Thanks!' })).toBe('a new campaign');
    expect(unsavedNewCampaign({ ...wizard().getState(), defaultAmount: '10' })).not.toBeNull();
    expect(unsavedNewCampaign({ ...wizard().getState(), creating: true })).not.toBeNull();
  });

  it('is nothing when the wizard holds a draft: it is saved, and stays in the campaigns list', () => {
    const w = wizard();
    w.setState({ name: 'Spring gala', productId: 7, file, draft: summary({ sendState: 'draft' }) });
    expect(unsavedNewCampaign(w.getState())).toBeNull();
  });

  it('is asked about in words, keeping it by default', () => {
    const markup = renderToStaticMarkup(createElement(DiscardNewCampaignDialog, { inProgress: '“Spring gala”, with guests.csv', onDiscard: () => undefined, onKeep: () => undefined }));
    expect(markup).toContain('Discard the new campaign in progress?');
    expect(markup).toContain('You have a new campaign in progress: “Spring gala”, with guests.csv. It is not saved yet');
    expect(markup).toMatch(/<button[^>]*autofocus=""[^>]*data-testid="discard-new-campaign-keep"[^>]*>Keep it</);
    expect(markup).toMatch(/data-testid="discard-new-campaign-confirm"[^>]*>Discard it and continue</);
    // The safe choice is the primary one; the one that loses work is styled as destructive, never primary.
    expect(markup).toMatch(/<button[^>]*class="button-primary"[^>]*data-testid="discard-new-campaign-keep"/);
    expect(markup).toMatch(/<button[^>]*class="button-danger"[^>]*data-testid="discard-new-campaign-confirm"/);
  });
});

const product: ProductDto = {
  id: 7,
  name: 'Coffee card',
  brand: null,
  countryCode: 'US',
  currency: 'USD',
  currencySource: 'service',
  availability: 'ON_SALE',
  deliveryMethods: ['EMAIL'],
  price: { kind: 'fixed', amount: { currency: 'USD', amount: '10.00' } },
  unorderableReason: null,
};

/** A new campaign being prepared: product picked, file chosen, on the recipients step with its preview read. */
function preparing(s: Stores): Partial<WizardState> {
  const state: Partial<WizardState> = {
    step: 'import',
    name: 'Spring gala',
    senderName: 'Ada',
    products: [product],
    productsStatus: 'ready',
    productId: 7,
    file,
    previewStatus: 'ready',
  };
  s.wizard.setState(state);
  return state;
}

/** The draft saved from the wizard, its rows being reviewed. */
function reviewing(s: Stores): Partial<WizardState> {
  const state: Partial<WizardState> = { ...preparing(s), step: 'review', draft: summary({ name: 'Spring gala', sendState: 'draft' }), rows: [row(1), row(2)], rowsStatus: 'ready' };
  s.wizard.setState(state);
  return state;
}

function pick(s: WizardState, like: Partial<WizardState>): Partial<WizardState> {
  return Object.fromEntries(Object.keys(like).map((k) => [k, s[k as keyof WizardState]]));
}

/** The element with `testId` in a tree of elements (a component that uses no hooks, called as a function). */
function byTestId(node: ReactNode, testId: string): ReactElement<{ onClick: () => void }> | null {
  if (Array.isArray(node)) {
    for (const child of node as ReactNode[]) {
      const found = byTestId(child, testId);
      if (found) return found;
    }
    return null;
  }
  if (!isValidElement<{ children?: ReactNode; 'data-testid'?: string }>(node)) return null;
  if (node.props['data-testid'] === testId) return node as ReactElement<{ onClick: () => void }>;
  return byTestId(node.props.children, testId);
}

function screen(s: Stores): string {
  // Server rendering reads a store's initial state (useSyncExternalStore's server snapshot): render this one.
  s.wizard.getInitialState = s.wizard.getState;
  s.environments.setState({ status: 'ready' });
  s.environments.getInitialState = s.environments.getState;
  return renderToStaticMarkup(createElement(StoresContext.Provider, { value: s }, createElement(NewCampaignScreen)));
}

describe('"New campaign" with a new campaign in progress', () => {
  it('goes back to it as it was left: same step, file, product and choices', async () => {
    const s = allStores();
    s.app.getState().navigate({ name: 'campaigns' });
    const before = preparing(s);
    openNewCampaign(s);
    await settle();
    expect(s.app.getState().route).toEqual({ name: 'new' });
    expect(pick(s.wizard.getState(), before)).toEqual(before);
  });

  it('goes back to the draft saved from it, on its review with its rows, until it is sent', async () => {
    const s = allStores();
    const before = reviewing(s);
    expect(newCampaignInProgress(s.wizard.getState())).toBe('“Spring gala”');
    openNewCampaign(s);
    await settle();
    expect(pick(s.wizard.getState(), before)).toEqual(before);
    expect(newCampaignInProgress({ ...s.wizard.getState(), draft: summary({ sendState: 'sending' }) })).toBeNull();
  });

  it('starts an empty wizard when there is none, or when the wizard holds a draft opened from the campaigns list', async () => {
    const s = allStores();
    s.wizard.setState({ name: 'Old', step: 'review', draft: summary({ name: 'Old', sendState: 'draft' }), openedDraft: true, rows: [row(1)] });
    expect(newCampaignInProgress(s.wizard.getState())).toBeNull();
    openNewCampaign(s);
    await settle();
    const w = s.wizard.getState();
    expect([w.step, w.draft, w.openedDraft, w.rows, w.file, w.productId]).toEqual(['setup', null, false, [], null, null]);
    expect(s.app.getState().route).toEqual({ name: 'new' });
  });

  it('openDraft marks its draft as opened, not made here', async () => {
    const s = allStores();
    await s.wizard.getState().openDraft(summary({ sendState: 'draft', countryCode: null }));
    expect(s.wizard.getState().openedDraft).toBe(true);
    expect(newCampaignInProgress(s.wizard.getState())).toBeNull();
  });
});

describe('Start over', () => {
  it('is offered in the wizard while a new campaign is in progress, never on an empty one', () => {
    const s = allStores();
    expect(screen(s)).not.toContain('wizard-start-over');
    preparing(s);
    expect(screen(s)).toMatch(/data-testid="wizard-start-over"[^>]*>Start over…</);
    // Prepared for the Simulator, with Sandbox in use now: said, with the way to a Sandbox campaign.
    expect(screen(s)).not.toContain('wizard-other-environment');
    s.environments.setState({ current: 'sandbox' });
    expect(screen(s)).toContain('This campaign is prepared for Simulator; Sandbox is in use now. Start over to prepare one for Sandbox.');
    s.wizard.setState({ creating: true });
    expect(screen(s)).not.toContain('wizard-start-over');
  });

  it('asks the discard question, and only Discard empties the wizard; Keep leaves it as it was', async () => {
    const s = allStores();
    const before = preparing(s);
    let pending: PendingDiscard | null = null;
    askBeforeDiscard(s.wizard.getState(), 'start-over', () => startOver(s), (p) => (pending = p));
    expect(pending).toMatchObject({ inProgress: '“Spring gala”, with guests.csv', saved: false });
    expect(pick(s.wizard.getState(), before)).toEqual(before);

    const asked = pending as unknown as PendingDiscard;
    const dialog = (onKeep: () => void) =>
      DiscardNewCampaignDialog({ inProgress: asked.inProgress, saved: asked.saved, reason: 'start-over', onKeep, onDiscard: asked.action });
    const markup = renderToStaticMarkup(dialog(() => undefined));
    expect(markup).toContain('Discard the new campaign in progress?');
    expect(markup).toContain('It is not saved yet: starting over discards it, with everything entered for it.');
    expect(markup).toMatch(/autofocus=""[^>]*data-testid="discard-new-campaign-keep"/);
    expect(markup).toMatch(/data-testid="discard-new-campaign-confirm"[^>]*>Discard it and start over</);

    let kept = false;
    byTestId(dialog(() => (kept = true)), 'discard-new-campaign-keep')?.props.onClick();
    await settle();
    expect(kept).toBe(true);
    expect(pick(s.wizard.getState(), before)).toEqual(before);

    byTestId(dialog(() => undefined), 'discard-new-campaign-confirm')?.props.onClick();
    await settle();
    const w = s.wizard.getState();
    expect([w.step, w.file, w.productId, w.senderName, w.name]).toEqual(['setup', null, null, '', expect.stringMatching(/^Campaign \d{4}-\d\d-\d\d$/)]);
  });

  it('on the draft saved from the wizard asks too, saying the draft stays in Campaigns', () => {
    const s = allStores();
    reviewing(s);
    let pending: PendingDiscard | null = null;
    askBeforeDiscard(s.wizard.getState(), 'start-over', () => startOver(s), (p) => (pending = p));
    expect(pending).toMatchObject({ inProgress: '“Spring gala”', saved: true });
    const markup = renderToStaticMarkup(createElement(DiscardNewCampaignDialog, { inProgress: '“Spring gala”', saved: true, reason: 'start-over', onDiscard: () => undefined, onKeep: () => undefined }));
    expect(markup).toContain('Start over with an empty new campaign?');
    expect(markup).toContain('“Spring gala” is saved as a draft: it stays in Campaigns');
    // Opening another draft over it loses nothing: it is not asked about.
    let asked = false;
    let ran = false;
    askBeforeDiscard(s.wizard.getState(), 'open', () => (ran = true), () => (asked = true));
    expect([asked, ran]).toEqual([false, true]);
  });
});

describe('the Welcome screen with a new campaign in progress (back at #/welcome)', () => {
  function onWelcome(s: Stores) {
    s.app.setState({ route: { name: 'welcome' } });
    let pending: PendingDiscard | null = null;
    const choices = welcomeChoices(s, (action) => askBeforeDiscard(s.wizard.getState(), 'sample', action, (p) => (pending = p)));
    return { choices, pending: () => pending as PendingDiscard | null };
  }

  it('"Try it with the sample list" asks the discard question first; Keep leaves the campaign and the welcome as they were', async () => {
    const s = allStores();
    const before = preparing(s);
    const { choices, pending } = onWelcome(s);
    choices.sample();
    await settle();
    expect(pending()).toMatchObject({ inProgress: '“Spring gala”, with guests.csv', saved: false });
    expect(pick(s.wizard.getState(), before)).toEqual(before);
    expect(s.app.getState().route).toEqual({ name: 'welcome' });

    const asked = pending() as PendingDiscard;
    const markup = renderToStaticMarkup(
      createElement(DiscardNewCampaignDialog, { inProgress: asked.inProgress, saved: asked.saved, reason: 'sample', onDiscard: asked.action, onKeep: () => undefined }),
    );
    expect(markup).toContain('Discard the new campaign in progress?');
    expect(markup).toContain('It is not saved yet: trying the sample list discards it, with everything entered for it.');
    expect(markup).toMatch(/autofocus=""[^>]*data-testid="discard-new-campaign-keep"/);
    expect(markup).toMatch(/data-testid="discard-new-campaign-confirm"[^>]*>Discard it and try the sample</);

    // Discard: the sample campaign replaces it, on New campaign.
    asked.action();
    await settle();
    const w = s.wizard.getState();
    expect([w.name, w.senderName]).toEqual(['My first simulated campaign', 'The Giftbatch team']);
    expect(s.app.getState().route).toEqual({ name: 'new' });
  });

  it('asks about the draft saved from the wizard too, saying it stays in Campaigns', () => {
    const s = allStores();
    reviewing(s);
    const { choices, pending } = onWelcome(s);
    choices.sample();
    expect(pending()).toMatchObject({ inProgress: '“Spring gala”', saved: true });
    const markup = renderToStaticMarkup(createElement(DiscardNewCampaignDialog, { inProgress: '“Spring gala”', saved: true, reason: 'sample', onDiscard: () => undefined, onKeep: () => undefined }));
    expect(markup).toContain('Start a new campaign with the sample list?');
    expect(markup).toContain('“Spring gala” is saved as a draft: it stays in Campaigns, where you can open it again to review and send it. New campaign then holds the sample list instead.');
    expect(markup).toMatch(/data-testid="discard-new-campaign-confirm"[^>]*>Try the sample list</);
  });

  it('"Start with my own list" goes back to the campaign in progress as it was left', async () => {
    const s = allStores();
    const before = preparing(s);
    const { choices, pending } = onWelcome(s);
    choices.own();
    await settle();
    expect(pending()).toBeNull();
    expect(pick(s.wizard.getState(), before)).toEqual(before);
    expect(s.app.getState().route).toEqual({ name: 'new' });
  });

  it('with nothing in progress, the sample starts at once, asking nothing', async () => {
    const s = allStores();
    const { choices, pending } = onWelcome(s);
    choices.sample();
    await settle();
    expect(pending()).toBeNull();
    expect(s.wizard.getState().name).toBe('My first simulated campaign');
    expect(s.app.getState().route).toEqual({ name: 'new' });
  });
});
