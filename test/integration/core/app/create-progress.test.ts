// campaigns:create tells how far it is: through the app service (real SQLite, the import worker, the
// simulator's catalog), `campaigns:createProgress` events for the caller's progressId, in order,
// a few a second, ending at every row stored, and none after the answer; a failed create's stop.
import { describe, expect, it } from 'vitest';
import type { EventPayload } from '../../../../shared/contract.ts';
import { tempDir } from '../../../support/index.ts';
import { recipientsCsv, startService, usdRangeProduct, type Harness } from '../../../support/app-harness.ts';

type Progress = EventPayload<'campaigns:createProgress'> & { at: number };

function listen(h: Harness): Progress[] {
  const heard: Progress[] = [];
  h.service.on('campaigns:createProgress', (payload) => heard.push({ ...payload, at: performance.now() }));
  return heard;
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('campaigns:create progress', () => {
  it('reports checking, then rows stored in order up to the total, a few a second, and nothing after the answer', async () => {
    const h = await startService(tempDir());
    const heard = listen(h);
    const productId = await usdRangeProduct(h);
    // Forty parts of 1,000 rows, each followed by a pause of 10 ms at least: storing takes 400 ms or
    // more however fast the machine, so at least one figure falls between the first and the last
    // (at most one each 250 ms). With six parts a quick machine stored them all within 250 ms.
    const ROWS = 40_000;
    const started = performance.now();
    const created = await h.ok('campaigns:create', {
      fileName: 'forty-thousand.csv', bytesBase64: recipientsCsv(ROWS), environment: 'simulator', productId,
      name: 'Progress', senderName: 'Team', defaultAmount: '10', progressId: 'window-1 create-7',
    });
    const answeredAt = performance.now();
    const before = heard.length;
    await settle(400);
    expect(heard.length).toBe(before);

    expect(created.counts.ready).toBe(ROWS);
    expect(heard.every((p) => p.progressId === 'window-1 create-7')).toBe(true);
    expect(heard[0]).toMatchObject({ phase: 'checking', stored: 0, total: null });
    const storing = heard.slice(1);
    expect(storing.every((p) => p.phase === 'storing' && p.total === ROWS)).toBe(true);
    expect(storing[0]?.stored).toBe(0);
    expect(storing.at(-1)?.stored).toBe(ROWS);
    for (let i = 1; i < storing.length; i++) expect(storing[i]!.stored).toBeGreaterThan(storing[i - 1]!.stored);
    expect(storing.some((p) => p.stored > 0 && p.stored < ROWS)).toBe(true);
    // A few a second at most (the first of each phase and the last beside them), never one per part.
    const seconds = (answeredAt - started) / 1_000;
    expect(heard.length).toBeLessThanOrEqual(3 + Math.ceil(seconds * 4) + 1);
    expect(heard.length).toBeLessThan(ROWS / 1_000 + 2);
  });

  it('emits nothing for a create without a progressId, and only its own id for one with it', async () => {
    const h = await startService(tempDir());
    const heard = listen(h);
    const productId = await usdRangeProduct(h);
    const input = { fileName: 'small.csv', environment: 'simulator' as const, productId, senderName: 'Team', defaultAmount: '10' };
    await h.ok('campaigns:create', { ...input, bytesBase64: recipientsCsv(1_500), name: 'Unnamed' });
    await settle(100);
    expect(heard).toEqual([]);
    // A file of one part: checking, then storing from 0 straight to every row.
    await h.ok('campaigns:create', { ...input, bytesBase64: recipientsCsv(200, 5_000), name: 'Named', progressId: 'other' });
    expect(heard.map(({ progressId, phase, stored, total }) => ({ progressId, phase, stored, total }))).toEqual([
      { progressId: 'other', phase: 'checking', stored: 0, total: null },
      { progressId: 'other', phase: 'storing', stored: 0, total: 200 },
      { progressId: 'other', phase: 'storing', stored: 200, total: 200 },
    ]);
  });

  it('a create that fails half-way stops reporting where it stopped, short of the total, and stores nothing', async () => {
    const h = await startService(tempDir(), { service: { imports: { fault: { afterRows: 2_500, action: 'throw' } } } });
    const heard = listen(h);
    const productId = await usdRangeProduct(h);
    const result = await h.service.invoke('campaigns:create', {
      fileName: 'big.csv', bytesBase64: recipientsCsv(5_000), environment: 'simulator', productId,
      name: 'Fails', senderName: 'Team', defaultAmount: '10', progressId: 'doomed',
    });
    expect(result.ok).toBe(false);
    const before = heard.length;
    await settle(300);
    expect(heard.length).toBe(before);
    expect(heard[0]).toMatchObject({ phase: 'checking' });
    const last = heard.at(-1);
    expect(last?.phase).toBe('storing');
    expect(last?.stored).toBeLessThan(5_000);
    expect(await h.ok('campaigns:list', {})).toEqual({ campaigns: [] });
  });

  it('refuses a progressId that is empty or too long, naming the field', async () => {
    const h = await startService(tempDir());
    const productId = await usdRangeProduct(h);
    const input = { fileName: 'small.csv', bytesBase64: recipientsCsv(3), environment: 'simulator' as const, productId, name: 'X', senderName: 'Team', defaultAmount: '10' };
    for (const progressId of ['', 'x'.repeat(101)]) {
      const result = await h.service.invoke('campaigns:create', { ...input, progressId });
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe('invalid-input');
        expect(result.error.message).toMatch(/progressId/);
      }
    }
  });
});
