// The import step's "Saving the draft…" figure: the wizard store hears its own create's
// campaigns:createProgress (not another window's), and keeps none once the create answered,
// whether it succeeded or failed; the text and bar it shows.
import { describe, expect, it } from 'vitest';
import type { CallOutput, Result } from '../../../../shared/contract.ts';
import { saveProgressScale, saveProgressText } from '../../../../renderer/src/features/new-campaign/save-progress.ts';
import { createWizardStore } from '../../../../renderer/src/stores/wizard-store.ts';
import { fakeApi, ManualClock, ok, row, summary } from '../helpers/fakes.ts';

type Created = Result<CallOutput<'campaigns:create'>>;
type StopAnswer = Result<CallOutput<'campaigns:stopCreate'>>;

const product = {
  id: 5, name: 'Product 5', brand: null, countryCode: 'US', currency: 'USD', currencySource: 'service' as const, availability: 'ON_SALE',
  deliveryMethods: ['EMAIL'], price: { kind: 'fixed' as const, amount: { currency: 'USD', amount: '10.00' } }, unorderableReason: null,
};

function setup(stopAnswer: StopAnswer | (() => StopAnswer | Promise<StopAnswer>) = ok({ outcome: 'stopping', message: 'Stopping: nothing of this draft will be saved.' })) {
  const clock = new ManualClock();
  let answer!: (result: Created) => void;
  const fake = fakeApi({
    'campaigns:stopCreate': () => (typeof stopAnswer === 'function' ? stopAnswer() : stopAnswer),
    'products:list': () => ok({ products: [product], unreadable: [], service: 'the built-in simulator' }),
    'app:sampleCsv': () => ok({ fileName: 'sample.csv', bytesBase64: btoa('Name,Email\nA,a@example.com\n') }),
    'campaigns:previewImport': () =>
      ok({
        format: 'csv', workbook: null, encoding: 'utf-8', delimiter: ',', headers: ['Name', 'Email'], mapping: { name: 0, email: 1 }, detectedMapping: { name: 0, email: 1 },
        problems: [], rows: [], defaultMessage: null, product,
        totals: { rows: 1, valid: 1, invalid: 0, duplicateEmails: 0, knownEmails: 0, amounts: [], byProduct: [], toSend: [] },
      }),
    'campaigns:create': () => new Promise<Created>((resolve) => (answer = resolve)),
    'campaigns:rows': () => ok({ rows: [row(1)], total: 1 }),
    'campaigns:preflight': () => ok({ ok: true, problems: [], rowsToSend: 1, totals: [], availability: null, repeatRecipients: { count: 0, lines: [] }, accountChanged: null, repeatsInCampaign: { people: 0, rows: 0 }, byProduct: [] }),
  });
  const store = createWizardStore({ api: fake.api, timers: clock, now: clock.now });
  return { store, fake, answer: (result: Created) => answer(result) };
}

async function creating(t: ReturnType<typeof setup>): Promise<{ done: Promise<boolean>; progressId: string }> {
  await t.store.getState().start('simulator', { sample: true });
  t.store.getState().setText('senderName', 'Team');
  const done = t.store.getState().createDraft();
  await new Promise((resolve) => setTimeout(resolve, 0));
  const progressId = t.fake.callsOf('campaigns:create').at(-1)?.progressId;
  if (!progressId) throw new Error('campaigns:create was not given a progressId');
  return { done, progressId };
}

describe('the draft being saved: its progress', () => {
  it("shows its own create's figures as they come, not another window's, and none once the draft is made", async () => {
    const t = setup();
    const { done, progressId } = await creating(t);
    expect(t.store.getState()).toMatchObject({ creating: true, createProgress: null });

    t.fake.emit('campaigns:createProgress', { progressId, phase: 'checking', stored: 0, total: null });
    expect(t.store.getState().createProgress).toEqual({ phase: 'checking', stored: 0, total: null });
    t.fake.emit('campaigns:createProgress', { progressId, phase: 'storing', stored: 42_000, total: 100_000 });
    t.fake.emit('campaigns:createProgress', { progressId: `${progressId} of another window`, phase: 'storing', stored: 7, total: 9 });
    expect(t.store.getState().createProgress).toEqual({ phase: 'storing', stored: 42_000, total: 100_000 });

    t.answer(ok({ ...summary({ id: 'd1', sendState: 'draft' }), product }));
    expect(await done).toBe(true);
    expect(t.store.getState()).toMatchObject({ step: 'review', creating: false, createProgress: null });
    // A figure that arrives after the answer (the socket may lag the HTTP answer) is not shown.
    t.fake.emit('campaigns:createProgress', { progressId, phase: 'storing', stored: 100_000, total: 100_000 });
    expect(t.store.getState().createProgress).toBeNull();
  });

  it('a failed create leaves no figure behind, and the next create has a progressId of its own', async () => {
    const t = setup();
    const first = await creating(t);
    t.fake.emit('campaigns:createProgress', { progressId: first.progressId, phase: 'storing', stored: 3_000, total: 5_000 });
    t.answer({ ok: false, error: { code: 'internal', message: 'The import stopped before it finished; nothing was stored and no campaign was created.' } });
    expect(await first.done).toBe(false);
    expect(t.store.getState()).toMatchObject({ creating: false, createProgress: null, createError: expect.stringMatching(/import stopped/) });
    t.fake.emit('campaigns:createProgress', { progressId: first.progressId, phase: 'storing', stored: 4_000, total: 5_000 });
    expect(t.store.getState().createProgress).toBeNull();

    const done = t.store.getState().createDraft();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const second = t.fake.callsOf('campaigns:create').at(-1)?.progressId;
    expect(second).toBeTruthy();
    expect(second).not.toBe(first.progressId);
    // The first create's late figure does not show on the second.
    t.fake.emit('campaigns:createProgress', { progressId: first.progressId, phase: 'storing', stored: 4_500, total: 5_000 });
    expect(t.store.getState().createProgress).toBeNull();
    t.answer(ok({ ...summary({ id: 'd2', sendState: 'draft' }), product }));
    expect(await done).toBe(true);
  });

  it('says what the engine does: checking the file, then rows saved of the total, with the bar filled as far', () => {
    expect(saveProgressText(null)).toBeNull();
    expect(saveProgressText({ phase: 'checking', stored: 0, total: null })).toBe('Checking the file…');
    expect(saveProgressText({ phase: 'storing', stored: 42_000, total: 100_000 })).toBe('42,000 of 100,000 rows saved');
    expect(saveProgressText({ phase: 'storing', stored: 0, total: 1 })).toBe('0 of 1 row saved');
    expect(saveProgressScale(null)).toBe(0);
    expect(saveProgressScale({ phase: 'checking', stored: 0, total: null })).toBe(0);
    expect(saveProgressScale({ phase: 'storing', stored: 42_000, total: 100_000 })).toBeCloseTo(0.42);
    expect(saveProgressScale({ phase: 'storing', stored: 0, total: 0 })).toBe(0);
  });
});

const STOPPED = 'Saving the draft was stopped: nothing was saved and no campaign was created.';

describe('stopping the draft being saved', () => {
  it('asks the engine to stop its own create, then says nothing was saved and stays on the import step with the file and choices', async () => {
    const t = setup();
    const { done, progressId } = await creating(t);
    t.store.getState().setRepeats('earlier', 'send');
    const before = t.store.getState();
    t.fake.emit('campaigns:createProgress', { progressId, phase: 'storing', stored: 12_000, total: 40_000 });
    const stopping = t.store.getState().stopCreate();
    expect(t.store.getState().createStopping).toBe(true);
    await stopping;
    expect(t.fake.callsOf('campaigns:stopCreate')).toEqual([{ progressId }]);
    // Asked once: a second press while it stops asks nothing more.
    await t.store.getState().stopCreate();
    expect(t.fake.callsOf('campaigns:stopCreate')).toHaveLength(1);

    t.answer({ ok: false, error: { code: 'stopped', message: STOPPED } });
    expect(await done).toBe(false);
    expect(t.store.getState()).toMatchObject({
      step: 'import', creating: false, createStopping: false, createProgress: null, createError: null, createStopped: STOPPED, draft: null,
      file: before.file, repeats: { inCampaign: 'skip', earlier: 'send' }, name: before.name, senderName: 'Team', preview: before.preview,
    });

    // Saving again clears the note and names a new create.
    const again = t.store.getState().createDraft();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(t.store.getState()).toMatchObject({ creating: true, createStopped: null });
    expect(t.fake.callsOf('campaigns:create').at(-1)?.progressId).not.toBe(progressId);
    t.answer(ok({ ...summary({ id: 'd3', sendState: 'draft' }), product }));
    expect(await again).toBe(true);
    expect(t.store.getState()).toMatchObject({ step: 'review', createStopped: null });
  });

  it('a stop that comes too late says so at once, never "Stopping…" while the save goes on, and the create answers the draft', async () => {
    const TOO_LATE = 'Too late to stop: the draft is already saved, with all its rows.';
    const t = setup(ok({ outcome: 'saved', message: TOO_LATE }));
    const { done } = await creating(t);
    await t.store.getState().stopCreate();
    // The create still runs (its last part going in): the window says it is being saved, and Stop is done.
    expect(t.store.getState()).toMatchObject({ creating: true, createStopping: false, createStopLate: { message: TOO_LATE, canRetry: false }, createError: null });
    await t.store.getState().stopCreate();
    expect(t.fake.callsOf('campaigns:stopCreate')).toHaveLength(1);
    t.answer(ok({ ...summary({ id: 'd4', sendState: 'draft' }), product }));
    expect(await done).toBe(true);
    expect(t.store.getState()).toMatchObject({ step: 'review', creating: false, createStopping: false, createStopLate: null, createStopped: null, createError: null });
    expect(t.store.getState().draft?.id).toBe('d4');
  });

  it('a stop that did not reach the save (not-running) lets Stop be pressed again, which then stops it', async () => {
    let answer: StopAnswer = ok({ outcome: 'not-running', message: 'No draft is being saved under "create 1 x" here; nothing was changed.' });
    const t = setup(() => answer);
    const { done, progressId } = await creating(t);
    await t.store.getState().stopCreate();
    expect(t.store.getState()).toMatchObject({ creating: true, createStopping: false, createStopLate: { message: expect.stringMatching(/did not reach this save.*Press Stop saving again/), canRetry: true } });
    answer = ok({ outcome: 'stopping', message: 'Stopping: nothing of this draft will be saved.' });
    await t.store.getState().stopCreate();
    expect(t.fake.callsOf('campaigns:stopCreate')).toEqual([{ progressId }, { progressId }]);
    expect(t.store.getState()).toMatchObject({ createStopping: true, createStopLate: null });
    t.answer({ ok: false, error: { code: 'stopped', message: STOPPED } });
    expect(await done).toBe(false);
    expect(t.store.getState()).toMatchObject({ step: 'import', creating: false, createStopping: false, createStopLate: null, createStopped: STOPPED });
  });

  it('a stop answered after the create already answered changes nothing: the window shows the saved draft', async () => {
    let release!: (a: StopAnswer) => void;
    const t = setup(() => new Promise<StopAnswer>((resolve) => (release = resolve)));
    const { done } = await creating(t);
    const stopping = t.store.getState().stopCreate();
    expect(t.store.getState().createStopping).toBe(true);
    t.answer(ok({ ...summary({ id: 'd5', sendState: 'draft' }), product }));
    expect(await done).toBe(true);
    release(ok({ outcome: 'saved', message: 'Too late to stop.' }));
    await stopping;
    expect(t.store.getState()).toMatchObject({ step: 'review', creating: false, createStopping: false, createStopLate: null, createError: null });
  });

  it('a stop that cannot be asked says so and lets the person press Stop again', async () => {
    const t = setup({ ok: false, error: { code: 'service-unreachable', message: 'The app is not answering.' } });
    await creating(t);
    await t.store.getState().stopCreate();
    expect(t.store.getState()).toMatchObject({ creating: true, createStopping: false, createError: 'Could not stop saving the draft: The app is not answering.' });
  });

  it('without a create running, Stop asks nothing', async () => {
    const t = setup();
    await t.store.getState().start('simulator', { sample: true });
    await t.store.getState().stopCreate();
    expect(t.fake.callsOf('campaigns:stopCreate')).toEqual([]);
  });
});
