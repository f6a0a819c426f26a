import { describe, expect, it } from 'vitest';
import { failedRowsHint, inCliWords, issueInCliWords, needsFixingHint } from '../../../electron/cli/status.ts';
import { authDetail, breakerDetail } from '../../../electron/core/campaigns/send-outcome.ts';
import { NO_AMOUNT } from '../../../shared/domain/validation.ts';
import { recordOrderStep, RESEND_UNCONFIRMED_STEP } from '../../../shared/domain/campaigns.ts';
import { expiredNote, pollLine, productsText, statusLine } from '../../../electron/cli/commands/tracking.ts';
import { campaignStatus } from '../../../electron/cli/status.ts';
import type { CampaignSummary } from '../../../shared/contract.ts';

// The engine's pause details name the window's Resume button; the CLI says the command instead.
describe('inCliWords', () => {
  it('says `giftbatch resume ID` where the engine says to press Resume, at a sentence start or inside one', () => {
    expect(inCliWords('Sending was paused. Press Resume to send the rest.', 'c_1')).toBe('Sending was paused. Run `giftbatch resume c_1` to send the rest.');
    expect(inCliWords(authDetail('HTTP 401'), 'c_2')).toBe(
      'The service rejected the API key, so sending stopped (HTTP 401). Set the key for this environment again, then run `giftbatch resume c_2`.',
    );
    expect(inCliWords(breakerDetail(8, { kind: 'ambiguous', reason: 'timeout', status: undefined, endpoint: 'POST /v1/orders', message: 'timeout' }), 'c_3')).toBe(
      '8 requests in a row got no clear answer (last: timeout on POST /v1/orders). Sending paused; run `giftbatch resume c_3` when the service is back.',
    );
  });

  it('names --resend-unconfirmed where an unconfirmed row says to resume and choose "Send them again"', () => {
    const detail = `Look up the reference gb-1 in the service's own records: if it has no order, ${RESEND_UNCONFIRMED_STEP}; if it has one, leave the row as it is.`;
    expect(inCliWords(detail, 'c_4')).toBe(
      "Look up the reference gb-1 in the service's own records: if it has no order, run `giftbatch resume c_4 --resend-unconfirmed`; if it has one, leave the row as it is.",
    );
  });

  it('names record-order where an unconfirmed row says to enter the order found for it', () => {
    expect(inCliWords(`If it has one, ${recordOrderStep(7)}.`, 'c_5')).toBe('If it has one, run `giftbatch record-order c_5 --line 7 --order ORDER_ID`.');
  });

  it('leaves words that name no button as they are', () => {
    expect(inCliWords('Sending is done: 60 ordered, 0 failed.', 'c_1')).toBe('Sending is done: 60 ordered, 0 failed.');
    expect(inCliWords('resume later', 'c_1')).toBe('resume later');
  });
});

// A row's issue names the window's default amount (the Gift step's field); the terminal's is --amount.
describe('issueInCliWords', () => {
  it('names --amount where the shared words say to set a default amount, and leaves other issues as they are', () => {
    expect(issueInCliWords(`Line 6: ${NO_AMOUNT}`)).toBe('Line 6: no amount and no default amount: enter an amount in the row, or give one for every row without it with --amount N');
    expect(issueInCliWords(NO_AMOUNT)).not.toContain('set a default amount');
    expect(issueInCliWords('Line 3: "bob@example" is not a valid e-mail address')).toBe('Line 3: "bob@example" is not a valid e-mail address');
  });
});

// "Sending is done: 2 ordered, 0 failed, 4 not sent (they need fixing)." left a terminal user without a next step.
describe('needsFixingHint', () => {
  const counts = { invalid: 4, ready: 0, sending: 0, ordered: 2, delivered: 0, failed: 0, cancelled: 0, skipped: 1 };
  it('says where the reasons are and how to send those rows, once the campaign is done', () => {
    expect(needsFixingHint({ send_state: 'done', counts }, 'c_1')).toBe(
      '4 rows need fixing and were not sent (`giftbatch report c_1 --out FILE.csv` says why for each). ' +
        'To send them, correct them in your file and send it again: its recipients who already have a gift from this environment are skipped.',
    );
    expect(needsFixingHint({ send_state: 'done', counts: { ...counts, invalid: 1 } }, 'c_1')).toMatch(/^1 row needs fixing and was not sent /);
  });
  it('says nothing while the campaign is a draft, paused or sending, or when no row needs fixing', () => {
    expect(needsFixingHint({ send_state: 'draft', counts }, 'c_1')).toBeNull();
    expect(needsFixingHint({ send_state: 'paused', counts }, 'c_1')).toBeNull();
    expect(needsFixingHint({ send_state: 'done', counts: { ...counts, invalid: 0 } }, 'c_1')).toBeNull();
  });
});

describe('pollLine', () => {
  const round = { tracked: 3, requests: 1, settled: 0, delivered: 0, cancelled: 0, waiting: 3, expired: 3, error: null, nextCheckInMs: null };
  it('counts its requests in words that agree with the number ("1 request", "5 requests")', () => {
    expect(pollLine(round)).toBe('poll: asked about 3 undelivered orders: 0 delivered, 0 cancelled, 3 still waiting (3 past their acceptance expiry), 1 request');
    expect(pollLine({ ...round, tracked: 1, requests: 5, settled: 1, delivered: 1, waiting: 0, expired: 0 })).toBe('poll: asked about 1 undelivered order: 1 delivered, 0 cancelled, 0 still waiting, 5 requests');
  });
  // It said "4 settled" where the window's Check now said "5 delivered or cancelled": neither said delivered (S15-J).
  it('says delivered and cancelled apart, in the words of the window', () => {
    expect(pollLine({ ...round, tracked: 5, requests: 2, settled: 4, delivered: 3, cancelled: 1, waiting: 1, expired: 0 })).toBe(
      'poll: asked about 5 undelivered orders: 3 delivered, 1 cancelled, 1 still waiting, 2 requests',
    );
  });
});

// "3 recipient link(s) expired without acceptance" read the same before and after a follow-up took them.
describe('expiredNote', () => {
  const taken = (rows: number) => [{ id: 'c_f', name: 'Speakers again', rows }];
  it('names the command while no follow-up has taken the expired links', () => {
    expect(expiredNote({ id: 'c_1', acceptance_expired_to_follow_up: 3, acceptance_expired_followed_up: [] })).toBe(': run `giftbatch follow-up c_1 --expired` to send them a new gift');
    expect(expiredNote({ id: 'c_1', acceptance_expired_to_follow_up: 1, acceptance_expired_followed_up: [] })).toBe(': run `giftbatch follow-up c_1 --expired` to send it a new gift');
  });
  it('names the follow-up campaigns that took them, and the command for those left', () => {
    expect(expiredNote({ id: 'c_1', acceptance_expired_to_follow_up: 0, acceptance_expired_followed_up: taken(3) })).toBe(' (taken by follow-up campaign Speakers again (c_f))');
    expect(
      expiredNote({ id: 'c_1', acceptance_expired_to_follow_up: 1, acceptance_expired_followed_up: [...taken(1), { id: 'c_g', name: 'Third', rows: 1 }] }),
    ).toBe(' (2 taken by follow-up campaigns Speakers again (c_f), Third (c_g)); 1 not yet: run `giftbatch follow-up c_1 --expired` to send it a new gift');
  });
});

const summary = (over: Partial<CampaignSummary>): CampaignSummary => ({
  id: 'c1', name: 'Gala', environment: 'simulator', serviceUrl: 'simulator://embedded', productId: 7, products: 1, productList: [{ productId: 7, name: null }], giftPerRow: false, productName: null, currency: 'USD', sendState: 'draft', pausedReason: null,
  pausedDetail: null, running: false, counts: { invalid: 0, ready: 1, sending: 0, ordered: 0, delivered: 0, failed: 0, cancelled: 0, skipped: 0 },
  charged: [], chargedCancelled: [], chargedExpired: [], remaining: [], createdAt: 1, nextPollAt: null, lastPolledAt: null, acceptanceExpired: 0, flagged: 0, unchargedOrders: 0, heldRows: 0, retryable: 0, countryCode: 'US', defaultAmount: null, followUpRows: { failed: 0, cancelled: 0, expired: 0 }, failedFollowedUp: [], expiredFollowedUp: [], failedReasons: [],
  ...over,
});

describe('the status of a campaign whose charges are stated late', () => {
  const counts = { invalid: 0, ready: 0, sending: 0, ordered: 40, delivered: 0, failed: 0, cancelled: 0, skipped: 0 };
  it('says the charged total is so far, how many orders it leaves out and what reads them', () => {
    const status = campaignStatus(summary({ id: 'c_9', sendState: 'done', counts, charged: [{ currency: 'USD', amount: '12.50' }], unchargedOrders: 39 }));
    expect(status.uncharged_orders).toBe(39);
    const line = statusLine(status);
    expect(line).toContain('charged USD 12.50 so far');
    expect(line).toContain("39 orders' charges are not stated by the service yet and not in that total: `giftbatch poll c_9` reads them");
    expect(statusLine(campaignStatus(summary({ id: 'c_9', sendState: 'done', counts, charged: [], unchargedOrders: 1 })))).toContain(
      "charged nothing so far\n  1 order's charge is not stated by the service yet and not in that total: `giftbatch poll c_9` reads it",
    );
  });
  it('says nothing more once every charge is stated', () => {
    const line = statusLine(campaignStatus(summary({ id: 'c_9', sendState: 'done', counts, charged: [{ currency: 'USD', amount: '500.00' }], unchargedOrders: 0 })));
    expect(line.endsWith('charged USD 500.00')).toBe(true);
    expect(line).not.toContain('so far');
    expect(line).not.toContain('not stated');
  });
});

// `status` said "ready 4, sending 0 … invalid 2" where the campaign screen says "To send" and "Need fixing" (S15-J).
describe("the status line counts in the campaign screen's words", () => {
  const counts = { invalid: 2, ready: 3, sending: 1, ordered: 0, delivered: 0, failed: 0, cancelled: 0, skipped: 0 };
  it('says to send (those being sent apart) and need fixing, never ready or invalid', () => {
    const line = statusLine(campaignStatus(summary({ id: 'c_9', sendState: 'sending', counts })));
    expect(line).toContain('\n  to send 4 (1 being sent), ordered 0, delivered 0, failed 0, cancelled 0, skipped 0, need fixing 2; charged nothing');
    expect(statusLine(campaignStatus(summary({ id: 'c_9', counts: { ...counts, sending: 0, invalid: 0 } })))).toContain('\n  to send 3, ordered 0,');
    expect(line).not.toMatch(/\bready \d|\binvalid \d/);
  });
});

// S15-J: a follow-up whose rows are all another gift: the product its rows use, as the window says.
describe("status names the products a campaign's rows use", () => {
  it('one product used, not its own: that one', () => {
    expect(productsText({ product_id: 1, products: [{ product_id: 2, name: 'Northwind Books' }] })).toBe('product 2');
    expect(productsText({ product_id: 1, products: [{ product_id: 1, name: null }] })).toBe('product 1');
    expect(productsText({ product_id: 1, products: [{ product_id: 1, name: 'Harborline' }, { product_id: 2, name: null }] })).toBe('2 products: 1 (Harborline), 2');
  });
});

// "1 row(s) flagged", "1 recipient link(s) expired": one count, one word that agrees with it.
describe('the status line counts in words that agree with the number', () => {
  const counts = { invalid: 0, ready: 0, sending: 0, ordered: 3, delivered: 0, failed: 0, cancelled: 0, skipped: 0 };
  it('says "1 row flagged … what it asked" and "3 rows flagged … what they asked", never "row(s)"', () => {
    const one = statusLine(campaignStatus(summary({ id: 'c_9', sendState: 'done', counts, flagged: 1, acceptanceExpired: 1 })));
    expect(one).toContain("1 row flagged: the service's answer disagreed with what it asked, or could not be read (the report's discrepancy column names it)");
    expect(one).toContain('1 recipient link expired without acceptance');
    const three = statusLine(campaignStatus(summary({ id: 'c_9', sendState: 'done', counts, flagged: 3, acceptanceExpired: 2 })));
    expect(three).toContain("3 rows flagged: the service's answer disagreed with what they asked, or could not be read (the report's discrepancy column names each)");
    expect(three).toContain('2 recipient links expired without acceptance');
    expect(one + three).not.toContain('(s)');
  });
});

// S15-W's walk: `status` said "failed 2" and nothing of why or what next; the window's banner now
// says both, and the CLI the same with its commands.
describe('the status of a campaign whose rows failed', () => {
  const counts = { invalid: 0, ready: 0, sending: 0, ordered: 0, delivered: 2, failed: 2, cancelled: 0, skipped: 0 };
  const balance = 'the order costs USD 25.00 but the balance is USD 5.00';
  const failed = summary({ id: 'c_5', sendState: 'done', counts, retryable: 2, failedReasons: [{ answer: 'HTTP 402 INSUFFICIENT_BALANCE', message: balance, rows: 2 }] });

  it('says why and the next step, with the commands that take it', () => {
    const status = campaignStatus(failed);
    expect(status).toMatchObject({ failed_to_retry: 2, failed_reasons: [{ answer: 'HTTP 402 INSUFFICIENT_BALANCE', message: balance, rows: 2 }], failed_followed_up: [] });
    expect(failedRowsHint(status, 'c_5')).toBe(
      '2 rows failed: the service refused their orders, so no gift was sent and nothing was charged for them. ' +
        `2 rows: the service answered HTTP 402 INSUFFICIENT_BALANCE ("${balance}"). ` +
        "Top up the account's balance with the service, then run `giftbatch retry c_5`: the same rows go again under their own references, so none can be paid twice. " +
        'To send them differently instead, run `giftbatch follow-up c_5 --failed`: a new campaign, with new references.',
    );
    // A refused pause's detail says it already; none to retry, nothing to say.
    expect(failedRowsHint(campaignStatus({ ...failed, sendState: 'paused', pausedReason: 'refused' }), 'c_5')).toBeNull();
    expect(failedRowsHint(campaignStatus({ ...failed, retryable: 0, failedReasons: [] }), 'c_5')).toBeNull();
  });

  it('names the follow-up campaigns that took them in the status line', () => {
    const taken = campaignStatus({ ...failed, retryable: 0, failedReasons: [], failedFollowedUp: [{ id: 'c_f', name: 'Gala (follow-up)', rows: 2 }] });
    expect(statusLine(taken)).toContain('\n  2 failed rows followed up in "Gala (follow-up)" (c_f)');
    expect(statusLine(campaignStatus(failed))).not.toContain('followed up');
  });
});
