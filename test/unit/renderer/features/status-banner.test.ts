// The campaign's banners as the window renders them (server-rendered markup, no browser needed).
import { createElement, isValidElement, type ReactElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CampaignSummary } from '../../../../shared/contract.ts';
import { FollowUpNames, lastChecked, StatusBanner } from '../../../../renderer/src/features/campaign/StatusBanner.tsx';
import { summary } from '../helpers/fakes.ts';

const text = (c: CampaignSummary): string => renderToStaticMarkup(createElement(StatusBanner, { summary: c })).replace(/<[^>]+>/g, '').replaceAll('&#x27;', "'").replaceAll('&quot;', '"');
const counts = { invalid: 0, ready: 0, sending: 0, ordered: 4, delivered: 0, failed: 0, cancelled: 0, skipped: 0 };

describe('StatusBanner: links that expired before acceptance', () => {
  it('asks to contact the recipients while a follow-up could still take their rows', () => {
    const c = summary({ sendState: 'done', running: false, counts, acceptanceExpired: 4, followUpRows: { failed: 0, cancelled: 0, expired: 4 } });
    expect(text(c)).toContain("4 recipients never accepted before the link expired. Their rows are flagged below; contact them or the service's support.");
  });

  it('says a follow-up took them once one did, and no longer asks to contact them', () => {
    const c = summary({ sendState: 'done', running: false, counts, acceptanceExpired: 4, followUpRows: { failed: 0, cancelled: 0, expired: 0 } });
    expect(text(c)).toContain('a follow-up campaign took them all as new gifts.');
    expect(text(c)).not.toContain('contact them');
  });

  it('says how many a follow-up took when it took some', () => {
    const c = summary({ sendState: 'done', running: false, counts, acceptanceExpired: 4, followUpRows: { failed: 0, cancelled: 0, expired: 1 } });
    expect(text(c)).toContain("a follow-up campaign took 3 of them as new gifts; contact the others or the service's support.");
  });
});

describe('StatusBanner: which follow-up took the expired links', () => {
  it('names the follow-up campaign that took them, as the paused banner names the one that took failed rows', () => {
    const all = summary({ sendState: 'done', running: false, counts, acceptanceExpired: 4, followUpRows: { failed: 0, cancelled: 0, expired: 0 }, expiredFollowedUp: [{ id: 'c2', name: 'Gala, again', rows: 4 }] });
    expect(text(all)).toContain('Their rows are flagged below; follow-up campaign "Gala, again" took them all as new gifts.');
    const some = summary({ sendState: 'done', running: false, counts, acceptanceExpired: 4, followUpRows: { failed: 0, cancelled: 0, expired: 1 }, expiredFollowedUp: [{ id: 'c2', name: 'Gala, again', rows: 3 }] });
    expect(text(some)).toContain('follow-up campaign "Gala, again" took 3 of them as new gifts; contact the others');
  });

  it('names every follow-up campaign when several took them', () => {
    const two = summary({
      sendState: 'done',
      running: false,
      counts,
      acceptanceExpired: 4,
      followUpRows: { failed: 0, cancelled: 0, expired: 0 },
      expiredFollowedUp: [{ id: 'c2', name: 'Gala, again', rows: 3 }, { id: 'c3', name: 'Gala, last call', rows: 1 }],
    });
    expect(text(two)).toContain('follow-up campaigns "Gala, again" and "Gala, last call" took them all as new gifts.');
  });
});

describe('StatusBanner: the follow-ups named are links to their campaigns', () => {
  const two = summary({
    sendState: 'done',
    running: false,
    counts,
    acceptanceExpired: 4,
    followUpRows: { failed: 0, cancelled: 0, expired: 0 },
    expiredFollowedUp: [{ id: 'c2', name: 'Gala, again', rows: 3 }, { id: 'c3', name: 'Gala, last call', rows: 1 }],
  });
  const markup = (c: CampaignSummary, onOpenCampaign?: (id: string) => void): string => renderToStaticMarkup(createElement(StatusBanner, { summary: c, onOpenCampaign }));
  /** The buttons of a rendered tree of plain elements (FollowUpNames uses no hook, so it can be called). */
  const buttons = (node: ReactNode): ReactElement<{ onClick: () => void; children: ReactNode }>[] => {
    if (Array.isArray(node)) return node.flatMap(buttons);
    if (!isValidElement<{ children?: ReactNode }>(node)) return [];
    if (node.type === 'button') return [node as ReactElement<{ onClick: () => void; children: ReactNode }>];
    if (typeof node.type === 'function') return buttons((node.type as (p: unknown) => ReactNode)(node.props));
    return buttons(node.props.children);
  };

  it('each name is a link-styled button that opens that campaign, the words unchanged', () => {
    const html = markup(two, () => undefined);
    expect(html.match(/<button type="button" class="link" data-testid="banner-follow-up-link">[^<]+<\/button>/g)).toEqual([
      '<button type="button" class="link" data-testid="banner-follow-up-link">Gala, again</button>',
      '<button type="button" class="link" data-testid="banner-follow-up-link">Gala, last call</button>',
    ]);
    expect(text(two)).toContain('follow-up campaigns "Gala, again" and "Gala, last call" took them all as new gifts.');
    const opened: string[] = [];
    const links = buttons(FollowUpNames({ list: two.expiredFollowedUp, onOpen: (id) => opened.push(id) }));
    expect(links.map((b) => b.props.children)).toEqual(['Gala, again', 'Gala, last call']);
    links.forEach((b) => b.props.onClick());
    expect(opened).toEqual(['c2', 'c3']);
  });

  it('without a way to open a campaign the names stay plain text', () => {
    expect(markup(two)).not.toContain('banner-follow-up-link');
  });
});

describe('StatusBanner: the next check', () => {
  it('counts as awaiting delivery only the ordered rows whose link has not expired', () => {
    const c = summary({ sendState: 'done', running: false, counts, acceptanceExpired: 3, nextPollAt: Date.now() + 60_000 });
    expect(text(c)).toContain('1 awaiting delivery, 3 with an expired link. Next check in');
    const none = summary({ sendState: 'done', running: false, counts, acceptanceExpired: 4, nextPollAt: Date.now() + 60_000 });
    expect(text(none)).toContain('0 awaiting delivery, 4 with an expired link. Next check in');
    const all = summary({ sendState: 'done', running: false, counts, acceptanceExpired: 0, nextPollAt: Date.now() + 60_000 });
    expect(text(all)).toContain('4 awaiting delivery. Next check in');
  });
});

describe('StatusBanner: a paused campaign', () => {
  it('never counts failed rows as sent', () => {
    const c = summary({ sendState: 'paused', running: false, pausedReason: 'user', counts: { ...counts, ordered: 3, failed: 3, ready: 2 } });
    expect(text(c)).toContain('Paused. 3 sent, 3 failed, 2 left to send');
  });
});

describe('StatusBanner: when the service was last asked', () => {
  it('says when the last check was, beside the next one, and in the same words as it', () => {
    const now = Date.now();
    const c = summary({ sendState: 'done', running: false, counts, nextPollAt: now + 40_000, lastPolledAt: now - 3 * 60_000 });
    expect(text(c)).toMatch(/4 awaiting delivery\. Next check in (39|40) s\. Last checked 3 min ago\./);
  });

  it('says it after the last delivery too, when no check is scheduled, and "just now" for a check this second', () => {
    const now = Date.now();
    const delivered = { ...counts, ordered: 0, delivered: 4 };
    expect(text(summary({ sendState: 'done', running: false, counts: delivered, lastPolledAt: now - 7_200_000 }))).toContain('Last checked 2 h ago.');
    expect(text(summary({ sendState: 'done', running: false, counts, lastPolledAt: now }))).toContain('Last checked just now.');
    expect(lastChecked(now - 400, now)).toBe('Last checked just now.');
    expect(lastChecked(now - 12_000, now)).toBe('Last checked 12 s ago.');
    // A check stamped by another machine's clock a moment ahead is not "in 2 s".
    expect(lastChecked(now + 2_000, now)).toBe('Last checked just now.');
  });

  it('says nothing of a campaign never checked', () => {
    const c = summary({ sendState: 'done', running: false, counts: { ...counts, ordered: 0, delivered: 4 }, lastPolledAt: null });
    expect(text(c)).not.toContain('Last checked');
    expect(text(summary({ sendState: 'done', running: false, counts, nextPollAt: Date.now() + 60_000 }))).not.toContain('Last checked');
  });
});

describe('StatusBanner: rows a finished campaign never sent because they need fixing', () => {
  const unsent = { ...counts, ordered: 0, delivered: 6, invalid: 2 };
  it('says they were not sent, where to see why, and that they are corrected and sent here, nothing sent twice', () => {
    const c = summary({ sendState: 'done', running: false, counts: unsent });
    expect(text(c)).toContain("2 rows were not sent: they need fixing (each row's Details says why; Problems lists them).");
    expect(text(c)).toContain('Correct them here, then send them: the same check and confirmation as the first send, and nothing already sent is sent again.');
    expect(text(c)).not.toContain('import it as a new campaign');
    expect(text(summary({ sendState: 'done', running: false, counts: { ...unsent, invalid: 1 } }))).toContain('One row was not sent: it needs fixing');
    expect(text(summary({ sendState: 'done', running: false, counts: { ...unsent, invalid: 1 } }))).toContain('Correct it here, then send it:');
  });

  it('offers the button that opens them on the screen, when the screen gives one and no run is active', () => {
    const markup = (c: CampaignSummary, onFix?: () => void): string => renderToStaticMarkup(createElement(StatusBanner, { summary: c, onFix }));
    const done = summary({ sendState: 'done', running: false, counts: unsent });
    expect(markup(done, () => undefined)).toMatch(/data-testid="banner-fix-rows"[^>]*>Fix the 2 rows</);
    expect(markup(summary({ sendState: 'done', running: false, counts: { ...unsent, invalid: 1 } }), () => undefined)).toContain('>Fix the row<');
    expect(markup(done)).not.toContain('banner-fix-rows');
    expect(markup(summary({ sendState: 'done', running: true, counts: unsent }), () => undefined)).not.toContain('banner-fix-rows');
  });

  it('says nothing while the campaign is a draft or still sending, or when every row was sendable', () => {
    for (const sendState of ['draft', 'sending', 'paused'] as const) {
      expect(text(summary({ sendState, running: sendState === 'sending', counts: unsent }))).not.toContain('not sent: ');
    }
    expect(text(summary({ sendState: 'done', running: false, counts: { ...unsent, invalid: 0 } }))).not.toContain('not sent: ');
  });
});

describe('StatusBanner: rows held for a person (paused unconfirmed)', () => {
  const detail = 'The service\'s order list shows no order under the key of line 3 (gb-1), whose request first went out 2026-11-23 13:29 UTC, but that proves nothing here.';
  const held = { invalid: 0, ready: 0, sending: 1, ordered: 2, delivered: 0, failed: 0, cancelled: 0, skipped: 0 };

  it('says in plain words what to do, and leaves the long per-row detail to the rows listed below', () => {
    const t = text(summary({ sendState: 'paused', pausedReason: 'unconfirmed', pausedDetail: detail, running: false, counts: held, heldRows: 1 }));
    expect(t).toContain('Giftbatch cannot tell whether some gifts that were being sent when it stopped were ordered');
    expect(t).toContain('"Rows to look up at the service"');
    expect(t).toContain('None there: press Resume and choose "Send them again".');
    expect(t).not.toContain('proves nothing');
    expect(t).not.toContain('Detail:');
  });

  it('keeps the detail once no row is held (nothing listed below says it)', () => {
    const t = text(summary({ sendState: 'paused', pausedReason: 'unconfirmed', pausedDetail: detail, running: false, counts: { ...held, sending: 0, ready: 1 } }));
    expect(t).toContain(`Detail: ${detail}`);
  });

  it('keeps the detail of other pauses', () => {
    const internal = 'Sending stopped on an internal error: SQLITE_BUSY: database is locked';
    const t = text(summary({ sendState: 'paused', pausedReason: 'interrupted', pausedDetail: internal, running: false, counts: held }));
    expect(t).toContain(`Detail: ${internal}`);
    const closed = 'Giftbatch was closed while this campaign was sending.';
    expect(text(summary({ sendState: 'paused', pausedReason: 'interrupted', pausedDetail: closed, running: false, counts: held }))).toContain(`Detail: ${closed}`);
  });

  it('leaves out a one-word engine detail ("Detail: closed") and one the advice already says', () => {
    const closed = text(summary({ sendState: 'paused', pausedReason: 'interrupted', pausedDetail: 'closed', running: false, counts: held }));
    expect(closed).toContain('Interrupted.');
    expect(closed).not.toContain('Detail:');
    const same = text(summary({ sendState: 'paused', pausedReason: 'interrupted', pausedDetail: 'Giftbatch stopped while this campaign was sending.', running: false, counts: held }));
    expect(same).not.toContain('Detail:');
  });

  it('keeps a one-word detail of another pause: it may be all there is of an error', () => {
    const t = text(summary({ sendState: 'paused', pausedReason: 'circuit-breaker', pausedDetail: 'ECONNRESET', running: false, counts: held }));
    expect(t).toContain('Detail: ECONNRESET');
  });
});

describe('StatusBanner: rows that failed (the service refused their orders)', () => {
  const failedCounts = { ...counts, ordered: 0, delivered: 2, failed: 2 };
  const balance = 'the order costs USD 25.00 but the balance is USD 5.00; top up the account and retry with the same external_reference_id';
  const failedReasons = [{ answer: 'HTTP 402 INSUFFICIENT_BALANCE', message: balance, rows: 2 }];

  it('says how many failed, why (the service\'s answer), and the next step: top up, then "Retry 2 failed", or a follow-up', () => {
    const t = text(summary({ sendState: 'done', running: false, counts: failedCounts, failedReasons }));
    expect(t).toContain('2 rows failed: the service refused their orders, so no gift was sent and nothing was charged for them.');
    expect(t).toContain(`2 rows: the service answered HTTP 402 INSUFFICIENT_BALANCE ("${balance}").`);
    expect(t).toContain(
      'Top up the account\'s balance with the service, then press "Retry 2 failed": the same rows go again under their own references, so none can be paid twice. ' +
        'To send them differently instead, press "Follow-up campaign…": a new campaign, with new references.',
    );
  });

  it('groups each answer, counts the rows no group shown covers, and asks to fix the cause when it is not the balance', () => {
    const reasons = [
      { answer: 'HTTP 422 PRODUCT_NOT_ON_SALE', message: 'the product is not on sale', rows: 3 },
      { answer: null, message: '', rows: 1 },
    ];
    const t = text(summary({ sendState: 'done', running: false, counts: { ...failedCounts, failed: 5 }, failedReasons: reasons }));
    expect(t).toContain('5 rows failed');
    expect(t).toContain('3 rows: the service answered HTTP 422 PRODUCT_NOT_ON_SALE ("the product is not on sale").');
    expect(t).toContain('1 row: the service gave no reason.');
    expect(t).toContain("1 other row failed for other reasons (each row's Details says why; Problems lists them).");
    expect(t).toContain('Fix the cause with the service, then press "Retry 5 failed"');
    const one = text(summary({ sendState: 'done', running: false, counts: { ...failedCounts, failed: 1 }, failedReasons: [{ ...failedReasons[0]!, rows: 1 }] }));
    expect(one).toContain('One row failed: the service refused its order');
    expect(one).toContain('then press "Retry 1 failed": the same row goes again under its own reference');
  });

  it('says nothing of them while sending, nor under a refused pause (its own banner says to retry), nor once a follow-up took them', () => {
    expect(text(summary({ sendState: 'sending', running: true, counts: failedCounts, failedReasons }))).not.toContain('rows failed');
    expect(text(summary({ sendState: 'paused', pausedReason: 'refused', running: false, counts: failedCounts, failedReasons }))).not.toContain('rows failed');
    const taken = summary({ sendState: 'done', running: false, counts: failedCounts, retryable: 0, followUpRows: { failed: 0, cancelled: 0, expired: 0 }, failedFollowedUp: [{ id: 'c2', name: 'Gala (follow-up)', rows: 2 }] });
    expect(text(taken)).not.toContain('rows failed');
  });
});

describe('StatusBanner: failed rows a follow-up campaign took', () => {
  const failedCounts = { ...counts, ordered: 0, delivered: 2, failed: 2 };
  const taken = summary({ sendState: 'done', running: false, counts: failedCounts, retryable: 0, followUpRows: { failed: 0, cancelled: 0, expired: 0 }, failedFollowedUp: [{ id: 'c2', name: 'Gala (follow-up)', rows: 2 }] });

  it('says where they went, the name a link to that campaign', () => {
    expect(text(taken)).toContain('2 failed → followed up in "Gala (follow-up)".');
    const html = renderToStaticMarkup(createElement(StatusBanner, { summary: taken, onOpenCampaign: () => undefined }));
    expect(html).toContain('data-testid="banner-failed-followed-up"');
    expect(html).toContain('<button type="button" class="link" data-testid="banner-follow-up-link">Gala (follow-up)</button>');
  });

  it('says how many are left when it took some, and nothing under a refused pause (its detail names the follow-up)', () => {
    const some = summary({ sendState: 'done', running: false, counts: { ...failedCounts, failed: 3 }, retryable: 1, failedFollowedUp: [{ id: 'c2', name: 'A', rows: 1 }, { id: 'c3', name: 'B', rows: 1 }] });
    expect(text(some)).toContain('2 failed → followed up in "A" and "B"; 1 not yet.');
    expect(text({ ...taken, sendState: 'paused', pausedReason: 'refused' })).not.toContain('followed up in');
  });
});
