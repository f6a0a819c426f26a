import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator, productIdFor, type Simulator } from '../../../electron/simulator/index.ts';
import { collect, json, runCli, spawnCli, tempDir, writeRecipients } from '../../support/cli.ts';
import { manualClock } from '../../support/simulator-http.ts';

// A stop must not wait for the client's request-rate limiter. After a 429 with a Retry-After, the
// limiter holds every request until the pause ends; the old limiter's wait ignored the request's
// signal, so Ctrl-C of `giftbatch poll` (which aborts the round) took until the pause was over
// (about 19 s here) although nothing more was sent. Now the waiting request leaves the line at
// once and the command exits 130 within about a second.
//
// The real simulator over HTTP, with its clock moved by hand: its rate limit (one request per 20 s
// per key) then refills only when the test says, so the round is sure to meet its 429 at a known
// point: the list and the first lookups pass, one lookup gets 429 (Retry-After 20 s), and the next
// lookup waits in the client's limiter.
const KEY = 'cli-poll-stop-rate-limited-key';
const RATE = 0.05; // requests per second at the service: a 429 asks for up to 20 s
const clock = manualClock(Date.now());
const lines: string[] = [];
let sim: Simulator;
let url: string;
beforeAll(async () => {
  sim = createSimulator({ now: clock.now, rateLimit: RATE, rateBurst: 100, itemDelayMs: 100, log: (line) => lines.push(line) });
  ({ url } = await sim.start(0));
});
afterAll(async () => {
  await sim?.stop();
});

const v1 = (): string[] => lines.filter((line) => / \/v1\//.test(line));

async function until(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('giftbatch poll stops at once while the rate limiter waits out a 429', () => {
  it('SIGINT while a lookup waits for the end of a Retry-After pause: exit 130 within about a second, nothing sent after the 429', async () => {
    const dir = tempDir();
    const common = ['--base-url', url, '--data-dir', join(dir, 'data')];
    const sent = await runCli(['send', writeRecipients(dir, 5), '--product', String(productIdFor(KEY, 'us-fixed-25')), '--yes', '--json', ...common], { GIFTBATCH_API_KEY: KEY });
    expect(sent.code, sent.stderr).toBe(0);
    const id = json<{ campaign_id: string }>(sent.stdout).campaign_id;
    clock.advance(1_000); // past the item delay: delivered at the service, so the round looks each order up

    // Empty the service's bucket, then let exactly two requests through: the list and one lookup.
    let drained = 0;
    while ((await fetch(`${url}/v1/products`, { headers: { 'SERVICE-API-KEY': KEY } })).status !== 429) drained += 1;
    expect(drained).toBeGreaterThan(0);
    clock.advance(2_000 / RATE);
    const before = v1().length;

    const child = spawnCli(['poll', id, '--json', ...common], { GIFTBATCH_API_KEY: KEY });
    const done = collect(child);
    await until('the 429 of the second lookup', () => v1().slice(before).some((line) => / 429 /.test(line)));
    await new Promise((r) => setTimeout(r, 500)); // the next lookup is waiting for its turn
    const asked = v1().length;
    expect(v1().slice(before).map((line) => line.split(' ').slice(0, 3).join(' '))).toEqual([
      'GET /v1/orders 200', // the PENDING list
      expect.stringMatching(/^GET \/v1\/orders\/\d+ 200$/),
      expect.stringMatching(/^GET \/v1\/orders\/\d+ 429$/),
    ]);

    const stoppedAt = Date.now();
    child.kill('SIGINT');
    const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const result = await done;
    clearTimeout(guard);
    const tookMs = Date.now() - stoppedAt;
    console.log(`poll-stop-rate-limited: SIGINT to exit ${tookMs} ms`);
    expect(result.code, result.stderr).toBe(130);
    expect(tookMs).toBeLessThan(1_500); // the old limiter held the stop until the pause ended (about 19 s)
    const out = json<{ rounds: number; tracked: number; error: string; stopped: string }>(result.stdout);
    expect(out).toMatchObject({ rounds: 1, tracked: 5, stopped: 'SIGINT' });
    expect(out.error).toMatch(/^stopped on request after checking 1 of 5 orders/);
    expect(result.stderr).toContain('poll: stopped by SIGINT.');

    // Nothing was sent after the stop, even once the pause would have ended.
    await new Promise((r) => setTimeout(r, 500));
    expect(v1().length).toBe(asked);
  }, 90_000);
});
