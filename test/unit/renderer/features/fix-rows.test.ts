// A sent campaign's rows that need fixing, corrected and sent from its screen (server-rendered markup,
// no browser needed): the campaign's actions offer them, the panel lists them in the draft's own table
// with its row editor, and a finished campaign's corrected rows go through the first send's
// confirmation; the wizard lets go of the campaign when the panel closes.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CampaignSummary, RowDto } from '../../../../shared/contract.ts';
import { CampaignActions, canFixRows } from '../../../../renderer/src/features/campaign/CampaignActions.tsx';
import { FixRowsPanel, openRowsToFix, rowsToFixIds, sendCorrectedLabel } from '../../../../renderer/src/features/campaign/FixRowsPanel.tsx';
import { createStores, type Stores } from '../../../../renderer/src/stores/index.ts';
import { StoresContext } from '../../../../renderer/src/stores/hooks.ts';
import type { Preflight } from '../../../../renderer/src/stores/wizard-store.ts';
import { fakeApi, ManualClock, ok, preflight, row, settle, summary } from '../helpers/fakes.ts';

const counts = { invalid: 2, ready: 0, sending: 0, ordered: 0, delivered: 3, failed: 0, cancelled: 0, skipped: 0 };
const badEmail = row(1, { state: 'invalid', email: 'bo@example', errors: [{ field: 'email', message: 'Line 2: "bo@example" is not an e-mail address' }] });
const badAmount = row(2, { state: 'invalid', amount: null, amountText: 'ten', errors: [{ field: 'amount', message: 'Line 3: "ten" is not an amount' }] });
const corrected = row(3, { state: 'ready' });
const delivered = row(4, { state: 'delivered', orderId: 4 });

function stores(): Stores {
  const clock = new ManualClock();
  return createStores({ api: fakeApi({}).api, timers: clock, now: clock.now });
}

function panel(c: CampaignSummary, rows: RowDto[], pre: Preflight | null): string {
  const s = stores();
  s.fixRows.setState({ draft: c, step: 'review', rows, rowsStatus: 'ready', preflight: pre, preflightStatus: pre ? 'ready' : 'idle' });
  // Server rendering reads a store's initial state (useSyncExternalStore's server snapshot): render this one.
  s.fixRows.getInitialState = s.fixRows.getState;
  return renderToStaticMarkup(createElement(StoresContext.Provider, { value: s }, createElement(FixRowsPanel, { summary: c, sendOnOpen: false, onClose: () => undefined })));
}

function actions(c: CampaignSummary, fixing = false): string {
  return renderToStaticMarkup(createElement(StoresContext.Provider, { value: stores() }, createElement(CampaignActions, { summary: c, fixing, onFix: () => undefined })));
}

describe('the campaign screen offers a sent campaign’s rows to fix', () => {
  it('when it is done or paused with such rows and no run is active; never a draft, a sending or a running one', () => {
    expect(canFixRows(summary({ sendState: 'done', running: false, counts }))).toBe(true);
    expect(canFixRows(summary({ sendState: 'paused', running: false, counts }))).toBe(true);
    expect(canFixRows(summary({ sendState: 'draft', running: false, counts }))).toBe(false);
    expect(canFixRows(summary({ sendState: 'sending', running: true, counts }))).toBe(false);
    expect(canFixRows(summary({ sendState: 'paused', running: true, counts }))).toBe(false);
    expect(canFixRows(summary({ sendState: 'done', running: false, counts: { ...counts, invalid: 0 } }))).toBe(false);
    expect(actions(summary({ sendState: 'done', running: false, counts }))).toMatch(/data-testid="campaign-fix-rows"[^>]*>Fix 2 rows…</);
    expect(actions(summary({ sendState: 'sending', running: true, counts }))).not.toContain('campaign-fix-rows');
    // Open already: the panel is where they are corrected and sent.
    expect(actions(summary({ sendState: 'done', running: false, counts }), true)).not.toContain('campaign-fix-rows');
  });

  it('a finished campaign’s rows left to send go to the first send’s confirmation; a paused one keeps Resume', () => {
    expect(actions(summary({ sendState: 'done', running: false, counts: { ...counts, invalid: 1, ready: 1 } }))).toMatch(/data-testid="campaign-resume"[^>]*>Send the 1 left…</);
    expect(actions(summary({ sendState: 'done', running: false, counts: { ...counts, invalid: 1, ready: 1 } }), true)).not.toContain('campaign-resume');
    expect(actions(summary({ sendState: 'paused', running: false, pausedReason: 'user', counts: { ...counts, ready: 4 } }), true)).toMatch(/data-testid="campaign-resume"[^>]*>Resume</);
  });
});

describe('the rows to fix panel', () => {
  it('lists the rows that need fixing and, on a finished campaign, the corrected ones ready to send; never a sent row', () => {
    const rows = [badEmail, badAmount, corrected, delivered];
    expect([...rowsToFixIds(rows, 'done')]).toEqual([1, 2, 3]);
    // A paused campaign's ready rows are its rows left to send, for Resume.
    expect([...rowsToFixIds(rows, 'paused')]).toEqual([1, 2]);
    // A failed row that Retry put back is ready, but was tried and needs no fixing.
    const putBack = row(5, { state: 'ready', attempts: 1, lastError: 'The service refused the order: out of stock' });
    expect([...rowsToFixIds([...rows, putBack], 'done')]).toEqual([1, 2, 3]);
    expect(sendCorrectedLabel(1)).toBe('Send 1 corrected row…');
    expect(sendCorrectedLabel(3)).toBe('Send 3 corrected rows…');
    expect(sendCorrectedLabel(5893)).toBe('Send 5,893 corrected rows…');
  });

  it('shows them in the draft’s table with its Edit and Skip, and the send of the corrected ones behind the confirmation', () => {
    const c = summary({ sendState: 'done', running: false, counts: { ...counts, invalid: 2, ready: 1 } });
    const markup = panel(c, [badEmail, badAmount, corrected, delivered], preflight(1));
    const lines = [...markup.matchAll(/data-testid="draft-row" data-line="(\d+)"/g)].map((m) => Number(m[1]));
    expect(lines).toEqual([2, 3, 4]);
    expect(markup.match(/data-testid="row-edit"/g)).toHaveLength(3);
    expect(markup).toContain('is not an e-mail address');
    expect(markup).toMatch(/<button[^>]*data-testid="fix-rows-send"[^>]*>Send 1 corrected row…<\/button>/);
    expect(markup).not.toMatch(/<button[^>]*disabled=""[^>]*data-testid="fix-rows-send"/);
    // The cost box of the review: the count and total the confirmation will state.
    expect(markup).toContain('data-testid="cost-summary"');
    expect(markup).toContain('data-testid="confirm-dialog"');
    expect(markup).toContain('nothing already sent is sent again');
  });

  it('does not list a failed row put back by Retry on a finished campaign', () => {
    const c = summary({ sendState: 'done', running: false, counts: { ...counts, invalid: 2, ready: 1 } });
    const putBack = row(5, { state: 'ready', attempts: 2, lastError: 'The service failed (HTTP 503)' });
    const markup = panel(c, [badEmail, badAmount, putBack, delivered], preflight(1));
    expect([...markup.matchAll(/data-testid="draft-row" data-line="(\d+)"/g)].map((m) => Number(m[1]))).toEqual([2, 3]);
    // It is sent with them, so the button does not call it corrected.
    expect(markup).toMatch(/data-testid="fix-rows-send"[^>]*>Send the 1 left…</);
    expect(sendCorrectedLabel(3, 1)).toBe('Send the 3 left…');
  });

  it('cannot send while nothing is corrected, or while the pre-flight finds a problem, and says why', () => {
    const c = summary({ sendState: 'done', running: false, counts });
    expect(panel(c, [badEmail, badAmount, delivered], preflight(0))).toMatch(/<button[^>]*disabled=""[^>]*data-testid="fix-rows-send"[^>]*>Send corrected rows…/);
    const held = panel(summary({ sendState: 'done', running: false, counts: { ...counts, ready: 1 } }), [badEmail, corrected], preflight(1, false));
    expect(held).toMatch(/<button[^>]*disabled=""[^>]*data-testid="fix-rows-send"/);
    expect(held).toContain('out of stock');
  });

  it('on a paused campaign, corrects them and leaves the sending to Resume', () => {
    const c = summary({ sendState: 'paused', pausedReason: 'user', running: false, counts: { ...counts, ready: 5 } });
    const markup = panel(c, [badEmail, badAmount, row(5, { state: 'ready' })], preflight(6));
    expect([...markup.matchAll(/data-testid="draft-row" data-line="(\d+)"/g)].map((m) => Number(m[1]))).toEqual([2, 3]);
    expect(markup).not.toContain('fix-rows-send');
    expect(markup).toContain('Resume sends it with the rest of the campaign');
  });
});

describe('the wizard lets go of a sent campaign when its panel closes', () => {
  it('closeDraft empties it when it holds that campaign, and leaves another alone', async () => {
    const calls = fakeApi({
      'campaigns:rows': () => ok({ rows: [badEmail], total: 1 }),
      'campaigns:preflight': () => ok(preflight(0)),
      'products:list': () => ok({ products: [], unreadable: [], service: 'the built-in simulator' }),
    });
    const clock = new ManualClock();
    const s = createStores({ api: calls.api, timers: clock, now: clock.now });
    const c = summary({ sendState: 'done', running: false, counts });
    await s.wizard.getState().openDraft(c);
    await settle();
    expect(s.wizard.getState().draft?.id).toBe('c1');
    s.wizard.getState().closeDraft('another');
    expect(s.wizard.getState().draft?.id).toBe('c1');
    s.wizard.getState().closeDraft('c1');
    expect(s.wizard.getState()).toMatchObject({ draft: null, rows: [], step: 'setup' });
  });
});

describe('the rows to fix panel leaves a new campaign in progress alone', () => {
  it('holds the campaign in its own store: the wizard keeps what the organiser was preparing, through the panel and after it', async () => {
    const calls = fakeApi({
      'campaigns:rows': () => ok({ rows: [badEmail], total: 1 }),
      'campaigns:preflight': () => ok(preflight(0)),
      'products:list': () => ok({ products: [], unreadable: [], service: 'the built-in simulator' }),
    });
    const clock = new ManualClock();
    const s = createStores({ api: calls.api, timers: clock, now: clock.now });
    const file = { fileName: 'guests.csv', bytesBase64: 'bmFtZQ==', size: 4 };
    s.wizard.setState({ step: 'import', name: 'Spring gala', senderName: 'Ada', productId: 7, file });
    const c = summary({ sendState: 'done', running: false, counts });
    const close = openRowsToFix(s, c, true);
    await settle();
    expect(s.fixRows.getState()).toMatchObject({ draft: { id: 'c1' }, rows: [badEmail], confirmOpen: true });
    expect(s.wizard.getState()).toMatchObject({ draft: null, step: 'import', name: 'Spring gala', senderName: 'Ada', productId: 7, file });
    close();
    expect(s.fixRows.getState()).toMatchObject({ draft: null, rows: [] });
    expect(s.wizard.getState()).toMatchObject({ draft: null, step: 'import', name: 'Spring gala', file });
  });
});

describe('the rows to fix panel reads only the rows it lists', () => {
  // A campaign of many rows, most sent or left to send: the fake answers campaigns:rows with its filters applied.
  function campaignRows() {
    let rows: RowDto[] = [badEmail, badAmount, corrected, delivered, row(5, { state: 'ready', attempts: 1 }), row(6, { state: 'skipped' })];
    const calls = fakeApi({
      'campaigns:rows': (input) => {
        const named = rows.filter((r) => (!input.states || input.states.includes(r.state)) && (!input.ids || input.ids.includes(r.id)));
        const from = input.offset ?? 0;
        return ok({ rows: named.slice(from, from + (input.limit ?? 200)), total: named.length });
      },
      'campaigns:get': () => ok(summary({ sendState: 'paused', running: false, counts })),
      'campaigns:preflight': () => ok(preflight(0)),
      'products:list': () => ok({ products: [], unreadable: [], service: 'the built-in simulator' }),
      'rows:edit': (input) => {
        const edited = row(input.rowId, { state: 'ready', email: input.email });
        rows = rows.map((r) => (r.id === input.rowId ? edited : r));
        return ok(edited);
      },
    });
    const clock = new ManualClock();
    return { calls, stores: createStores({ api: calls.api, timers: clock, now: clock.now }) };
  }

  it('asks for the rows that need fixing (and a finished campaign’s ready ones), never every row; the wizard’s draft still reads all', async () => {
    const paused = campaignRows();
    await paused.stores.fixRows.getState().openDraft(summary({ sendState: 'paused', running: false, counts }));
    expect(paused.calls.callsOf('campaigns:rows').map((c) => c.states)).toEqual([['invalid']]);
    expect(paused.stores.fixRows.getState().rows.map((r) => r.id)).toEqual([1, 2]);

    const done = campaignRows();
    await done.stores.fixRows.getState().openDraft(summary({ sendState: 'done', running: false, counts }));
    expect(done.calls.callsOf('campaigns:rows').map((c) => c.states)).toEqual([['invalid', 'ready']]);
    expect(done.stores.fixRows.getState().rows.map((r) => r.id)).toEqual([1, 2, 3, 5]);

    const wizard = campaignRows();
    await wizard.stores.wizard.getState().openDraft(summary({ sendState: 'draft', running: false, counts }));
    expect(wizard.calls.callsOf('campaigns:rows').map((c) => c.states)).toEqual([undefined]);
  });

  it('keeps a row corrected in the panel: read again by its id once it left the states asked for', async () => {
    const { calls, stores: s } = campaignRows();
    await s.fixRows.getState().openDraft(summary({ sendState: 'paused', running: false, counts }));
    expect(await s.fixRows.getState().editRow(1, { name: 'Guest 1', email: 'bo@example.com', amount: null, message: null })).toBe(true);
    await settle();
    const reads = calls.callsOf('campaigns:rows').slice(1);
    expect(reads.map((c) => ({ states: c.states, ids: c.ids }))).toEqual([{ states: ['invalid'], ids: undefined }, { states: undefined, ids: [1] }]);
    expect(s.fixRows.getState().rows.map((r) => [r.id, r.state])).toEqual([
      [1, 'ready'],
      [2, 'invalid'],
    ]);
  });
});
