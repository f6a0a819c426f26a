// Polling (no webhooks exist): DESIGN.md "Polling". One round asks for the PENDING list, paged at
// 500 by the spec's rule, and fetches one by one only the local `ordered` rows that left it. So a
// round costs ceil(pending / 500) + (rows that changed) requests, not one per order.
import type { Clock } from '../clock.ts';
import type { Db } from '../db/open.ts';
import { listCampaigns, type Environment } from '../db/repos/campaigns.ts';
import { listUndeliveredOrders, type Recipient } from '../db/repos/recipients.ts';
import { updateOrderStatus } from '../db/repos/recipient-transitions.ts';
import type { Order, ServiceClient } from '../service/index.ts';
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
  /** Why the round stopped early, when it did (the next round starts over). */
  error?: string;
}

export interface PollDeps {
  db: Db;
  client: ServiceClient;
  clock: Clock;
}

/** Rows of the target with an order not yet settled. */
export function trackedRows(db: Db, target: PollTarget): Recipient[] {
  const campaigns = new Set(
    listCampaigns(db, { environment: target.environment })
      .filter((c) => c.baseUrl === target.baseUrl && (!target.campaignId || c.id === target.campaignId))
      .map((c) => c.id),
  );
  return listUndeliveredOrders(db, target.environment).filter((r) => campaigns.has(r.campaignId));
}

export async function pollRound(deps: PollDeps, target: PollTarget, opts: { signal?: AbortSignal } = {}): Promise<PollRoundResult> {
  const { db, client, clock } = deps;
  const rows = trackedRows(db, target);
  const result: PollRoundResult = { tracked: rows.length, requests: 0, settled: 0, waiting: rows.length, expired: 0 };
  if (rows.length === 0) return result;

  const pending = new Map<number, Order>();
  for await (const page of client.orderPages({ itemStatus: 'PENDING' }, opts)) {
    result.requests += 1;
    if (page.kind !== 'ok') return { ...result, error: `${page.endpoint}: ${describe(page)}` };
    for (const order of page.value.orders) pending.set(order.id, order);
  }

  for (const row of rows) {
    if (opts.signal?.aborted) break;
    if (row.orderId == null) continue;
    let order = pending.get(row.orderId);
    if (!order) {
      // It left the PENDING list: delivered, cancelled, or something the spec does not show.
      const fetched = await client.getOrder(row.orderId, opts);
      result.requests += 1;
      if (fetched.kind !== 'ok') {
        result.error = `${fetched.endpoint}: ${describe(fetched)}`;
        continue;
      }
      order = fetched.value;
    }
    const state = rowStateForOrder(order.status, order.item.status);
    const expiry = order.acceptanceExpiresAt ? Date.parse(order.acceptanceExpiresAt) : null;
    const changed =
      state !== 'ordered' ||
      order.status !== row.orderStatus ||
      order.item.status !== row.itemStatus ||
      (expiry !== null && expiry !== row.acceptanceExpiry);
    if (changed) {
      updateOrderStatus(
        db,
        row.id,
        { state, orderStatus: order.status, itemStatus: order.item.status, acceptanceExpiry: Number.isNaN(expiry) ? null : expiry },
        clock.now(),
      );
    }
    if (state !== 'ordered') result.settled += 1;
    else if ((expiry ?? row.acceptanceExpiry ?? Infinity) < clock.now()) result.expired += 1;
  }
  result.waiting = rows.length - result.settled;
  return result;
}

function describe(outcome: { kind: string; message?: string }): string {
  return outcome.message ?? outcome.kind;
}
