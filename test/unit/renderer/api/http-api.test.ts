import { describe, expect, it } from 'vitest';
import { createHttpApi, readResult, type FetchLike } from '../../../../renderer/src/api/http-api.ts';
import type { SocketLike } from '../../../../renderer/src/api/event-socket.ts';
import { ManualClock, summary } from '../helpers/fakes.ts';

class FakeSocket implements SocketLike {
  onopen: ((ev: unknown) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  closed = false;
  protocols: readonly string[] = [];
  constructor(readonly url: string) {}
  close(): void {
    this.closed = true;
  }
}

function setup(fetchImpl: FetchLike = async () => ({ status: 200, text: async () => '{"ok":true,"value":{"ok":true}}' })) {
  const clock = new ManualClock();
  const sockets: FakeSocket[] = [];
  const api = createHttpApi({
    origin: 'http://127.0.0.1:5123',
    token: 'tok-en',
    fetch: fetchImpl,
    openSocket: (url, protocols) => {
      const s = new FakeSocket(url);
      s.protocols = protocols;
      sockets.push(s);
      return s;
    },
    timers: clock,
    random: () => 0.5,
  });
  return { api, clock, sockets };
}

describe('HTTP transport', () => {
  it('POSTs the input as JSON to /api/<call> with the token in a header', async () => {
    const seen: Array<{ url: string; headers: Record<string, string>; body: string }> = [];
    const { api } = setup(async (url, init) => {
      seen.push({ url, headers: init.headers, body: init.body });
      return { status: 200, text: async () => JSON.stringify({ ok: true, value: { ok: true } }) };
    });
    const result = await api['environments:select']({ environment: 'sandbox' });
    expect(result).toEqual({ ok: true, value: { ok: true } });
    expect(seen[0]?.url).toBe('http://127.0.0.1:5123/api/environments:select');
    expect(seen[0]?.headers['x-giftbatch-token']).toBe('tok-en');
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual({ environment: 'sandbox' });
  });

  it("names a create's progressId in a header before its body (a stop can overtake the upload); no other call carries it", async () => {
    const seen: Array<Record<string, string>> = [];
    const { api } = setup(async (_url, init) => {
      seen.push(init.headers);
      return { status: 200, text: async () => JSON.stringify({ ok: false, error: { code: 'stopped', message: 'Stopped.' } }) };
    });
    const input = { fileName: 'a.csv', bytesBase64: 'QQ==', environment: 'simulator' as const, productId: 1, name: 'N', senderName: 'S' };
    await api['campaigns:create']({ ...input, progressId: 'create 1 ä/b' });
    await api['campaigns:create'](input);
    await api['campaigns:stopCreate']({ progressId: 'create 1 ä/b' });
    expect(seen[0]?.['x-giftbatch-progress-id']).toBe('create%201%20%C3%A4%2Fb');
    expect(seen[1]).not.toHaveProperty('x-giftbatch-progress-id');
    expect(seen[2]).not.toHaveProperty('x-giftbatch-progress-id');
  });

  it('passes an error result through as data, with its code', async () => {
    const { api } = setup(async () => ({ status: 200, text: async () => JSON.stringify({ ok: false, error: { code: 'service-auth', message: 'The key was refused.' } }) }));
    expect(await api['environments:test']({ environment: 'sandbox' })).toEqual({ ok: false, error: { code: 'service-auth', message: 'The key was refused.' } });
  });

  it('turns a dead server into an error result that says what to do, not a thrown exception', async () => {
    const { api } = setup(async () => {
      throw new TypeError('Failed to fetch');
    });
    const result = await api['app:info']({});
    expect(result.ok).toBe(false);
    // The README's quick start is `npm start`, which runs the browser shell where Electron cannot start: both are named.
    if (!result.ok) expect(result.error.message).toContain('the terminal running `npm start` (or `npm run web`) is still open');
  });

  it('refuses an answer that does not match the call\'s output schema: the window and the engine are from different builds', () => {
    const result = readResult('campaigns:get', 200, JSON.stringify({ ok: true, value: { id: 'c1' } }));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('contract-mismatch');
      expect(result.error.message).toMatch(/^This window and the Giftbatch engine are from different builds: restart Giftbatch\. Stop `npm start` .*\(Its answer to campaigns:get is not what this window reads at [\w.]+: /);
    }
  });

  it('explains a refused token (HTTP 403 without a result body)', () => {
    const result = readResult('app:info', 403, 'Forbidden');
    expect(result).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('maps an unknown error code to internal rather than trusting it', () => {
    expect(readResult('app:info', 500, JSON.stringify({ ok: false, error: { code: 'weird', message: 'boom' } }))).toEqual({ ok: false, error: { code: 'internal', message: 'boom' } });
  });
});

describe('event channel', () => {
  it('opens the WebSocket on first subscription, the token offered as a subprotocol (never in the URL), and delivers parsed events', () => {
    const { api, sockets } = setup();
    const got: string[] = [];
    api.on('campaign:progress', (p) => got.push(`${p.campaign.id}:${p.changedRowIds.join(',')}`));
    expect(sockets).toHaveLength(1);
    expect(sockets[0]?.url).toBe('ws://127.0.0.1:5123/api/events');
    expect(sockets[0]?.protocols).toEqual(['giftbatch.events', 'giftbatch.token.tok-en']);
    sockets[0]?.onopen?.({});
    sockets[0]?.onmessage?.({ data: JSON.stringify({ event: 'campaign:progress', payload: { campaign: summary(), changedRowIds: [3, 4] } }) });
    sockets[0]?.onmessage?.({ data: JSON.stringify({ event: 'campaign:progress', payload: { campaign: { id: 'broken' }, changedRowIds: [] } }) });
    sockets[0]?.onmessage?.({ data: 'not json' });
    expect(got).toEqual(['c1:3,4']);
  });

  it('reconnects with growing delays after drops, and reports the connection state', () => {
    const { api, sockets, clock } = setup();
    const states: string[] = [];
    api.onConnectionChange((s) => states.push(s));
    api.on('campaign:finished', () => {});
    sockets[0]?.onopen?.({});
    sockets[0]?.onclose?.({});
    expect(sockets).toHaveLength(1);
    clock.advance(125); // first retry: half of the 250 ms ceiling (random 0.5)
    expect(sockets).toHaveLength(2);
    sockets[1]?.onclose?.({});
    clock.advance(249);
    expect(sockets).toHaveLength(2);
    clock.advance(1);
    expect(sockets).toHaveLength(3);
    sockets[2]?.onopen?.({});
    expect(states).toEqual(['connecting', 'open', 'reconnecting', 'open']);
  });

  it('stops reconnecting once closed', () => {
    const { api, sockets, clock } = setup();
    api.on('campaign:finished', () => {});
    sockets[0]?.onclose?.({});
    api.close();
    clock.advance(60_000);
    expect(sockets).toHaveLength(1);
  });
});
