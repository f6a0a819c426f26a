// poll_requests_per_round beside poll_requests_naive. 10,000 orders of the simulator's out-of-stock
// product (their items stay PENDING) are created at a standalone simulator and recorded locally as
// `ordered` rows through the repos' own transitions; 100 of them are then forced to COMPLETED with
// the control API, and one pollRound (engine.poll) runs. Requests are counted by the simulator's
// audit, by route: list pages (GET /v1/orders) plus single fetches (GET /v1/orders/:id).
// Then a wave: 5,000 more delivered at once, and a second round (poll_wave_requests) beside what
// fetching each of them one by one costs (poll_wave_requests_one_by_one: the PENDING pages plus one
// GET per delivered order, the rule before the COMPLETED list was read).
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { orderBodyFor, orderOutcomeOf } from '../../../electron/core/campaigns/order-body.ts';
import { snapshotOf } from '../../../electron/core/campaigns/products.ts';
import { SIMULATOR_LOCAL_KEY } from '../../../electron/core/connections.ts';
import { createCampaign } from '../../../electron/core/db/repos/campaigns.ts';
import { markOrdered, markSending } from '../../../electron/core/db/repos/recipient-transitions.ts';
import { listByState, type NewRecipient } from '../../../electron/core/db/repos/recipients.ts';
import { openEngine } from '../../../electron/core/engine.ts';
import { createMemorySecretStore } from '../../../electron/core/secrets/secret-store.ts';
import { parseOrder, type Order } from '../../../electron/core/service/index.ts';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { emit, log, scenario, startSimulatorProcess } from '../harness.ts';
import { fetchAudit, requestCount } from '../simulator-audit.ts';

const ORDERS = 10_000;
const CHANGED = 100;
const WAVE = 5_000;
const PAGE = 500;

/** Plain keep-alive POSTs, many at once: setting up 10,000 orders is not what is measured. */
function poster(baseUrl: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const url = new URL(baseUrl);
  const post = (path: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> =>
    new Promise((resolve, reject) => {
      const req = request(
        { host: url.hostname, port: url.port, path, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  return { post, close: () => agent.destroy() };
}

async function inParallel<T>(items: readonly T[], width: number, each: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await each(items[next++] as T);
  }));
}

scenario(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'giftbatch-bench-poll-'));
  const sim = await startSimulatorProcess([]);
  const engine = await openEngine({ dataDir: dir, secrets: createMemorySecretStore(), env: {} });
  const http = poster(sim.url);
  try {
    const setupStarted = performance.now();
    const connection = await engine.connections.get('simulator', { baseUrl: sim.url, rate: 1000 });
    const product = await engine.findProduct(connection, productIdFor(SIMULATOR_LOCAL_KEY, 'us-out-of-stock'), 'US');
    if (product.price.kind !== 'fixed') throw new Error('the out-of-stock product should have a fixed price');
    const price = product.price.amount;
    const rows: NewRecipient[] = Array.from({ length: ORDERS }, (_, i) => ({
      line: i + 2,
      name: `Guest ${i}`,
      email: `guest${i}@example.com`,
      amountMinor: price.minor,
      currency: price.currency,
    }));
    const { campaign } = createCampaign(
      engine.db,
      {
        name: 'Bench poll',
        environment: 'simulator',
        baseUrl: connection.baseUrl,
        productId: product.id,
        product: snapshotOf(product),
        senderName: 'Bench team',
        currency: price.currency,
      },
      rows,
      Date.now(),
    );
    const ready = listByState(engine.db, campaign.id, 'ready');
    const orders = new Map<number, Order>();
    await inParallel(ready, 32, async (row) => {
      const reply = await http.post('/v1/orders', orderBodyFor(campaign, row), { 'SERVICE-API-KEY': SIMULATOR_LOCAL_KEY, accept: 'application/json' });
      if (reply.status !== 200) throw new Error(`POST /v1/orders answered ${reply.status}: ${reply.text.slice(0, 200)}`);
      const parsed = parseOrder(JSON.parse(reply.text));
      if (!parsed.ok) throw new Error(`unreadable order: ${parsed.issues.join('; ')}`);
      orders.set(row.id, parsed.value);
    });
    // Recorded through the same transitions the send queue uses, in one transaction for speed.
    const now = Date.now();
    engine.db.transaction(() => {
      for (const row of ready) {
        const order = orders.get(row.id);
        if (!order) throw new Error(`no order for row ${row.id}`);
        if (!markSending(engine.db, row.id, orderBodyFor(campaign, row), now)) throw new Error(`row ${row.id} was not ready`);
        if (!markOrdered(engine.db, row.id, orderOutcomeOf(order, []), now)) throw new Error(`row ${row.id} was not sending`);
      }
    })();
    // 100 orders spread over the list change state at the service.
    const deliver = (orderIds: (number | undefined)[]) =>
      inParallel(orderIds, 16, async (orderId) => {
        const reply = await http.post('/__control/force-status', JSON.stringify({ key: SIMULATOR_LOCAL_KEY, orderId, itemStatus: 'COMPLETED' }));
        if (reply.status !== 200) throw new Error(`force-status answered ${reply.status}: ${reply.text}`);
      });
    const changed = ready.filter((_, i) => i % (ORDERS / CHANGED) === 0).map((r) => orders.get(r.id)?.id);
    await deliver(changed);
    log(`poll: ${ORDERS} pending orders set up in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s, ${changed.length} forced to COMPLETED`);

    const before = await fetchAudit(sim.url);
    const t0 = performance.now();
    const round = await engine.poll(connection, campaign.id);
    const roundMs = performance.now() - t0;
    const after = await fetchAudit(sim.url);
    const diff = (route: string) => requestCount(after, SIMULATOR_LOCAL_KEY, route) - requestCount(before, SIMULATOR_LOCAL_KEY, route);
    const pages = diff('GET /v1/orders');
    const singles = diff('GET /v1/orders/:id');
    log(`poll: one round made ${pages} list requests + ${singles} order fetches (${round.requests} by its own count), settled ${round.settled}, in ${roundMs.toFixed(0)} ms`);
    if (round.settled !== CHANGED) throw new Error(`the round settled ${round.settled} rows, expected ${CHANGED}`);

    // The wave: 5,000 of the rows still ordered are delivered between two rounds.
    const stillPending = ready.filter((_, i) => i % (ORDERS / CHANGED) !== 0);
    await deliver(stillPending.slice(0, WAVE).map((r) => orders.get(r.id)?.id));
    const beforeWave = await fetchAudit(sim.url);
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const w0 = performance.now();
    const wave = await engine.poll(connection, campaign.id);
    const waveMs = performance.now() - w0;
    delay.disable();
    const afterWave = await fetchAudit(sim.url);
    const waveDiff = (route: string) => requestCount(afterWave, SIMULATOR_LOCAL_KEY, route) - requestCount(beforeWave, SIMULATOR_LOCAL_KEY, route);
    const waveRequests = waveDiff('GET /v1/orders') + waveDiff('GET /v1/orders/:id');
    const pendingPages = Math.floor((stillPending.length - WAVE) / PAGE) + 1;
    log(`poll: after a wave of ${WAVE} deliveries, one round made ${waveDiff('GET /v1/orders')} list requests + ${waveDiff('GET /v1/orders/:id')} order fetches, settled ${wave.settled}, in ${waveMs.toFixed(0)} ms`);
    if (wave.settled !== WAVE) throw new Error(`the wave round settled ${wave.settled} rows, expected ${WAVE}`);
    const waveFigures = {
      poll_wave_delivered: WAVE,
      poll_wave_requests: waveRequests,
      poll_wave_requests_one_by_one: pendingPages + WAVE,
      // The PENDING pages, the COMPLETED pages that hold the wave, and one more at most.
      poll_wave_requests_target: pendingPages + Math.ceil(WAVE / PAGE) + 1,
      poll_wave_round_ms: waveMs,
      // The longest the engine's thread was held at once during that round (event-loop delay).
      poll_wave_max_block_ms: delay.max / 1e6,
    };
    emit({
      ...waveFigures,
      poll_requests_per_round: pages + singles,
      poll_requests_naive: round.tracked,
      poll_requests_target: Math.ceil(ORDERS / PAGE) + CHANGED,
      poll_list_requests: pages,
      poll_order_requests: singles,
      poll_settled: round.settled,
      poll_round_ms: roundMs,
    });
  } finally {
    http.close();
    await engine.close();
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
