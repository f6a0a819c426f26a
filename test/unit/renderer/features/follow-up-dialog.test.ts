// The Follow-up dialog says when to press Retry instead (the same rows, own references, this
// campaign) and what a follow-up is for (S15-W's walk: it did not). Server-rendered markup.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CampaignSummary } from '../../../../shared/contract.ts';
import { FollowUpDialog } from '../../../../renderer/src/features/campaign/FollowUpDialog.tsx';
import { summary } from '../helpers/fakes.ts';

const text = (c: CampaignSummary): string =>
  renderToStaticMarkup(createElement(FollowUpDialog, { campaign: c, busy: false, error: null, onConfirm: () => undefined, onClose: () => undefined }))
    .replace(/<[^>]+>/g, '')
    .replaceAll('&quot;', '"')
    .replace(/\s+/g, ' ');
const counts = { invalid: 0, ready: 0, sending: 0, ordered: 0, delivered: 2, failed: 2, cancelled: 0, skipped: 0 };

describe('FollowUpDialog: Retry or a follow-up', () => {
  it('says when to press Retry instead, and what a follow-up is for', () => {
    const t = text(summary({ sendState: 'done', running: false, counts }));
    expect(t).toContain(
      'Failed rows can instead be sent again as they are: fix the cause (a balance to top up), then press "Retry 2 failed": the same rows, under their own references, in this campaign, never paid twice.',
    );
    expect(t).toContain('Choose a follow-up for rows whose order was cancelled or whose link expired, or that you want to send differently (another gift, amount or message).');
  });

  it('does not offer Retry when no failed row is left to retry', () => {
    const t = text(summary({ sendState: 'done', running: false, counts: { ...counts, failed: 0, cancelled: 2 } }));
    expect(t).not.toContain('Retry');
    expect(t).toContain('2 rows whose order was cancelled');
  });
});
