import { EVENTS_PROTOCOL, TOKEN_PROTOCOL_PREFIX } from '../../../../shared/contract.ts';
import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SIMULATOR_LOCAL_KEY } from '../../../../electron/core/connections.ts';
import { expectOneOrderPerRow, startSimulator, tempDir } from '../../../support/index.ts';
import { recipientsCsv, startService, waitFor } from '../../../support/app-harness.ts';
import { rendererFixture, startShell, type Shell } from '../../../support/browser-shell.ts';

/** A raw request, so Host and Origin can be set to anything (fetch forbids changing Host). */
function raw(port: number, opts: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: opts.method ?? 'GET', path: opts.path, headers: opts.headers ?? {} }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** The event socket as the page opens it: the token offered as a subprotocol, never in the URL. */
function openSocket(url: string, token: string | null, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const protocols = [EVENTS_PROTOCOL, ...(token === null ? [] : [`${TOKEN_PROTOCOL_PREFIX}${token}`])];
    const ws = new WebSocket(url, protocols, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode ?? 0}`)));
    ws.once('error', reject);
  });
}

async function ok(shell: Shell, name: string, input: unknown): Promise<Record<string, unknown>> {
  const { body } = await shell.call(name, input);
  const result = body as { ok: boolean; value?: Record<string, unknown>; error?: { message: string } };
  if (!result.ok || !result.value) throw new Error(`${name}: ${result.error?.message ?? 'failed'}`);
  return result.value;
}

/** A shell on a fresh data folder pointed at its own simulator, with a 60-row campaign drafted. */
async function shellWithCampaign(name: string) {
  const sim = await startSimulator({ itemDelayMs: 100, latencyMs: 60 });
  const dir = tempDir();
  const dataDir = `${dir}/data`;
  const shell = await startShell({ dataDir, rendererDir: rendererFixture(dir) });
  await ok(shell, 'environments:update', { environment: 'simulator', baseUrl: sim.url });
  const { products } = (await ok(shell, 'products:list', { environment: 'simulator', country: 'US' })) as { products: { id: number; name: string }[] };
  const book = products.find((p) => p.name === 'Northwind Books Gift Card $25');
  const campaign = await ok(shell, 'campaigns:create', {
    fileName: 'guests.csv', bytesBase64: recipientsCsv(60), environment: 'simulator', productId: book?.id, name, senderName: 'Hosts',
  });
  return { sim, dataDir, shell, id: String(campaign.id) };
}

describe('browser shell (npm run web)', () => {
  it('prints exactly one line, GIFTBATCH_URL=…, on stdout; serves on 127.0.0.1 only; refuses without token, with a foreign Host or Origin', async () => {
    const dir = tempDir();
    const shell = await startShell({ dataDir: `${dir}/data`, rendererDir: rendererFixture(dir) });
    expect(shell.stdout().split('\n')).toEqual([expect.stringMatching(/^GIFTBATCH_URL=http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]{40,}$/), '']);

    const host = `127.0.0.1:${shell.port}`;
    const json = { 'content-type': 'application/json' };
    const post = (headers: Record<string, string>) => raw(shell.port, { method: 'POST', path: '/api/app:info', headers: { host, ...json, ...headers }, body: '{}' });

    const good = await post({ 'x-giftbatch-token': shell.token, origin: `http://${host}` });
    expect(good.status).toBe(200);
    expect(JSON.parse(good.body)).toMatchObject({ ok: true, value: { shell: 'browser' } });
    expect(good.headers['cache-control']).toBe('no-store');
    expect(good.headers['referrer-policy']).toBe('no-referrer');
    expect(good.headers['x-content-type-options']).toBe('nosniff');
    const viaLocalhost = await post({ host: `localhost:${shell.port}`, 'x-giftbatch-token': shell.token });
    expect(viaLocalhost.status).toBe(200);

    for (const [why, headers] of [
      ['no token', {}],
      ['a wrong token', { 'x-giftbatch-token': `${shell.token.slice(0, -1)}x` }],
      ['the token in the query instead of the header', {}],
      ['a foreign Host', { host: `evil.example:${shell.port}`, 'x-giftbatch-token': shell.token }],
      ['another port in Host', { host: `127.0.0.1:${shell.port + 1}`, 'x-giftbatch-token': shell.token }],
      ['a foreign Origin', { origin: 'http://evil.example', 'x-giftbatch-token': shell.token }],
      ['an https Origin on our host', { origin: `https://${host}`, 'x-giftbatch-token': shell.token }],
    ] as const) {
      const refused = why.includes('query')
        ? await raw(shell.port, { method: 'POST', path: `/api/app:info?token=${shell.token}`, headers: { host, ...json }, body: '{}' })
        : await post(headers);
      expect(refused.status, why).toBe(403);
      expect(JSON.parse(refused.body), why).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
    // The page itself: served with the CSP; refused under a foreign Host (DNS rebinding).
    const page = await raw(shell.port, { path: '/', headers: { host } });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain(`connect-src 'self' ws://127.0.0.1:${shell.port}`);
    expect((await raw(shell.port, { path: '/', headers: { host: `rebound.example:${shell.port}` } })).status).toBe(403);
    // Paths cannot leave the renderer folder: a dotted path is the page again (the renderer's
    // fallback), never the file it names.
    const escaped = await raw(shell.port, { path: '/assets/../../../../etc/passwd', headers: { host } });
    expect(escaped.body).toContain('fixture');
    expect(escaped.body).not.toContain('root:');
    expect((await raw(shell.port, { path: '/%2e%2e/%2e%2e/package.json', headers: { host } })).status).toBe(404);

    // The socket wants the token too, and our Origin.
    await expect(openSocket(`ws://${host}/api/events`, null)).rejects.toThrow(/403/);
    // The token in the request line is not taken: it belongs in a subprotocol, where no log keeps it.
    await expect(openSocket(`ws://${host}/api/events?token=${shell.token}`, null)).rejects.toThrow(/403/);
    await expect(openSocket(`ws://${host}/api/events`, shell.token, { origin: 'http://evil.example' })).rejects.toThrow(/403/);
    const accepted = await openSocket(`ws://${host}/api/events`, shell.token, { origin: `http://${host}` });
    expect(accepted.protocol).toBe(EVENTS_PROTOCOL);
    accepted.close();

    // Loopback only: not reachable on the machine's other addresses.
    const external = Object.values(networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal);
    if (external) {
      await expect(fetch(`http://${external.address}:${shell.port}/`)).rejects.toThrow();
    }

    shell.child.kill('SIGTERM');
    expect(await shell.exited).toEqual({ code: 0, signal: null });
    expect(shell.stdout().split('\n').length).toBe(2);
  });

  it('answers contract calls and pushes events over the WebSocket; SIGTERM pauses a send, shown interrupted after a restart', async () => {
    const { sim, dataDir, shell, id } = await shellWithCampaign('Web');

    const ws = await openSocket(`ws://127.0.0.1:${shell.port}/api/events`, shell.token);
    const messages: { event: string; payload: { campaign: { id: string; counts: { ordered: number } } } }[] = [];
    ws.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString('utf8')) as (typeof messages)[number]));

    expect(await ok(shell, 'campaigns:send', { campaignId: id, confirmed: true })).toMatchObject({ sendState: 'sending', running: true });
    await waitFor('progress over the socket', () => messages.some((m) => m.event === 'campaign:progress' && m.payload.campaign.counts.ordered >= 3));
    ws.close();
    shell.child.kill('SIGTERM');
    expect((await shell.exited).code).toBe(0);

    const after = await startService(dataDir);
    const summary = await after.ok('campaigns:get', { campaignId: id });
    expect(summary).toMatchObject({ sendState: 'paused', pausedReason: 'interrupted', running: false, counts: { sending: 0 } });
    expect(summary.counts.ready).toBeGreaterThan(0);
    await after.ok('campaigns:send', { campaignId: id, confirmed: true });
    await waitFor('the resumed run to finish', () => after.events.find((e) => e.name === 'campaign:finished'));
    expectOneOrderPerRow(after.engine.db, id, sim.account(SIMULATOR_LOCAL_KEY));
  });

  it('a shell killed with SIGKILL mid-send: the campaign comes back paused as interrupted, not resumed by itself, and Resume leaves one order per row', async () => {
    const { sim, dataDir, shell, id } = await shellWithCampaign('Killed');
    await ok(shell, 'campaigns:send', { campaignId: id, confirmed: true });
    await waitFor('a few orders at the simulator', () => (sim.sim.audit().accounts[SIMULATOR_LOCAL_KEY]?.orders.length ?? 0) >= 4);
    shell.child.kill('SIGKILL');
    await shell.exited;

    const after = await startService(dataDir);
    const summary = await after.ok('campaigns:get', { campaignId: id });
    expect(summary).toMatchObject({ sendState: 'paused', pausedReason: 'interrupted', running: false });
    expect(summary.counts.ready + summary.counts.sending).toBeGreaterThan(0);
    // POSTs that were on the wire when the process died still land (the simulator answers after
    // its latency); after that, nothing more arrives until Resume.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const before = sim.account(SIMULATOR_LOCAL_KEY).orders.length;
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(sim.account(SIMULATOR_LOCAL_KEY).orders.length).toBe(before);
    await after.ok('campaigns:send', { campaignId: id, confirmed: true });
    await waitFor('the resumed run to finish', () => after.events.find((e) => e.name === 'campaign:finished'));
    expectOneOrderPerRow(after.engine.db, id, sim.account(SIMULATOR_LOCAL_KEY));
  });
});
