// The Charged card as the window renders it (server-rendered markup, no browser needed): the total,
// and apart from it, per currency, what went to orders later cancelled and to gifts whose recipient
// link expired unaccepted.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CampaignSummary } from '../../../../shared/contract.ts';
import { ChargedTotals } from '../../../../renderer/src/features/campaign/ChargedTotals.tsx';
import { createStores } from '../../../../renderer/src/stores/index.ts';
import { StoresContext } from '../../../../renderer/src/stores/hooks.ts';
import { fakeApi, ManualClock, summary } from '../helpers/fakes.ts';

function text(c: CampaignSummary): string {
  const clock = new ManualClock();
  const stores = createStores({ api: fakeApi({}).api, timers: clock, now: clock.now });
  const markup = renderToStaticMarkup(createElement(StoresContext.Provider, { value: stores }, createElement(ChargedTotals, { summary: c })));
  return markup.replace(/<[^>]+>/g, '').replaceAll('&#x27;', "'").replace(/\s+/g, ' ');
}

const counts = { invalid: 0, ready: 0, sending: 0, ordered: 20, delivered: 274, failed: 0, cancelled: 6, skipped: 0 };

describe('ChargedTotals: what bought no gift', () => {
  it('says how much of the total went to gifts whose recipient link expired unaccepted, per currency, beside the cancelled orders', () => {
    const c = summary({
      sendState: 'done',
      running: false,
      counts,
      acceptanceExpired: 20,
      charged: [{ currency: 'USD', amount: '4800.00' }],
      chargedCancelled: [{ currency: 'USD', amount: '60.00' }],
      chargedExpired: [
        { currency: 'EUR', amount: '92.50' },
        { currency: 'USD', amount: '1900.00' },
      ],
    });
    const t = text(c);
    expect(t).toContain('Of which USD 60.00 went to orders later cancelled or never paid');
    expect(t).toMatch(/Of which EUR 92\.50.{0,8}USD 1,900\.00 went to gifts whose recipient link expired unaccepted \(the order stands, but the recipient can no longer take it\)\. Ask the service about those charges\./);
  });

  it('says nothing of expired links when no charge went to one', () => {
    const c = summary({ sendState: 'done', running: false, counts: { ...counts, ordered: 0, delivered: 294 }, charged: [{ currency: 'USD', amount: '2940.00' }] });
    expect(text(c)).not.toContain('expired');
  });
});

describe('ChargedTotals: charges the service has not stated yet', () => {
  const ordered = { invalid: 0, ready: 0, sending: 0, ordered: 40, delivered: 0, failed: 0, cancelled: 0, skipped: 0 };
  it('says the total is so far and how many orders it leaves out, and what reads them', () => {
    const t = text(summary({ sendState: 'done', running: false, counts: ordered, charged: [{ currency: 'USD', amount: '12.50' }], unchargedOrders: 39 }));
    expect(t).toContain("So far: 39 orders' charges are not stated by the service yet and not in this total. The next check of the orders reads them (Check now does it at once).");
    expect(text(summary({ sendState: 'done', running: false, counts: ordered, unchargedOrders: 1 }))).toContain("So far: 1 order's charge is not stated by the service yet");
  });
  it('says nothing of it once every charge is stated', () => {
    expect(text(summary({ sendState: 'done', running: false, counts: ordered, charged: [{ currency: 'USD', amount: '500.00' }], unchargedOrders: 0 }))).not.toContain('not stated');
  });
});

// "Still to send: nothing" read as an amount; a dash and why, as the review's cost card says it (c5f2eb0).
describe('ChargedTotals: still to send', () => {
  it('with no row left to send, shows a dash and says so, not "nothing"', () => {
    const t = text(summary({ sendState: 'done', running: false, counts, charged: [{ currency: 'USD', amount: '4800.00' }], remaining: [] }));
    expect(t).toContain('Still to send—No row is left to send.');
    expect(t).not.toContain('nothing');
  });
  it('with rows left, shows their face value', () => {
    const t = text(summary({ sendState: 'paused', running: false, counts: { ...counts, ready: 3 }, remaining: [{ currency: 'USD', amount: '75.00' }] }));
    expect(t).toContain('Still to sendUSD 75.00');
    expect(t).not.toContain('No row is left');
  });
});
