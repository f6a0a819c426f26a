import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { guardedHandler, isAppUrl, isTrustedSender, type FrameLike } from '../../../electron/main/ipc-guard.ts';
import { dispatch, type Handlers } from '../../../electron/core/app/dispatch.ts';

const indexFile = join('/opt', 'Giftbatch', 'resources', 'app.asar', 'out', 'renderer', 'index.html');
const appUrl = `${pathToFileURL(indexFile).href}#/campaigns`;
const packaged = { indexFile };

describe('IPC sender check', () => {
  const mainFrame: FrameLike = { url: appUrl };

  it('accepts our main window main frame showing our page', () => {
    expect(isTrustedSender({ senderFrame: mainFrame }, mainFrame, packaged)).toBe(true);
  });

  it('refuses a forged sender: another frame with the same URL, a subframe, no frame, or no window', () => {
    expect(isTrustedSender({ senderFrame: { url: appUrl } }, mainFrame, packaged)).toBe(false);
    expect(isTrustedSender({ senderFrame: null }, mainFrame, packaged)).toBe(false);
    expect(isTrustedSender({ senderFrame: mainFrame }, null, packaged)).toBe(false);
  });

  it('refuses our main frame once it shows another page', () => {
    for (const url of ['https://evil.example/', 'file:///tmp/evil.html', 'data:text/html,hi', 'about:blank', 'not a url']) {
      const frame = { url };
      expect(isTrustedSender({ senderFrame: frame }, frame, packaged), url).toBe(false);
    }
  });

  it('in development trusts only the dev server origin', () => {
    const dev = { indexFile, devServerUrl: 'http://localhost:5173/' };
    expect(isAppUrl('http://localhost:5173/#/x', dev)).toBe(true);
    expect(isAppUrl('http://localhost:5174/', dev)).toBe(false);
    expect(isAppUrl(appUrl, dev)).toBe(false);
  });

  it('answers a forged sender with "forbidden" and never reaches the engine', async () => {
    const call = vi.fn(async () => ({ ok: true as const, value: {} }));
    const handler = guardedHandler('campaigns:send', { mainFrame: () => mainFrame, location: packaged, call });
    expect(await handler({ senderFrame: { url: appUrl } }, { campaignId: 'c', confirmed: true })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(call).not.toHaveBeenCalled();
    await handler({ senderFrame: mainFrame }, { campaignId: 'c', confirmed: true });
    expect(call).toHaveBeenCalledWith('campaigns:send', { campaignId: 'c', confirmed: true });
  });

  it('malformed input from a trusted sender is refused by the schema before any handler runs', async () => {
    const send = vi.fn(async () => {
      throw new Error('must not run');
    });
    const handlers = { 'campaigns:send': send } as unknown as Handlers;
    const handler = guardedHandler('campaigns:send', { mainFrame: () => mainFrame, location: packaged, call: (name, input) => dispatch(handlers, name, input) });
    for (const input of [{ campaignId: 'c' }, { campaignId: 'c', confirmed: 'yes' }, 'campaign', 42, { campaignId: 'x'.repeat(65), confirmed: true }]) {
      expect(await handler({ senderFrame: mainFrame }, input), JSON.stringify(input)).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    }
    expect(send).not.toHaveBeenCalled();
  });
});
