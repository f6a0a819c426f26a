// Polling (no webhooks exist; docs/architecture.md, "Polling"). One round asks for the PENDING
// list, paged at 500 by the spec's rule; the local `ordered` rows that left it are looked for in the
// COMPLETED list (a wave of deliveries, 500 to a request) while its pages find them, and the rest
// fetched one by one. So a round costs ceil(pending / 500) + about ceil(delivered / 500) + (the
// rows that changed otherwise) requests, never more than one request beyond the one-by-one fetches.
import { isAcceptanceExpired } from '../../../shared/domain/acceptance.ts';
import { isSettled } from '../../../shared/domain/rows.ts';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/open.ts';
import { campaignProducts, getCampaign, listCampaigns, setSendState, type Campaign, type Environment } from '../db/repos/campaigns.ts';
import type { CampaignForOrder } from './order-body.ts';
import { listTrackedOrders, type TrackedOrder } from '../db/repos/recipients.ts';
import { addFindings, updateOrderStatus } from '../db/repos/recipient-transitions.ts';
import { expectationOf, mismatchDetail, mismatches, verifyOrder } from './verify-order.ts';
import { ORDER_PAGE_SIZE, type Order, type ServiceClient } from '../service/index.ts';
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
  /** Rows still waiting after the round. */
  waiting: number;
  /** Rows waiting on a recipient whose acceptance link has expired. */
  expired: number;
  /** Why the round stopped early, when it did (the next round starts over); stoppedMessage when asked to stop. */
  error?: string;
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
  /** Called for each row the round changed (state, statuses, expiry or findings), as it changes it. */
  onChanged?: (campaignId: string, rowId: number) => void;
}

export async function pollRound(deps: PollDeps, target: PollTarget, opts: PollRoundOptions = {}): Promise<PollRoundResult> {
  const { db, client, clock } = deps;
  const campaigns = targetCampaigns(db, target);
  const rows = listTrackedOrders(db, target);
  const result: PollRoundResult = { tracked: rows.length, requests: 0, settled: 0, waiting: rows.length, expired: 0 };
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
    if (page.kind !== 'ok') return { ...result, error: `${page.endpoint}: ${describe(page)}` };
    for (const order of page.value.orders) pending.set(order.id, order);
  }

  const left = new Set<number>();
  for (const row of rows) if (!pending.has(row.orderId)) left.add(row.orderId);
  const delivered = await deliveredFromList(client, left, opts);
  result.requests += delivered.requests;
  if (opts.signal?.aborted) return stopped();

  // Rows whose answer is already in hand are written in one transaction per run (one commit instead
  // of one per row: a wave of deliveries no longer holds the thread for a sync to disk per row),
  // and a run is written before every await, so a stop never finds one half-applied.
  const known: [TrackedOrder, Order][] = [];
  const apply = (): void => {
    if (known.length === 0) return;
    const changedRows: TrackedOrder[] = [];
    db.transaction(() => {
      for (const [row, order] of known) if (applyPolled(row, order)) changedRows.push(row);
    })();
    known.length = 0;
    for (const row of changedRows) opts.onChanged?.(row.campaignId, row.id);
  };
  /** Records what the service said of one row; whether the row changed (its state, statuses, expiry or findings). */
  const applyPolled = (row: TrackedOrder, order: Order): boolean => {
    checked += 1;
    const flagged = checkPolled(db, campaigns.get(row.campaignId), row, order, clock.now());
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
        clock.now(),
      );
    }
    if (isSettled(state)) result.settled += 1;
    // The expiry the row keeps: the one just read, else the one it had (an unreadable one is not stored).
    else if (isAcceptanceExpired({ state, acceptanceExpiry: expiry === null || Number.isNaN(expiry) ? row.acceptanceExpiry : expiry }, clock.now())) result.expired += 1;
    return changed || flagged;
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
    const order = pending.get(row.orderId) ?? delivered.found.get(row.orderId);
    if (order) {
      known.push([row, order]);
      continue;
    }
    // It left the PENDING list and was not seen delivered: cancelled, delivered after the list was
    // read, or something the spec does not show.
    apply();
    const fetched = await client.getOrder(row.orderId, opts);
    result.requests += 1;
    if (fetched.kind !== 'ok') {
      if (opts.signal?.aborted) return stopped();
      result.error = `${fetched.endpoint}: ${describe(fetched)}`;
      continue;
    }
    known.push([row, fetched.value]);
  }
  apply();
  result.waiting = rows.length - result.settled;
  return result;
}

/** Fewest rows gone from the PENDING list for the COMPLETED list to be worth a look: below it, the
 * one-by-one fetches take a couple of seconds at a sandbox's rate, and a page may carry 500 orders. */
export const LIST_PASS_FROM = 10;
/** A page of the COMPLETED list that finds fewer of the wanted orders than this ends the walk. */
const MIN_FOUND_PER_PAGE = 2;
/** No walk reads more pages than this (100,000 orders at 500 a page). */
const MAX_WALK = 200;

/**
 * Orders that left the PENDING list are mostly delivered: the COMPLETED list holds 500 of them to a
 * request. Which end of the list holds the newest is "not shown", so the walk reads the first page
 * and goes forward while pages find wanted orders; when the first finds too few and the page
 * object's `result_size` (the filtered count) shows more pages, it reads from the last page back.
 * Each walk ends at the first page that finds fewer than MIN_FOUND_PER_PAGE (saving at most one
 * fetch for its one request), at a short page, or when all are found; so the pass costs at most one
 * or two requests more than it saves, and an account's long history is never read through. A
 * failed page ends it quietly: what it did not find is fetched one by one, as before. Every order
 * found is checked as any answer is (checkPolled), whatever list it came in.
 */
async function deliveredFromList(
  client: ServiceClient,
  wanted: ReadonlySet<number>,
  opts: PollRoundOptions,
): Promise<{ found: Map<number, Order>; requests: number }> {
  const found = new Map<number, Order>();
  let requests = 0;
  if (wanted.size < LIST_PASS_FROM) return { found, requests };
  /** Reads one page: how many wanted orders it found, whether it was full, and the list's page count when the service tells it. */
  const look = async (page: number): Promise<{ hits: number; full: boolean; pages: number | undefined } | null> => {
    if (opts.signal?.aborted) return null;
    const outcome = await client.listOrders({ itemStatus: 'COMPLETED', page, elementSize: ORDER_PAGE_SIZE }, opts);
    requests += 1;
    if (outcome.kind !== 'ok') return null;
    let hits = 0;
    for (const order of outcome.value.orders) {
      if (wanted.has(order.id) && !found.has(order.id)) {
        found.set(order.id, order);
        hits += 1;
      }
    }
    const resultSize = outcome.value.page?.resultSize;
    return { hits, full: outcome.value.rowCount >= ORDER_PAGE_SIZE, pages: resultSize === undefined ? undefined : Math.ceil(resultSize / ORDER_PAGE_SIZE) };
  };
  const worthIt = (seen: { hits: number }): boolean => seen.hits >= MIN_FOUND_PER_PAGE && found.size < wanted.size;
  const first = await look(0);
  if (first === null) return { found, requests };
  if (worthIt(first)) {
    // Forward, while pages are full and keep finding ours.
    for (let page = 1, seen = first; page <= MAX_WALK && seen.full; page += 1) {
      const next = await look(page);
      if (next === null || !worthIt(next)) break;
      seen = next;
    }
  } else if (found.size < wanted.size && first.pages !== undefined && first.pages > 1) {
    // The first page is the old end of a longer history: the newest may be at the other end.
    for (let page = first.pages - 1; page >= 1 && first.pages - page <= MAX_WALK; page -= 1) {
      const seen = await look(page);
      if (seen === null || !worthIt(seen)) break;
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
  const findings = verifyOrder(expectationOf(campaign, row.requestBody), order);
  if (findings.length === 0 || !addFindings(db, row.id, findings, now)) return false;
  if (mismatches(findings).length > 0 && getCampaign(db, campaign.id)?.sendState === 'sending') {
    setSendState(db, campaign.id, { from: 'sending', to: 'paused', reason: 'mismatch', detail: mismatchDetail(row.line, order.id, findings) }, now);
  }
  return true;
}

/** Why a round stopped when asked to (Ctrl-C in `giftbatch poll`, the app closing): how far it got. */
export function stoppedMessage(checked: number, tracked: number): string {
  return `stopped on request after checking ${checked} of ${tracked} order${tracked === 1 ? '' : 's'} (the rest keep their last known state)`;
}

function describe(outcome: { kind: string; message?: string }): string {
  return outcome.message ?? outcome.kind;
}
