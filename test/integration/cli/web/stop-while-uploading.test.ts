// The browser shell (a real `npm run web` process, its real HTTP server, SQLite file and the
// simulator over HTTP): a campaigns:create whose body (the whole file) is still being written when
// the person presses Stop. The stop overtakes the body; before, it reached the engine first and was
// answered 'not-running', and the create then saved. Now the request names its progressId in a
// header before its body, the stop is held for it ('stopping'), and the create answers 'stopped'
// with nothing stored. Bad headers are refused with a clear message.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { PROGRESS_ID_HEADER } from '../../../../shared/contract.ts';
import { startSimulator, tempDir } from '../../../support/index.ts';
import { recipientsCsv } from '../../../support/app-harness.ts';
import { rendererFixture, startShell, type Shell } from '../../../support/browser-shell.ts';

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function ok(shell: Shell, name: string, input: unknown): Promise<Record<string, unknown>> {
  const { body } = await shell.call(name, input);
  const result = body as { ok: boolean; value?: Record<string, unknown>; error?: { message: string } };
  if (!result.ok || !result.value) throw new Error(`${name}: ${result.error?.message ?? 'failed'}`);
  return result.value;
}

/** A POST whose body goes in `pieces` writes, `gapMs` apart; `between` runs after the first piece is written. */
function slowPost(shell: Shell, name: string, body: string, headers: Record<string, string>, opts: { pieces: number; gapMs: number }, between: () => Promise<void>): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1', port: shell.port, method: 'POST', path: `/api/${name}`,
        headers: { 'content-type': 'application/json', 'x-giftbatch-token': shell.token, 'content-length': String(Buffer.byteLength(body)), ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown }));
      },
    );
    req.on('error', reject);
    const size = Math.ceil(body.length / opts.pieces);
    void (async () => {
      for (let i = 0; i < opts.pieces; i++) {
        req.write(body.slice(i * size, (i + 1) * size));
        req.flushHeaders();
        await settle(opts.gapMs);
        if (i === 0) await between();
      }
      req.end();
    })().catch(reject);
  });
}

async function shellWithProduct() {
  const sim = await startSimulator();
  const dir = tempDir();
  const shell = await startShell({ dataDir: `${dir}/data`, rendererDir: rendererFixture(dir) });
  await ok(shell, 'environments:update', { environment: 'simulator', baseUrl: sim.url });
  const { products } = (await ok(shell, 'products:list', { environment: 'simulator', country: 'US' })) as { products: { id: number; name: string }[] };
  const productId = products.find((p) => p.name === 'Northwind Books Gift Card $25')?.id;
  const input = { environment: 'simulator', productId, senderName: 'Hosts' };
  return { sim, shell, input };
}

describe('browser shell: a Stop pressed while the create is still uploading its file', () => {
  it('is held for the create: the stop answers stopping, the create answers stopped, nothing is stored', async () => {
    const { shell, input } = await shellWithProduct();
    const progressId = 'create 1 upload';
    const body = JSON.stringify({ ...input, fileName: 'guests.csv', bytesBase64: recipientsCsv(5_000), name: 'Stopped', progressId });
    let stop: unknown;
    const created = await slowPost(shell, 'campaigns:create', body, { [PROGRESS_ID_HEADER]: encodeURIComponent(progressId) }, { pieces: 8, gapMs: 40 }, async () => {
      stop = (await shell.call('campaigns:stopCreate', { progressId })).body;
    });
    expect(stop).toEqual({ ok: true, value: { outcome: 'stopping', message: 'Stopping: nothing of this draft will be saved.' } });
    expect(created).toEqual({ status: 200, body: { ok: false, error: { code: 'stopped', message: 'Saving the draft was stopped: nothing was saved and no campaign was created.' } } });
    expect(await ok(shell, 'campaigns:list', {})).toEqual({ campaigns: [] });
    // Once it has answered, its id names no create: a later stop says so and the next save is free to use it.
    expect(((await shell.call('campaigns:stopCreate', { progressId })).body as { value: { outcome: string } }).value.outcome).toBe('not-running');
    const again = await ok(shell, 'campaigns:create', { ...input, fileName: 'guests.csv', bytesBase64: recipientsCsv(30), name: 'Saved', progressId });
    expect(again).toMatchObject({ name: 'Saved', counts: { ready: 30 } });
  });

  it('without a stop, the slowly uploaded create saves; an id no create named stays not-running', async () => {
    const { shell, input } = await shellWithProduct();
    const progressId = 'create 2 upload';
    const body = JSON.stringify({ ...input, fileName: 'guests.csv', bytesBase64: recipientsCsv(2_000), name: 'Kept', progressId });
    let other: unknown;
    const created = await slowPost(shell, 'campaigns:create', body, { [PROGRESS_ID_HEADER]: encodeURIComponent(progressId) }, { pieces: 4, gapMs: 40 }, async () => {
      other = (await shell.call('campaigns:stopCreate', { progressId: 'create 9 never' })).body;
    });
    expect(other).toMatchObject({ ok: true, value: { outcome: 'not-running' } });
    expect(created).toMatchObject({ status: 200, body: { ok: true, value: { name: 'Kept', counts: { ready: 2_000 } } } });
  });

  it('an upload abandoned half-way is let go: a stop for its id is not-running, nothing is stored, and the id can be used again', async () => {
    const { shell, input } = await shellWithProduct();
    const progressId = 'create 3 abandoned';
    const body = JSON.stringify({ ...input, fileName: 'guests.csv', bytesBase64: recipientsCsv(2_000), name: 'Gone', progressId });
    const req = request({
      host: '127.0.0.1', port: shell.port, method: 'POST', path: '/api/campaigns:create',
      headers: { 'content-type': 'application/json', 'x-giftbatch-token': shell.token, 'content-length': String(Buffer.byteLength(body)), [PROGRESS_ID_HEADER]: encodeURIComponent(progressId) },
    });
    req.on('error', () => undefined);
    req.write(body.slice(0, 1_000));
    await settle(150);
    req.destroy();
    await settle(150);
    expect(((await shell.call('campaigns:stopCreate', { progressId })).body as { value: { outcome: string } }).value.outcome).toBe('not-running');
    expect(await ok(shell, 'campaigns:list', {})).toEqual({ campaigns: [] });
    const again = await ok(shell, 'campaigns:create', { ...input, fileName: 'guests.csv', bytesBase64: recipientsCsv(10), name: 'Again', progressId });
    expect(again).toMatchObject({ name: 'Again', counts: { ready: 10 } });
  });

  it('refuses a progressId header that is malformed or names another create than the body, creating nothing', async () => {
    const { shell, input } = await shellWithProduct();
    const body = { ...input, fileName: 'guests.csv', bytesBase64: recipientsCsv(3), name: 'X', progressId: 'mine' };
    const malformed = await shell.call('campaigns:create', body, { [PROGRESS_ID_HEADER]: '%E0%A4%A' });
    expect(malformed).toMatchObject({ status: 400, body: { ok: false, error: { code: 'invalid-input', message: expect.stringMatching(/x-giftbatch-progress-id header is not a progressId/) } } });
    const tooLong = await shell.call('campaigns:create', body, { [PROGRESS_ID_HEADER]: 'x'.repeat(101) });
    expect(tooLong).toMatchObject({ status: 400, body: { ok: false, error: { code: 'invalid-input' } } });
    const other = await shell.call('campaigns:create', body, { [PROGRESS_ID_HEADER]: 'theirs' });
    expect(other).toMatchObject({ status: 400, body: { ok: false, error: { code: 'invalid-input', message: expect.stringMatching(/names another create than the request's progressId\. Nothing was created\./) } } });
    expect(await ok(shell, 'campaigns:list', {})).toEqual({ campaigns: [] });
  });
});
