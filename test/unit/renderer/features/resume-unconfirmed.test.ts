// A campaign paused 'unconfirmed' (rows left mid-send whose empty lookup by key proves nothing): the
// Resume dialog says what to look up at the service first and offers "Send them again", whose tick
// is what sends them (campaigns:send resendUnconfirmed); other pauses show no such choice.
// Server-rendered markup and the store's flags, no browser needed.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { RESEND_UNCONFIRMED_STEP } from '../../../../shared/domain/campaigns.ts';
import { ResumeDialog } from '../../../../renderer/src/features/campaign/ResumeDialog.tsx';
import { campaignState } from '../../../../renderer/src/features/campaigns/campaign-state.ts';
import { resumeFlags } from '../../../../renderer/src/stores/campaigns-store.ts';
import { summary } from '../helpers/fakes.ts';

const counts = { invalid: 0, ready: 0, sending: 1, ordered: 3, delivered: 0, failed: 0, cancelled: 0, skipped: 0 };
const dialog = (pausedReason: 'unconfirmed' | 'user') =>
  renderToStaticMarkup(
    createElement(ResumeDialog, {
      campaign: summary({ sendState: 'paused', pausedReason, running: false, counts }),
      onConfirm: async () => null,
      onClose: () => undefined,
    }),
  );

describe('resuming a campaign paused unconfirmed', () => {
  it('offers "Send them again", named as the pause detail names it, unticked', () => {
    const html = dialog('unconfirmed');
    expect(html).toContain('data-testid="resume-unconfirmed"');
    expect(html).toContain('Look each one up in the service&#x27;s own records first.');
    expect(html).toMatch(/<input type="checkbox"\/>Send them again: I found no order at the service/);
    expect(RESEND_UNCONFIRMED_STEP).toContain('"Send them again"');
    expect(html).toContain('Unticked, they keep waiting and only the other rows are sent.');
  });

  it('shows no such choice for another pause', () => {
    expect(dialog('user')).not.toContain('resume-unconfirmed');
  });

  it('sends the flag only when ticked; the list says what the campaign waits for', () => {
    expect(resumeFlags({ resendUnconfirmed: true })).toEqual({ resendUnconfirmed: true });
    expect(resumeFlags({ resendUnconfirmed: false })).toEqual({});
    expect(campaignState(summary({ sendState: 'paused', pausedReason: 'unconfirmed', running: false, counts }))).toEqual({
      label: 'Paused: rows to check at the service',
      tone: 'bad',
    });
  });
});
