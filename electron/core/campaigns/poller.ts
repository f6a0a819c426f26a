// Polling (no webhooks exist; docs/architecture.md, "Polling"). One round asks for the PENDING
// list, paged at 500 by the spec's rule; the local `ordered` rows that left it are looked for in the
// COMPLETED list (a wave of deliveries, 500 to a request) while its pages find them, and the rest
// fetched one by one. So a round costs ceil(pending / 500) + about ceil(delivered / 500) + (the
// rows that changed otherwise) requests, at most two more than the one-by-one fetches alone.
import { isAcceptanceExpired } from '../../../shared/domain/acceptance.ts';
import { isSettled, type RowState } from '../../../shared/domain/rows.ts';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/open.ts';
import { campaignProducts, getCampaign, listCampaigns, setLastPolled, setSendState, type Campaign, type Environment } from '../db/repos/campaigns.ts';
import { orderOutcomeOf, type CampaignForOrder } from './order-body.ts';
import { listTrackedOrders, type TrackedOrder } from '../db/repos/recipients.ts';
import { addFindings, clearUnstatedPrice, completeOrderRecord, updateOrderStatus } from '../db/repos/recipient-transitions.ts';
import { contradictions, entryAgrees, expectationOf, mismatchDetail, mismatches, UnreadableRequestError, verifyOrder, withoutUnstatedPrice } from './verify-order.ts';
import { ORDER_PAGE_SIZE, type Order, type OrderPage, type Outcome, type ServiceClient } from '../service/index.ts';
import { parseServiceTime } from '../service/schemas.ts';
import { rowStateForOrder } from './policy.ts';

export interface PollTarget {
  environment: Environment;
  baseUrl: string;
  /** Only this campaign's rows (the CLI's `poll CAMPAIGN_ID`); all of the environment's otherwise. */
  campaignId?: string;
}

export interface PollRoundResult {
  /** Local rows that had an undelivered order when the round began. */
  tracked: number;
  /** Requests the round made: list pages plus per-order fetches. */
  requests: number;
  /** Rows whose state changed (delivered or cancelled). */
  settled: number;
  /** Of `settled`, those delivered. */
  delivered: number;
  /** Of `settled`, those cancelled (or never paid). */
  cancelled: number;
  /** Rows still waiting after the round. */
  waiting: number;
  /** Rows waiting on a recipient whose acceptance link has expired. */
  expired: number;
  /** Why the round stopped early, when it did (the next round starts over); stoppedMessage when asked to stop. */
  error?: string;
  /**
   * A request to the service failed (a list page, or an order's own record: a 5xx, a timeout, a
   * refusal), the first or a later one: the round did not finish. What it read before is recorded;
   * the orders it could not read wait for the next round. Absent when every request was answered.
   */
  serviceFailed?: true;
}

export interface PollDeps {
  db: Db;
  client: ServiceClient;
  clock: Clock;
}

/** Campaigns of the target, by id, each with the products its orders are checked against. */
function targetCampaigns(db: Db, target: PollTarget): Map<string, Campaign & CampaignForOrder> {
  return new Map(
    listCampaigns(db, { environment: target.environment })
      .filter((c) => c.baseUrl === target.baseUrl && (!target.campaignId || c.id === target.campaignId))
      .map((c) => [c.id, { ...c, products: campaignProducts(db, c) }]),
  );
}

/** Rows a round looks at between two turns of the event loop: a round over 100,000 orders never holds the thread for long. */
const ROWS_PER_TURN = 250;

export interface PollRoundOptions {
  signal?: AbortSignal;
  /** Called for each row the round changed (state, statuses, expiry or findings), once the change is committed. */
  onChanged?: (campaignId: string, rowId: number) => void;
}

export async function pollRound(deps: PollDeps, target: PollTarget, opts: PollRoundOptions = {}): Promise<PollRoundResult> {
  const { db, client, clock } = deps;
  const campaigns = targetCampaigns(db, target);
  const rows = listTrackedOrders(db, target);
  const result: PollRoundResult = { tracked: rows.length, requests: 0, settled: 0, delivered: 0, cancelled: 0, waiting: rows.length, expired: 0 };
  if (rows.length === 0) return result;
  // A stop (the signal) is looked at before every request and after every answer: no request starts
  // after it, and a cancelled request's row is left as it was. Each row's writes are synchronous
  // (no await between them), so a stop never falls between two writes of one row.
  let checked = 0;
  const stopped = (): PollRoundResult => ({ ...result, waiting: rows.length - result.settled, error: stoppedMessage(checked, rows.length) });
  if (opts.signal?.aborted) return stopped();

  const pending = new Map<number, Order>();
  for await (const page of client.orderPages({ itemStatus: 'PENDING' }, opts)) {
    result.requests += 1;
    if (opts.signal?.aborted) return stopped();
    if (page.kind !== 'ok') return { ...result, error: describe(page), serviceFailed: true };
    for (const order of page.value.orders) pending.set(order.id, order);
  }

  const left = new Set<number>();
  for (const row of rows) if (!pending.has(row.orderId)) left.add(row.orderId);
  const listed = await ordersFromCompletedList(client, left, opts);
  result.requests += listed.requests;
  if (opts.signal?.aborted) return stopped();

  // Rows whose answer is in hand are written in one transaction per run of them (one commit, not
  // one per row: a wave of deliveries would hold the thread for a sync to disk per row), and a run
  // is written before every await, so a stop never finds one half-applied. Each row is its own
  // savepoint: a row that cannot be recorded is left as it was and named, and the others go in.
  const known: [TrackedOrder, Order][] = [];
  const apply = (): void => {
    if (known.length === 0) return;
    const changedRows: TrackedOrder[] = [];
    db.transaction(() => {
      for (const [row, order] of known) {
        let outcome: Recorded;
        try {
          outcome = db.transaction(() => recordPolled(db, campaigns.get(row.campaignId), row, order, clock.now()))();
        } catch (error) {
          result.error = `line ${row.line}, order ${row.orderId}: not recorded (${error instanceof Error ? error.message : String(error)})`;
          continue;
        }
        checked += 1;
        if (outcome.changed) changedRows.push(row);
        if (outcome.settled) {
          result.settled += 1;
          if (outcome.state === 'delivered') result.delivered += 1;
          else result.cancelled += 1;
        } else if (outcome.expired) result.expired += 1;
      }
    })();
    known.length = 0;
    for (const row of changedRows) opts.onChanged?.(row.campaignId, row.id);
  };

  let sinceTurn = 0;
  for (const row of rows) {
    if (opts.signal?.aborted) {
      apply();
      return stopped();
    }
    if (++sinceTurn >= ROWS_PER_TURN) {
      sinceTurn = 0;
      apply();
      await new Promise((resolve) => setImmediate(resolve));
      if (opts.signal?.aborted) return stopped();
    }
    const campaign = campaigns.get(row.campaignId);
    const stillPending = pending.get(row.orderId);
    const entry = stillPending ?? listed.found.get(row.orderId);
    // A list entry stands for the order's record only when it agrees with the row's request
    // (entryAgrees); from the COMPLETED list, only when it also settles the row.
    if (entry && (stillPending !== undefined || settles(entry)) && entryAgrees(campaign, row.requestBody, entry)) {
      known.push([row, entry]);
      continue;
    }
    // A row without its charge takes no shortcut: its record may state it now (one GET, for those rows
    // only: a round over rows that have their charges costs what it did).
    if (stillPending && !row.uncharged && nothingNew(campaign, row, stillPending)) {
      checked += 1;
      if (isAcceptanceExpired({ state: 'ordered', acceptanceExpiry: row.acceptanceExpiry }, clock.now())) result.expired += 1;
      continue;
    }
    // It left the PENDING list and was not found settled in the COMPLETED list (cancelled,
    // delivered after the list was read, in a part of the list not read), or a list gave less than
    // its full record or told another story. Its own record decides.
    apply();
    const fetched = await client.getOrder(row.orderId, opts);
    result.requests += 1;
    if (fetched.kind !== 'ok') {
      if (opts.signal?.aborted) return stopped();
      result.error = describe(fetched);
      result.serviceFailed = true;
      continue;
    }
    known.push([row, fetched.value]);
  }
  apply();
  result.waiting = rows.length - result.settled;
  // Every tracked row was asked about (those whose fetch failed are named in result.error): the
  // campaigns' "Last checked". A round that stopped, or could not read the PENDING list, returned
  // above and leaves the last time as it was.
  setLastPolled(db, new Set(rows.map((r) => r.campaignId)), clock.now());
  return result;
}

interface Recorded {
  /** The row's state, statuses, expiry or findings changed. */
  changed: boolean;
  settled: boolean;
  /** The row's state after the answer. */
  state: RowState;
  /** Still waiting on a recipient whose acceptance link has expired. */
  expired: boolean;
}

/** Records what the service says of one row's order (its statuses, expiry and any new finding). */
function recordPolled(db: Db, campaign: (Campaign & CampaignForOrder) | undefined, row: TrackedOrder, order: Order, now: number): Recorded {
  const flagged = checkPolled(db, campaign, row, order, now);
  const completed = completeCharge(db, row, order, now);
  const state = rowStateForOrder(order.status, order.item.status);
  const expiry = order.acceptanceExpiresAt ? parseServiceTime(order.acceptanceExpiresAt) : null;
  const changed =
    state !== 'ordered' ||
    order.status !== row.orderStatus ||
    order.item.status !== row.itemStatus ||
    (expiry !== null && expiry !== row.acceptanceExpiry);
  if (changed) {
    updateOrderStatus(
      db,
      row.id,
      { state, orderStatus: order.status, itemStatus: order.item.status ?? null, acceptanceExpiry: Number.isNaN(expiry) ? null : expiry },
      now,
    );
  }
  // The expiry the row keeps: the one just read, else the one it had (an unreadable one is not stored).
  const kept = expiry === null || Number.isNaN(expiry) ? row.acceptanceExpiry : expiry;
  return { changed: changed || flagged || completed, settled: isSettled(state), state, expired: !isSettled(state) && isAcceptanceExpired({ state, acceptanceExpiry: kept }, now) };
}

/**
 * A row ordered without its charge (its answer did not state the item's price, and the run's
 * confirmation from the record was cut short: a pause, a crash, a lost lease): the record's charge,
 * rate, fee and issued price fill it once the record states a charge, so the campaign's charged
 * total comes to equal the service's. A row that has a charge is not written. A record that cannot
 * be stored as an order's outcome leaves the row as it was; its statuses are still recorded.
 */
function completeCharge(db: Db, row: TrackedOrder, order: Order, now: number): boolean {
  // Most rows have their charge: nothing to read or write for them (the round's hot path).
  if (!row.uncharged || order.charged === undefined) return false;
  try {
    return db.transaction(() => completeOrderRecord(db, row.id, orderOutcomeOf(order, []), now, { onlyWithoutCharge: true }))();
  } catch {
    return false;
  }
}

const settles = (order: Order): boolean => rowStateForOrder(order.status, order.item.status) !== 'ordered';

/**
 * A PENDING-list entry that does not agree with the row's request but says nothing new: it leaves
 * out what an answer is checked on (a list of summaries), states the statuses (and any link expiry)
 * the row already has, and contradicts nothing it does state. The row was checked against its
 * order's full answer when it was ordered; it is still waiting, with nothing to fetch or write.
 * A round over a service whose lists are summaries then costs its pages, not a GET per order.
 */
function nothingNew(campaign: (Campaign & CampaignForOrder) | undefined, row: TrackedOrder, entry: Order): boolean {
  if (entry.status !== row.orderStatus || entry.item.status !== row.itemStatus) return false;
  if (entry.acceptanceExpiresAt !== undefined && parseServiceTime(entry.acceptanceExpiresAt) !== row.acceptanceExpiry) return false;
  if (!campaign || row.requestBody === null) return true;
  try {
    return contradictions(expectationOf(campaign, row.requestBody), entry).length === 0;
  } catch (error) {
    if (error instanceof UnreadableRequestError) return true;
    throw error;
  }
}

/**
 * Fewest rows gone from the PENDING list for the COMPLETED list to be read: below it, the fetches
 * one by one cost no more than a walk may (up to two pages of 500 orders that find nothing).
 */
export const LIST_PASS_FROM = 10;
/** A page that finds fewer wanted orders than this (and is not all ours) ends a walk. */
const MIN_FOUND_PER_PAGE = 2;
/** No walk reads more pages than this (100,000 orders at 500 a page). */
const MAX_WALK = 200;
/**
 * Tries of a page that fails in passing (a 5xx, a 429, a reset, a cut body, a timeout): a failed
 * page sends the rest of a wave to one GET each, at a rate the failure itself has just lowered.
 * The rate limiter spaces the tries (a 429 or 503 with Retry-After has paused it). A read-only GET.
 */
const PAGE_TRIES = 3;

/** A failure that may pass, so the same read is worth asking again: not a refusal, a stop or an answer we cannot use. */
function passing(outcome: Outcome<unknown>): boolean {
  if (outcome.kind === 'rate-limited') return true;
  if (outcome.kind !== 'ambiguous') return false;
  return ['timeout', 'unreachable', 'connection', 'truncated', 'server-error', 'status'].includes(outcome.reason);
}

interface PageRead {
  /** Wanted orders first found on this page. */
  hits: number;
  /** Rows on the page. */
  rows: number;
  /** The list's page count, when the page object's result_size (the filtered count) gives it. */
  pages: number | undefined;
}

/**
 * Orders that left the PENDING list are mostly delivered: the COMPLETED list holds 500 of them to a
 * request. Which end of the list holds the newest is "not shown", so the pass walks forward from
 * page 0 (a list that shows the newest first, or a short history), and then, when wanted orders are
 * still missing and the service says how many pages the list has, back from the last page (a list
 * that shows the oldest first) to where the forward walk stopped. Each walk ends at the first page
 * that finds fewer than MIN_FOUND_PER_PAGE wanted orders and is not all ours (so an account's long
 * history is never read through), at the list's end, or when all are found: the pass costs at most
 * two requests more than the fetches it saves (and the tries of pages that fail in passing). A
 * page that still fails, or a stop, ends it; what it did not find is fetched one by one. Whatever
 * the list holds, only entries that settle a row and agree with its request are used (entryAgrees).
 */
async function ordersFromCompletedList(
  client: ServiceClient,
  wanted: ReadonlySet<number>,
  opts: PollRoundOptions,
): Promise<{ found: Map<number, Order>; requests: number }> {
  const found = new Map<number, Order>();
  let requests = 0;
  if (wanted.size < LIST_PASS_FROM) return { found, requests };

  /** Reads one page, asking again after a passing failure (PAGE_TRIES in all); null when it failed or a stop came. */
  const read = async (page: number): Promise<PageRead | null> => {
    let outcome: Outcome<OrderPage> | undefined;
    for (let tries = 0; tries < PAGE_TRIES && (outcome === undefined || passing(outcome)); tries += 1) {
      if (opts.signal?.aborted) return null;
      outcome = await client.listOrders({ itemStatus: 'COMPLETED', page, elementSize: ORDER_PAGE_SIZE }, opts);
      requests += 1;
      if (outcome.kind === 'ok') break;
    }
    if (outcome?.kind !== 'ok') return null;
    let hits = 0;
    for (const order of outcome.value.orders) {
      if (wanted.has(order.id) && !found.has(order.id)) {
        found.set(order.id, order);
        hits += 1;
      }
    }
    const resultSize = outcome.value.page?.resultSize;
    return { hits, rows: outcome.value.rowCount, pages: resultSize === undefined ? undefined : Math.ceil(resultSize / ORDER_PAGE_SIZE) };
  };
  const allFound = (): boolean => found.size === wanted.size;
  const worthTheNext = (page: PageRead): boolean => !allFound() && (page.hits >= MIN_FOUND_PER_PAGE || (page.hits > 0 && page.hits === page.rows));

  const first = await read(0);
  if (first === null) return { found, requests };
  let forwardEnd = 0;
  let last = first;
  while (worthTheNext(last) && last.rows >= ORDER_PAGE_SIZE && forwardEnd + 1 < MAX_WALK) {
    const next = await read(forwardEnd + 1);
    if (next === null) return { found, requests };
    forwardEnd += 1;
    last = next;
  }
  const pages = first.pages;
  if (!allFound() && pages !== undefined) {
    for (let page = pages - 1; page > forwardEnd && pages - page <= MAX_WALK; page -= 1) {
      const back = await read(page);
      if (back === null || !worthTheNext(back)) break;
    }
  }
  return { found, requests };
}

/**
 * A poll answer is evidence too: checked against what the row asked, each new difference is added
 * to the row, and a campaign still sending is paused with it (the queue stops at its next row).
 */
function checkPolled(db: Db, campaign: (Campaign & CampaignForOrder) | undefined, row: TrackedOrder, order: Order, now: number): boolean {
  if (!campaign || row.requestBody === null) return false;
  // A record that does not state the item's price (yet) contradicts nothing: the send queue
  // confirms a product's first order's price from the record (confirm-price.ts), the poller the rest.
  const all = verifyOrder(expectationOf(campaign, row.requestBody), order);
  // One that states the price asked withdraws the row's "no price stated" finding (flagged when the
  // run's reads of the record ran out before the service stated it); any other finding stays.
  const cleared = row.flagged && order.item.price !== undefined && !all.some((f) => f.kind === 'mismatch' && f.field === 'amount') && clearUnstatedPrice(db, row.id, now);
  const findings = withoutUnstatedPrice(all);
  if (findings.length === 0 || !addFindings(db, row.id, findings, now)) return cleared;
  if (mismatches(findings).length > 0 && getCampaign(db, campaign.id)?.sendState === 'sending') {
    setSendState(db, campaign.id, { from: 'sending', to: 'paused', reason: 'mismatch', detail: mismatchDetail(row.line, order.id, findings) }, now);
  }
  return true;
}

/** Why a round stopped when asked to (Ctrl-C in `giftbatch poll`, the app closing): how far it got. */
export function stoppedMessage(checked: number, tracked: number): string {
  return `stopped on request after checking ${checked} of ${tracked} order${tracked === 1 ? '' : 's'} (the rest keep their last known state)`;
}

/**
 * A failed request in words, naming its endpoint once: most outcomes' messages begin with it already
 * ("GET /v1/orders/900011: the service failed…"); a refusal's is the service's own words, which do not.
 */
function describe(outcome: { kind: string; endpoint: string; message?: string }): string {
  const text = outcome.message ?? outcome.kind;
  return text.startsWith(`${outcome.endpoint}:`) ? text : `${outcome.endpoint}: ${text}`;
}
