// The send queue: turns a campaign's ready rows into orders, a few at a time, under the rules of
// docs/architecture.md ("A row's life"; "Sending, and why a gift is never paid twice"). For every
// row: freeze the body and commit `sending` BEFORE the POST leaves; POST the frozen bytes; a
// definite answer settles the row; anything else is retried later with the same bytes under the
// same key, and never fails the row. Rows waiting for a retry do not hold a worker, so one sick
// row does not slow the rest.

import { crashPoint, crashWhilePending } from '../crash-points.ts';
import { systemClock, type Clock } from '../clock.ts';
import { createCommitBatch } from '../db/commit-batch.ts';
import { DISK_FULL_MESSAGE, isDiskFull, type Db } from '../db/open.ts';
import { getCampaign, getCampaignForOrders, productIdOf, setPauseReason, setSendState, type Campaign, type PauseReason } from '../db/repos/campaigns.ts';
import {
  beginRetry,
  holdRow,
  markFailed,
  markOrdered,
  markSending,
  recordAttemptError,
  type SendAttempt,
} from '../db/repos/recipient-transitions.ts';
import { countByState, getRecipient, heldRowIds, listSendingRows, readyRowToSend, type StateCounts } from '../db/repos/recipients.ts';
import { mayStillBeRunning, type Ambiguous, type Outcome, type RateLimiter, type Rejected, type ServiceClient } from '../service/index.ts';
import type { Order } from '../service/types.ts';
import type { Finding } from '../../../shared/domain/findings.ts';
import { plural } from '../../../shared/domain/plural.ts';
import { backoffDelay, CircuitBreaker, RepeatedRefusal } from './policy.ts';
import { orderBodyFor, OrderBodyError, orderOutcomeOf } from './order-body.ts';
import { expectationOf, mismatchDetail, mismatches, onlyPriceUnstated, isUnstatedPrice, verifyOrder, withoutUnstatedPrice } from './verify-order.ts';
import { confirmPrice } from './confirm-price.ts';
import { duplicateOrdersFinding, ListReach, lookUpOrder, reconcile, recordDuplicateOrders, type KeyLookup, type LookedUpRow, type ReconcileResult } from './reconcile.ts';
import { withSendLease, type HeldLease } from './send-lease.ts';
import { authDetail, breakerDetail, finish, mismatch, refusedDetail, rejectionText, unconfirmedDetail, type StopRequest } from './send-outcome.ts';
import { FirstOrders, readySource, RetrySchedule, WakeSignal, type Job, type PriceToConfirmLater } from './send-work.ts';

export { CampaignBusyError } from './send-lease.ts';

export interface SendQueueOptions {
  readonly db: Db;
  readonly client: ServiceClient;
  readonly clock?: Clock;
  readonly random?: () => number;
  readonly log?: (entry: SendLogEntry) => void;
  /**
   * POSTs in flight at once. A number fixes it. 'auto' (the default) needs `limiter`: it keeps
   * enough in flight to use every token the limiter hands out (about rate × latency), between 4
   * and `maxConcurrency`; without a limiter it is 4.
   */
  readonly concurrency?: number | 'auto';
  readonly maxConcurrency?: number;
  /**
   * The limiter the client's requests go through (the environment's). Given, the queue takes each
   * POST's token itself before it commits the row's intent, so the rows that leave together commit
   * together and a row waiting for its turn is still `ready`; 'auto' concurrency reads its rate.
   */
  readonly limiter?: RateLimiter;
  /** Ambiguous outcomes in a row that pause the campaign (default 8). */
  readonly breakerThreshold?: number;
  /** The same definite refusal this many times in a row pauses the campaign instead of failing every row (default 3). */
  readonly refusalThreshold?: number;
  readonly backoff?: { readonly baseMs?: number; readonly capMs?: number };
  /** Attempts one row may make in one run before it is left `sending` for the next (default: no limit). */
  readonly maxAttemptsPerRun?: number;
  /** Before a rejection after an unclear attempt fails a row, the wait between two lookups by key (default 10 s). */
  readonly lookupAgainMs?: number;
  /**
   * After a POST timed out or got a gateway's 502/504 (it may still be processed at the service:
   * mayStillBeRunning), how long its row waits before anything else happens to it; then its key is
   * looked up before it may be POSTed again (default: the client's request timeout, else 15 s).
   */
  readonly inFlightWaitMs?: number;
  /** An answer without the item's price: waits before each read of the order's record (default PRICE_WAITS_MS, about a minute). */
  readonly priceWaitsMs?: readonly number[];
  /** How long the send lease lasts unless renewed (default SEND_LEASE_TTL_MS; tests shorten it). */
  readonly leaseTtlMs?: number;
  /**
   * The key's account fingerprint (Connection.accountFingerprint): an empty lookup's witness is taken
   * only from campaigns sent under this account (ListReach). Without it, from any campaign of the service.
   */
  readonly accountFingerprint?: (like: string) => string;
}

export interface SendLogEntry {
  readonly level: 'info' | 'warn' | 'error';
  readonly campaignId: string;
  readonly rowId?: number;
  readonly message: string;
}

export interface RunOptions {
  /** Pause: stop taking rows, let the POSTs in flight finish and record them, then pause ('user'). */
  readonly signal?: AbortSignal;
  /** Called at most ~10 times a second, and once at the end. */
  readonly onProgress?: (progress: SendProgress) => void;
  /**
   * A person looked up the unconfirmed rows' keys at the service and found no order: a row whose empty
   * lookup proves nothing (ListReach; the campaign paused 'unconfirmed') is sent again under its key.
   */
  readonly resendUnconfirmed?: boolean;
}

export interface SendStats {
  readonly startedAt: number;
  readonly elapsedMs: number;
  /** POSTs made. */
  readonly attempts: number;
  /** Rows moved from ready to sending. */
  readonly sent: number;
  readonly ordered: number;
  readonly failed: number;
  /** POSTs that repeated an earlier one (same key, same bytes). */
  readonly retries: number;
  readonly ambiguous: number;
  readonly rateLimited: number;
  /** Rows whose order was found by key before sending. */
  readonly reconciled: number;
  /** POSTs in flight right now, and the current target. */
  readonly inFlight: number;
  readonly concurrency: number;
}

export interface SendProgress {
  readonly campaignId: string;
  readonly phase: 'reconciling' | 'sending' | 'stopping' | 'finished';
  readonly counts: StateCounts;
  readonly stats: SendStats;
}

/**
 * Why a run ended: every row sent, none ready or sending ('done'); a pause reason (an internal error pauses the campaign
 * as 'interrupted' but reports 'user'); every attempt of one run spent ('attempts', paused as
 * 'circuit-breaker'); another process took the campaign ('lease').
 */
export type StopReason = Exclude<PauseReason, 'interrupted'> | 'done' | 'attempts' | 'lease';

export interface SendResult {
  readonly campaignId: string;
  /** Why the run ended: every row sent ('done'), or why it paused. */
  readonly stoppedBy: StopReason;
  readonly sendState: Campaign['sendState'];
  readonly pausedReason: PauseReason | null;
  /** One sentence for the user: what happened and what to do next. */
  readonly message: string;
  readonly counts: StateCounts;
  readonly stats: SendStats;
  readonly reconciliation: ReconcileResult;
  /**
   * A pause for a reason that leaves the service reachable (a mismatch, repeated refusals) looks up
   * the rows it leaves `sending` by key once, before the run ends (lookUpOnPause); null otherwise.
   */
  readonly lookedUpOnPause: ReconcileResult | null;
}

export interface SendQueue {
  /**
   * Sends (or resumes) a campaign: reconciles its `sending` rows first, then sends the rest.
   * Rejects with CampaignBusyError, having done nothing, while another process sends it.
   */
  run(campaignId: string, opts?: RunOptions): Promise<SendResult>;
  /**
   * Sends nothing: only looks up the campaign's `sending` rows by key (reading is always safe) and
   * records what it finds, then pauses a campaign marked sending with `detail` (a failed pre-flight).
   */
  hold(campaignId: string, detail: string, opts?: Pick<RunOptions, 'signal'>): Promise<SendResult>;
  /** Campaigns being sent by this queue right now. */
  running(): string[];
}

export class CampaignNotSendableError extends Error {
  override readonly name = 'CampaignNotSendableError';
}

const AUTO_MIN = 4;
/** Longest an answered order waits in memory for the next commit (shown a little later, never lost). */
const ORDERED_COMMIT_DELAY_MS = 250;
const PROGRESS_INTERVAL_MS = 100;
const LOOKUP_AGAIN_MS = 10_000;
/** The client's own default request timeout: the wait after a timed-out POST when neither says otherwise. */
const IN_FLIGHT_WAIT_MS = 15_000;

/** Why a run stopped on an error of its own: a full disk says what happened and what to do. */
function internalStopText(err: unknown): string {
  if (isDiskFull(err)) return `Sending stopped: ${DISK_FULL_MESSAGE}`;
  return `Sending stopped on an internal error: ${err instanceof Error ? err.message : String(err)}`;
}
const LEASE_LOST =
  'This process stopped sending: it lost its hold on the campaign (it stalled past its lease, during a sleep or a hang) ' +
  'and another Giftbatch may have taken it over. Nothing more was sent from here; check the campaign, then resume where it is sent.';

export function createSendQueue(options: SendQueueOptions): SendQueue {
  const active = new Map<string, Promise<SendResult>>();
  return {
    run(campaignId, opts = {}) {
      const existing = active.get(campaignId);
      if (existing) return existing;
      // One run per campaign in this process (a second call joins it), one sender across processes (the lease).
      const promise = withSendLease(options.db, campaignId, (lease) => runCampaign(options, campaignId, opts, lease), {
        ...(options.leaseTtlMs !== undefined ? { ttlMs: options.leaseTtlMs } : {}),
      }).finally(() => active.delete(campaignId));
      active.set(campaignId, promise);
      return promise;
    },
    running: () => [...active.keys()],
    hold(campaignId, detail, opts = {}) {
      return withSendLease(options.db, campaignId, () => holdCampaign(options, campaignId, detail, opts.signal));
    },
  };
}

async function holdCampaign(options: SendQueueOptions, campaignId: string, detail: string, signal: AbortSignal | undefined): Promise<SendResult> {
  const { db, client } = options;
  const clock = options.clock ?? systemClock;
  const startedAt = clock.now();
  const reach = new ListReach(db, client, clock, options.accountFingerprint);
  const reconciliation = await reconcile(db, client, { campaignId }, { clock, reach, ...(signal ? { signal } : {}) });
  const campaign = getCampaign(db, campaignId);
  if (campaign?.sendState === 'sending') setSendState(db, campaignId, { from: 'sending', to: 'paused', reason: 'preflight', detail }, clock.now());
  // Already paused (interrupted, by the person…): it now waits on the pre-flight, and says so.
  else if (campaign?.sendState === 'paused') setPauseReason(db, campaignId, 'preflight', detail, clock.now());
  const after = getCampaign(db, campaignId);
  return {
    campaignId,
    stoppedBy: 'preflight',
    sendState: after?.sendState ?? 'draft',
    pausedReason: after?.pausedReason ?? null,
    message: detail,
    counts: countByState(db, campaignId),
    stats: {
      startedAt,
      elapsedMs: clock.now() - startedAt,
      attempts: 0,
      sent: 0,
      ordered: 0,
      failed: 0,
      retries: 0,
      ambiguous: 0,
      rateLimited: 0,
      reconciled: reconciliation.ordered,
      inFlight: 0,
      concurrency: 0,
    },
    reconciliation,
    lookedUpOnPause: null,
  };
}

async function runCampaign(options: SendQueueOptions, campaignId: string, opts: RunOptions, lease: HeldLease): Promise<SendResult> {
  const { db, client } = options;
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const breaker = new CircuitBreaker(options.breakerThreshold ?? 8);
  // The same refusal again and again (no balance, product off sale) is about the service, not the
  // rows: it pauses the campaign with the service's words instead of failing the rest at full speed.
  const refusals = new RepeatedRefusal(options.refusalThreshold ?? 3);
  const log = (entry: Omit<SendLogEntry, 'campaignId'>) => {
    try {
      options.log?.({ campaignId, ...entry });
    } catch {
      // A failing logger must not stop a send halfway.
    }
  };

  const campaign = getCampaignForOrders(db, campaignId);
  if (!campaign) throw new CampaignNotSendableError(`No campaign "${campaignId}" in this data file.`);
  if (campaign.sendState !== 'sending') {
    setSendState(db, campaignId, { from: campaign.sendState, to: 'sending' }, clock.now());
  }

  const startedAt = clock.now();
  const counters = { attempts: 0, sent: 0, ordered: 0, failed: 0, retries: 0, ambiguous: 0, rateLimited: 0, reconciled: 0 };
  const inFlight = new Set<Promise<void>>();
  // 'auto': grow while the limiter has a token and nobody waiting for it (a free request slot
  // going unused), shrink while requests queue at the limiter (rows that cannot leave yet).
  // Settles at about rate × latency, whatever the latency turns out to be.
  const fixed = typeof options.concurrency === 'number' ? Math.max(1, Math.floor(options.concurrency)) : null;
  // The first order of every product goes alone and its product's other rows wait for its checked
  // answer (send rule 6, FirstOrders): a service that reads our request for a product differently
  // costs at most one wrong gift, in a file of several gifts too.
  const firsts = new FirstOrders();
  const productOf = (job: Job): number => productIdOf(campaign, job.row);
  let alone = false;
  // A product's first order, taken while other orders were in flight: it goes next, alone.
  let nextAlone: Job | undefined;
  // Rows held for their product's first order are taken from the ready rows up to this many; then
  // the run waits for that order rather than read the rest of the campaign into memory.
  const maxHeld = 1_000;
  const maxAuto = Math.max(AUTO_MIN, options.maxConcurrency ?? 32);
  // Starting guess: a 200 ms round trip at the limiter's rate, and a group (plus two) waiting for
  // their tokens.
  const initial = options.limiter?.stats();
  let autoTarget = Math.min(maxAuto, Math.max(AUTO_MIN, Math.ceil((initial?.currentRate ?? 0) * 0.2) + (initial?.group ?? 0) + 2));
  const target = (): number => (alone || !firsts.anyChecked ? 1 : (fixed ?? autoTarget));
  const adjustConcurrency = () => {
    if (fixed !== null || !options.limiter) return;
    const { waiting, pausedUntil, group } = options.limiter.stats();
    // Seen as one request ends, before its worker takes the next: fewer than a group waiting means
    // the next release of tokens (a group at a time) may find rows missing.
    if (pausedUntil === null && waiting <= group && inFlight.size >= autoTarget) autoTarget = Math.min(maxAuto, autoTarget + 1);
    else if (waiting > group + 2) autoTarget = Math.max(AUTO_MIN, autoTarget - 1);
  };
  const stats = (): SendStats => ({
    startedAt,
    elapsedMs: clock.now() - startedAt,
    ...counters,
    inFlight: inFlight.size,
    concurrency: target(),
  });

  // Written from callbacks, read by the loop: kept in an object so the loop always reads it fresh.
  const control: { phase: SendProgress['phase']; stop: StopRequest | null; fatal: { error: unknown } | null } = {
    phase: 'reconciling',
    stop: null,
    fatal: null,
  };
  let lastProgress = Number.NEGATIVE_INFINITY;
  const progress = (force = false) => {
    if (!opts.onProgress) return;
    const now = clock.now();
    if (!force && now - lastProgress < PROGRESS_INTERVAL_MS) return;
    lastProgress = now;
    try {
      opts.onProgress({ campaignId, phase: control.phase, counts: countByState(db, campaignId), stats: stats() });
    } catch (err) {
      log({ level: 'warn', message: `progress callback failed: ${err instanceof Error ? err.message : String(err)}` });
    }
  };

  // The hot path's writes share commits: the intents of the rows leaving together (awaited: a POST
  // leaves only once its intent is durable) and, riding along, the orders answered since (not
  // awaited: until it commits, a crash leaves the row `sending`, and reconciliation finds its
  // order by key). Either way no row is sent twice and none is lost.
  const writes = createCommitBatch(db);
  const recording = new Set<Promise<void>>();
  const record = (write: Promise<void>): void => {
    const tracked = write
      .catch((err: unknown) => {
        control.fatal ??= { error: err };
        requestStop('user', internalStopText(err));
      })
      .finally(() => recording.delete(tracked));
    recording.add(tracked);
  };

  const wake = new WakeSignal();
  // Settles when a stop is asked: a row still waiting for its token (the limiter may be holding
  // every request for a Retry-After of minutes) stops waiting at once, since nothing of it has
  // been written yet. The token it would have had is taken later and left unused.
  let stopped!: () => void;
  const stopAsked = new Promise<void>((resolve) => {
    stopped = resolve;
  });
  const requestStop = (reason: StopRequest['reason'], detail: string) => {
    control.stop ??= { reason, detail };
    if (control.phase === 'sending') control.phase = 'stopping';
    stopped();
    wake.fire();
  };
  const onAbort = () => requestStop('user', 'Sending was paused. Press Resume to send the rest.');
  if (opts.signal?.aborted) onAbort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  // A pause asked from another process (the app, for a campaign a giftbatch command sends).
  const onRemotePause = () => requestStop('user', 'Sending was paused from another Giftbatch (the app or a command on this data folder). Press Resume to send the rest.');
  if (lease.stopRequested.aborted) onRemotePause();
  lease.stopRequested.addEventListener('abort', onRemotePause, { once: true });

  progress(true);
  // How far back the service's order list reaches, learnt once for the run (an empty lookup of a
  // key first sent long ago counts only where it does). The rows held for a person before this run
  // began are the ones a person's resendUnconfirmed speaks for: they were shown and looked up.
  const reach = new ListReach(db, client, clock, options.accountFingerprint);
  const resend = opts.resendUnconfirmed === true;
  const heldBefore = new Set(resend ? heldRowIds(db, campaignId) : []);
  const resendable = (rowId: number): boolean => heldBefore.has(rowId);
  let reconciliation: ReconcileResult;
  try {
    reconciliation = await reconcile(db, client, { campaignId }, { clock, reach, ...(opts.signal ? { signal: opts.signal } : {}) });
  } catch (err) {
    opts.signal?.removeEventListener('abort', onAbort);
    lease.stopRequested.removeEventListener('abort', onRemotePause);
    throw err;
  }
  counters.reconciled = reconciliation.ordered;
  if (reconciliation.auth) requestStop('auth', authDetail(reconciliation.auth.message));
  const [wrong] = reconciliation.mismatched;
  if (wrong) requestStop('mismatch', wrong.detail ?? 'An order found by its key disagrees with what its row asked.');
  control.phase = control.stop ? 'stopping' : 'sending';

  // Rows still `sending` go first: their POST may have been made, and they are settled under
  // their own key before any new row is started. One the reconciliation could not clearly look up
  // is looked up again before it is POSTed again: how long the service remembers a key is "not
  // shown" (the spec, section 8), and under a key it has forgotten since the earlier run, the same
  // bytes are a second order, charged again. Only a clear "no order under this key" lets it go.
  const retries = new RetrySchedule();
  const now0 = clock.now();
  // Rows whose empty lookup proves nothing (ListReach) wait for a person, who looks their keys up at
  // the service; the rest of the campaign goes on, and the run ends paused 'unconfirmed' for them.
  const held: string[] = [];
  const heldIds = new Set<number>();
  for (const r of reconciliation.rows) {
    if (r.result !== 'unconfirmed' || resendable(r.rowId)) continue;
    heldIds.add(r.rowId);
    held.push(r.detail ?? '');
  }
  // Orders the reconciliation found without the item's price (and so recorded, as an answer that
  // leaves it out is): each is confirmed from its record as its product's first order, before any
  // other order of that product goes (send rule 6), ahead of the rows still sending.
  for (const r of reconciliation.rows) {
    const row = r.priceUnstated && r.orderId !== undefined ? getRecipient(db, r.rowId) : null;
    if (!row || !r.priceUnstated || r.orderId === undefined) continue;
    retries.add(now0, { row, uncertain: false, attempts: 0, ambiguousStreak: 0, fresh: false, confirmPrice: { orderId: r.orderId, ...r.priceUnstated } });
  }
  const clearlyAbsent = new Set(reconciliation.rows.filter((r) => r.result === 'not-found' || (r.result === 'unconfirmed' && resendable(r.rowId))).map((r) => r.rowId));
  for (const row of listSendingRows(db, { campaignId })) {
    if (heldIds.has(row.id)) continue;
    const lookUpFirst = clearlyAbsent.has(row.id) ? {} : { lookUpFirst: { requestBody: row.requestBody } };
    retries.add(now0, { row, uncertain: true, attempts: 0, ambiguousStreak: 0, fresh: false, ...lookUpFirst, ...(row.sentAt !== null ? { firstSentAt: row.sentAt } : {}) });
  }
  const leftSending: Job[] = [];
  const unbuildable = new Map<number, string>();
  const ready = readySource(db, campaignId, unbuildable);

  const again = (job: Job, dueAt: number) => {
    if (options.maxAttemptsPerRun !== undefined && job.attempts >= options.maxAttemptsPerRun) leftSending.push(job);
    else retries.add(dueAt, job);
  };

  // An answered order, checked against the bytes that were POSTed. One that disagrees is recorded at
  // once as the service stated it, flagged with both values, and stops the run.
  // Answers without the item's price, being confirmed from their records (confirm-price.ts).
  // Only a product's first order waits for it, in its send slot (the attempt's task awaits it: see
  // start()), and its product's other rows wait for that. An order of a product already checked
  // holds no slot: it is recorded, and the poller fills in its price and charge from its record
  // (poller completeCharge) and flags a price unlike the one asked (checkPolled), which pauses the
  // campaign; a run still going sees that pause before its next order (pausedByPoll).
  const pricing = new WeakMap<Job, Promise<void>>();
  let leftToPoll = 0;
  const confirmLater = (job: Job, price: PriceToConfirmLater): void => {
    if (firsts.isChecked(productOf(job))) {
      leftToPoll++;
      log({ level: 'info', rowId: job.row.id, message: `order ${price.orderId}: no item price in the answer yet; its product's first order was checked, so the poller reads its price and charge from its record` });
      return;
    }
    log({ level: 'info', rowId: job.row.id, message: `order ${price.orderId}: no item price in the answer yet; reading its record to confirm it` });
    const stopped = () => control.stop !== null;
    const confirming = confirmPrice({
      db, client, clock, campaign, rowId: job.row.id, line: job.row.line, ...price, stopAsked, stopped,
      ...(options.priceWaitsMs ? { waitsMs: options.priceWaitsMs } : {}),
    }).then((result) => {
      if (result.kind === 'confirmed') {
        log({ level: 'info', rowId: job.row.id, message: `order ${price.orderId}: its record states the price asked; the product's other orders go` });
        firsts.check(productOf(job));
      } else if (result.kind === 'pause') requestStop('mismatch', result.detail);
    });
    pricing.set(job, confirming);
  };
  const recordOrder = (job: Job, order: Order, requestBody: string, via: 'response' | 'reconciliation', found: readonly Finding[] = []): void => {
    const now = clock.now();
    const findings = [...verifyOrder(expectationOf(campaign, requestBody), order), ...found];
    const unstated = findings.find(isUnstatedPrice);
    if (unstated && onlyPriceUnstated(findings)) {
      // No price stated yet, nothing contradicted: recorded, and confirmed from the order's record
      // before its product's next order (the attempt's task waits for it: see start()).
      if (markOrdered(db, job.row.id, orderOutcomeOf(order, withoutUnstatedPrice(findings)), now, via)) counters.ordered++;
      return confirmLater(job, { orderId: order.id, requestBody, unstated });
    }
    const recorded = orderOutcomeOf(order, findings);
    if (mismatches(findings).length > 0) {
      if (markOrdered(db, job.row.id, recorded, now, via)) counters.ordered++;
      log({ level: 'error', rowId: job.row.id, message: findings.map((f) => f.message).join('; ') });
      requestStop('mismatch', mismatchDetail(job.row.line, order.id, findings));
      return;
    }
    firsts.check(productOf(job));
    if (via === 'reconciliation') {
      if (markOrdered(db, job.row.id, recorded, now, via)) counters.ordered++;
      return;
    }
    record(
      writes.later(() => markOrdered(db, job.row.id, recorded, now), ORDERED_COMMIT_DELAY_MS).then((applied) => {
        if (applied) counters.ordered++;
      }),
    );
  };

  // A POST given up after the request timeout, or answered 502/504 by a gateway, may still be being
  // processed at the service (mayStillBeRunning), and the spec does not say what a service does with
  // a second request under a key whose first is still in progress: one whose key check is not atomic
  // makes a second order, charged too (audit #38).
  const inFlightWaitMs = options.inFlightWaitMs ?? client.timeoutMs ?? IN_FLIGHT_WAIT_MS;

  /** `posted`: the outcome is the answer to this row's POST (not to a lookup of its key). */
  const settle = async (job: Job, outcome: Outcome<Order>, requestBody: string, posted = false): Promise<void> => {
    const now = clock.now();
    const rowId = job.row.id;
    switch (outcome.kind) {
      case 'ok': {
        const order = outcome.value;
        if (order.externalReferenceId !== undefined && order.externalReferenceId !== job.row.externalReferenceId) {
          // Not our order: record nothing from it, and ask again under our key.
          return settle(job, mismatch(outcome.endpoint, order, job.row.externalReferenceId), requestBody);
        }
        breaker.success();
        refusals.reset();
        return recordOrder(job, order, requestBody, 'response');
      }
      case 'rejected': {
        breaker.success();
        const text = rejectionText(outcome.status, outcome.code, outcome.message);
        if (job.uncertain) return confirmRejection(job, text, requestBody);
        if (markFailed(db, rowId, text, now)) counters.failed++;
        const repeated = refusals.add(outcome.status, outcome.code, outcome.message);
        if (repeated) requestStop('refused', refusedDetail(repeated, text));
        return;
      }
      case 'rate-limited': {
        counters.rateLimited++;
        // A 503 may come after the order was committed upstream: a later 4xx is looked up first.
        if (outcome.status >= 500) job.uncertain = true;
        // The client has paused the shared limiter; this row also waits at least that long itself.
        const dueAt = now + (outcome.retryAfterMs ?? 1_000);
        recordAttemptError(db, rowId, { error: outcome.message, nextAttemptAt: dueAt }, now);
        return again(job, dueAt);
      }
      case 'auth': {
        recordAttemptError(db, rowId, { error: outcome.message, nextAttemptAt: null }, now);
        return requestStop('auth', authDetail(outcome.message));
      }
      case 'ambiguous': {
        counters.ambiguous++;
        job.uncertain = true;
        job.ambiguousStreak++;
        log({ level: 'warn', rowId, message: outcome.message });
        if (breaker.failure()) {
          recordAttemptError(db, rowId, { error: outcome.message, nextAttemptAt: null }, now);
          return requestStop('circuit-breaker', breakerDetail(breaker.threshold, outcome));
        }
        const backoff = backoffDelay(job.ambiguousStreak - 1, random, options.backoff ?? {});
        // A POST that may still be processed (timed out, or a gateway's 502/504): the row waits out
        // at least one more request timeout, then its key is looked up first (lookedUpFirst):
        // found, recorded; clearly absent, POSTed again.
        const stillRunning = posted && mayStillBeRunning(outcome);
        if (stillRunning) job.lookUpFirst = { requestBody };
        const dueAt = now + (stillRunning ? Math.max(backoff, inFlightWaitMs) : backoff);
        recordAttemptError(db, rowId, { error: outcome.message, nextAttemptAt: dueAt }, now);
        return again(job, dueAt);
      }
    }
  };

  // A row whose empty lookup proves nothing (ListReach): left `sending`, due at no time, its Details
  // saying why, out of this run; a person looks its key up at the service (resendUnconfirmed).
  const hold = (job: Job, detail: string): void => {
    holdRow(db, job.row.id, detail, clock.now());
    held.push(detail);
  };

  // A 4xx after an attempt that got no clear answer: that earlier attempt may have created the
  // order (a service that checks the balance before the key would say 402 now). Look before failing,
  // and when the list shows nothing, look once more a little later: a new order may be missing
  // from list answers for a while. A stop asked meanwhile leaves the row `sending` for reconciliation.
  const confirmRejection = async (job: Job, failure: string, requestBody: string): Promise<void> => {
    let lookup = await lookUpOrder(client, reach, lookedUpRow(job, requestBody), campaign);
    if (lookup.kind === 'ok' && !lookup.value.order && !control.stop) {
      await Promise.race([clock.sleep(options.lookupAgainMs ?? LOOKUP_AGAIN_MS), stopAsked]);
      if (control.stop) return;
      lookup = await lookUpOrder(client, reach, lookedUpRow(job, requestBody), campaign);
    }
    const now = clock.now();
    switch (lookup.kind) {
      case 'unconfirmed':
        // Never failed on it, even with a person's word: a failed row may be followed up with a new
        // key, and an order may exist under this one.
        return hold(job, lookup.detail);
      case 'ok':
        if (lookup.value.order) recordOrder(job, lookup.value.order, requestBody, 'reconciliation');
        else if (markFailed(db, job.row.id, failure, now)) counters.failed++;
        return;
      case 'rejected':
        return settle(job, refusedLookup(lookup), requestBody);
      default:
        return settle(job, lookup, requestBody);
    }
  };

  // The body is built from the row as it stands when its intent commits, in the same transaction:
  // an edit made while the row waited for its turn is what gets sent (and shown), never the values
  // read before. A row that cannot be built is left ready and reported.
  const freeze = (rowId: number, now: number): SendAttempt | null => {
    if (!lease.stillHeld()) {
      requestStop('lease', LEASE_LOST);
      return null;
    }
    const paused = leftToPoll > 0 ? pausedByPoll() : null;
    if (paused !== null) {
      requestStop('mismatch', paused);
      return null;
    }
    const row = readyRowToSend(db, rowId);
    if (!row) return null;
    let body: string;
    try {
      body = orderBodyFor(campaign, row);
    } catch (err) {
      if (!(err instanceof OrderBodyError)) throw err;
      unbuildable.set(rowId, err.message);
      log({ level: 'warn', rowId, message: err.message });
      return null;
    }
    return markSending(db, rowId, body, now);
  };

  // A poll round that finds an order's record unlike what it asked pauses the campaign (checkPolled)
  // while this run still sends: looked at before each order once some of this run's orders are
  // left to the poller for their price, so a wrong price found there stops the run at its next row.
  const pausedByPoll = (): string | null => {
    const now = getCampaign(db, campaignId);
    if (now?.sendState !== 'paused' || now.pausedReason !== 'mismatch') return null;
    return now.pausedDetail ?? 'A poll found an order unlike what its row asked; sending paused.';
  };

  // A carried-over row's lookup before its re-POST (Job.lookUpFirst). True when the row is done for
  // now: its order found and recorded, or no clear answer (handled as an unclear attempt: retried
  // later, counted by the breaker and maxAttemptsPerRun). False: no order under its key, POST it.
  const lookedUpFirst = async (job: Job, first: NonNullable<Job['lookUpFirst']>): Promise<boolean> => {
    const body = first.requestBody ?? '';
    const lookup: KeyLookup = await lookUpOrder(client, reach, lookedUpRow(job, first.requestBody), campaign);
    if ((lookup.kind === 'ok' && lookup.value.order === null) || (lookup.kind === 'unconfirmed' && resendable(job.row.id))) {
      job.lookUpFirst = undefined;
      return false;
    }
    if (lookup.kind === 'unconfirmed') {
      hold(job, lookup.detail);
      return true;
    }
    job.attempts++;
    if (lookup.kind === 'ok' && lookup.value.order !== null) {
      const { order, duplicates } = lookup.value;
      const more = duplicates.map((d) => d.id);
      if (more.length > 0) {
        // Recorded for the campaign as the run's reconciliation records it, not only logged; the row
        // is flagged with them and the run pauses (recordOrder: a mismatch).
        const message = recordDuplicateOrders(db, campaignId, job.row, order.id, more, clock.now());
        log({ level: 'error', rowId: job.row.id, message });
      }
      // A clear answer, as the POST's own would have been: the service is answering (circuit breaker).
      breaker.success();
      counters.reconciled++;
      recordOrder(job, order, body, 'reconciliation', more.length > 0 ? [duplicateOrdersFinding(order.id, more)] : []);
    } else if (lookup.kind === 'rejected') {
      await settle(job, refusedLookup(lookup), body);
    } else if (lookup.kind !== 'ok') {
      await settle(job, lookup, body);
    }
    return true;
  };

  const attempt = async (job: Job): Promise<void> => {
    // An order the reconciliation found without its price: its record is read for it, nothing is sent.
    if (job.confirmPrice) return confirmLater(job, job.confirmPrice);
    if (job.lookUpFirst && (await lookedUpFirst(job, job.lookUpFirst))) return;
    // The token first, then the intent (see SendQueueOptions.limiter). A stop asked meanwhile
    // leaves the row as it was: still ready, or `sending` for the next run's reconciliation.
    if (options.limiter) {
      await Promise.race([options.limiter.acquire(), stopAsked]);
      if (control.stop) return;
    }
    const startedMs = clock.now();
    let sending: SendAttempt | null;
    if (job.fresh) {
      // Intent first: from here on, after a crash this row is found by its key, never sent anew.
      sending = await writes.run(() => freeze(job.row.id, startedMs));
      if (sending) counters.sent++;
      if (sending) job.firstSentAt ??= startedMs;
      if (sending) crashPoint('after-intent-commit');
      job.fresh = false;
    } else {
      sending = await writes.run(() => {
        if (lease.stillHeld()) return beginRetry(db, job.row.id, startedMs);
        requestStop('lease', LEASE_LOST);
        return null;
      });
      if (sending) counters.retries++;
    }
    if (!sending) return; // another hand moved the row (skipped, reconciled elsewhere)
    job.attempts++;
    counters.attempts++;
    const pending = client.createOrder(sending.requestBody, options.limiter ? { tokenTaken: true } : undefined);
    crashWhilePending('after-post-sent', pending);
    const outcome = await pending;
    crashPoint('after-response');
    adjustConcurrency();
    await settle(job, outcome, sending.requestBody, true);
  };

  const start = (job: Job, first: boolean) => {
    const product = productOf(job);
    if (first) {
      alone = true;
      firsts.started(product, job);
    }
    const task = attempt(job)
      .then(() => pricing.get(job))
      .catch((err: unknown) => {
        control.fatal ??= { error: err };
        requestStop('user', internalStopText(err));
      })
      .finally(() => {
        if (first) {
          alone = false;
          firsts.ended(product, retries.has(job));
        }
        inFlight.delete(task);
        wake.fire();
        progress();
      });
    inFlight.add(task);
  };

  for (;;) {
    if (control.stop) {
      if (inFlight.size === 0) break;
      await wake.wait();
      continue;
    }
    const now = clock.now();
    while (!control.stop && inFlight.size < target()) {
      const job = nextAlone ?? firsts.takeReleased() ?? retries.takeDue(now) ?? (firsts.waitingRows < maxHeld ? ready.next() : undefined);
      nextAlone = undefined;
      if (!job) break;
      const admitted = firsts.admit(productOf(job), job);
      if (admitted === 'held') continue;
      if (admitted === 'first' && inFlight.size > 0) {
        nextAlone = job;
        break;
      }
      start(job, admitted === 'first');
    }
    if (inFlight.size === 0 && retries.size === 0 && ready.exhausted && nextAlone === undefined && firsts.waitingRows === 0) break;
    const nextDue = retries.nextDueAt();
    if (inFlight.size < target() && nextDue !== undefined) {
      // A free worker and only a retry to wait for: sleep in short steps so a stop is seen soon.
      await Promise.race([wake.wait(), clock.sleep(Math.min(Math.max(0, nextDue - clock.now()), 200))]);
    } else {
      await wake.wait();
    }
  }
  writes.flush();
  await Promise.all(recording);
  // A poll's pause after this run's last order: kept, not ended as done.
  const pausedMeanwhile = control.stop === null && control.fatal === null ? pausedByPoll() : null;
  if (pausedMeanwhile !== null) control.stop = { reason: 'mismatch', detail: pausedMeanwhile };
  const [firstHeld] = held;
  if (firstHeld !== undefined) control.stop ??= { reason: 'unconfirmed', detail: unconfirmedDetail(held.length, firstHeld) };
  const lookedUpOnPause = await lookUpOnPause(db, client, reach, clock, campaignId, control.stop, control.fatal, [opts.signal, lease.stopRequested], log);
  opts.signal?.removeEventListener('abort', onAbort);
  lease.stopRequested.removeEventListener('abort', onRemotePause);
  control.phase = 'finished';

  const finished = finish(db, clock, campaignId, control.stop, control.fatal, unbuildable, leftSending);
  progress(true);
  if (control.fatal) throw control.fatal.error;
  log({ level: 'info', message: finished.message });
  return { campaignId, ...finished, stats: stats(), reconciliation, lookedUpOnPause };
}

/** A lookup by key the service refused (a 4xx to a read): no clear answer about the row's order, an unclear attempt. */
function refusedLookup(lookup: Rejected): Ambiguous {
  return { kind: 'ambiguous', reason: 'status', status: lookup.status, endpoint: lookup.endpoint, message: lookup.message };
}

/** A job's row as its lookup by key reads it: the bytes it POSTed, and when it was first sent (carried over) or not long ago. */
function lookedUpRow(job: Job, requestBody: string | null): LookedUpRow {
  return { line: job.row.line, externalReferenceId: job.row.externalReferenceId, requestBody, sentAt: job.firstSentAt ?? null };
}

/** Pauses that leave the service reachable and answering: its own refusals, an answer unlike the request. */
const LOOK_UP_ON_PAUSE: ReadonlySet<StopRequest['reason']> = new Set(['mismatch', 'refused']);

/**
 * A run that pauses for a reason that leaves the service reachable (LOOK_UP_ON_PAUSE) may leave
 * rows `sending` whose POST got no clear answer just before (a truncated 200 as the mismatch hit):
 * the service may hold their orders. Each is looked up once by its key, read-only GETs and no
 * POST, after every POST of the run has been answered and recorded: an order found is recorded as
 * the service states it (checked against the frozen body like any answer), so the campaign's
 * charged total equals the service's without waiting for a resume that may never come. A row with
 * no order found, or no clear answer, is left as it was for the resume's reconciliation. Not after
 * the circuit breaker (the service is not answering), a refused key, the person's pause (they asked
 * it to stop; a pause during this lookup stops it too), a lost lease (another process's now) or an
 * internal error.
 */
async function lookUpOnPause(
  db: Db,
  client: ServiceClient,
  reach: ListReach,
  clock: Clock,
  campaignId: string,
  stop: StopRequest | null,
  fatal: { error: unknown } | null,
  signals: readonly (AbortSignal | undefined)[],
  log: (entry: Omit<SendLogEntry, 'campaignId'>) => void,
): Promise<ReconcileResult | null> {
  if (fatal !== null || stop === null || !LOOK_UP_ON_PAUSE.has(stop.reason)) return null;
  if (countByState(db, campaignId).sending === 0) return null;
  const signal = AbortSignal.any(signals.filter((s): s is AbortSignal => s !== undefined));
  // A 429 is not waited out here: the row stays for the resume, and the pause is not held up.
  const result = await reconcile(db, client, { campaignId }, { clock, reach, signal, notFound: 'leave', maxRateLimitedRetries: 0 });
  log({
    level: result.duplicates > 0 || result.mismatched.length > 0 ? 'error' : 'info',
    message:
      `Paused (${stop.reason}): ${plural(result.checked + result.unknown, 'row')} left sending looked up by key: ` +
      `${result.ordered} ordered, ${result.notFound} not found, ${result.unknown} without a clear answer (left for the resume).`,
  });
  return result;
}
