// Opening a draft in the wizard (Review and send, a follow-up, the campaigns list) asks first when the
// wizard holds a new campaign not saved yet: what counts as one, and the question's words.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DiscardNewCampaignDialog } from '../../../../renderer/src/features/new-campaign/DiscardNewCampaign.tsx';
import { createStores } from '../../../../renderer/src/stores/index.ts';
import { unsavedNewCampaign } from '../../../../renderer/src/stores/wizard-store.ts';
import { fakeApi, ManualClock, summary } from '../helpers/fakes.ts';

function wizard() {
  const clock = new ManualClock();
  return createStores({ api: fakeApi({}).api, timers: clock, now: clock.now }).wizard;
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
  });
});
