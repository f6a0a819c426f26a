// Reconciliation at the start of every run (docs/architecture.md, "Sending", step 3): a row in
// `sending` may have an order at the service that we never recorded (the process died between the
// POST and its commit). Before anything new is sent, each such row is looked up by its key. Found:
// recorded. Not found: left `sending`, due now, so the send queue re-POSTs its frozen bytes under
// the same key (never a new key: an empty lookup proves nothing about a request still on the wire).
// No clear answer: left as it is; the re-POST is safe anyway, because the key makes it idempotent.

import { recordOrderStep, RESEND_UNCONFIRMED_STEP } from '../../../shared/domain/campaigns.ts';
import type { Finding } from '../../../shared/domain/findings.ts';
import { systemClock, type Clock } from '../clock.ts';
import type { Db } from '../db/open.ts';
import { getCampaign, getCampaignForOrders, type Campaign, type Environment } from '../db/repos/campaigns.ts';

type CampaignWithProducts = NonNullable<ReturnType<typeof getCampaignForOrders>>;
import { appendEvent } from '../db/repos/events.ts';
import { holdRow, markOrdered, recordAttemptError } from '../db/repos/recipient-transitions.ts';
import { listSendingRows, newestOrderRecordedBy, type OrderWitness, type Recipient } from '../db/repos/recipients.ts';
import type { AuthFailed, OrderLookup, Outcome, ServiceClient } from '../service/index.ts';
import { orderOutcomeOf } from './order-body.ts';
import { entryAgrees, expectationOf, isUnstatedPrice, mismatchDetail, mismatches, onlyPriceUnstated, verifyOrder, withoutUnstatedPrice } from './verify-order.ts';
import type { CampaignForOrder } from './order-body.ts';

export type ReconcileScope = { readonly campaignId: string } | { readonly environment: Environment };

export interface ReconcileOptions {
  readonly clock?: Clock;
  /** Lookups in flight at once (default 4). */
  readonly concurrency?: number;
  /** Stops starting lookups; a lookup already out is cancelled (it is only a read). */
  readonly signal?: AbortSignal;
  /** How often one row's lookup waits out a 429 before it is left for the queue (default 3). */
  readonly maxRateLimitedRetries?: number;
  /**
   * 'due' (the default, a run's reconciliation): a row with no order under its key is noted and made
   * due now, for the queue to re-POST. 'leave': it is left exactly as it was (a paused run's lookup;
   * the next resume reconciles it again).
   */
  readonly notFound?: 'due' | 'leave';
  /** How far the order list is seen to reach back (shared with the run that reconciles); a new one otherwise. */
  readonly reach?: ListReach;
}

export type ReconciledResult =
  /** Its order was found under its key and recorded. */
  | 'ordered'
  /** No order under its key: the queue sends the same bytes again, under the same key. */
  | 'not-found'
  /** The lookup had no clear answer; the row is left as it was (looked up again before any re-POST). */
  | 'unknown'
  /** No order under its key, but the list is not seen to reach back to its first send (ListReach): a person decides. */
  | 'unconfirmed'
  /** Someone else settled the row meanwhile. */
  | 'settled';

export interface ReconciledRow {
  readonly rowId: number;
  readonly campaignId: string;
  readonly line: number;
  readonly externalReferenceId: string;
  readonly result: ReconciledResult;
  readonly orderId?: number;
  /** Further orders under the same key: money charged twice. Must never happen; shown loudly. */
  readonly duplicateOrderIds?: readonly number[];
  /** Why the lookup gave no clear answer, or how the order found disagrees with the row. */
  readonly detail?: string;
  /** The order found disagrees with what the row asked: recorded as the service stated it, flagged. */
  readonly mismatch?: boolean;
  /**
   * The order found leaves out only the item's price (and the charge), as a service that issues
   * asynchronously may for a while, and contradicts nothing: recorded as ordered, as a POST's answer
   * would be. Its price is to be confirmed from the order's own record (confirm-price.ts) before its
   * product's next order: a run's send queue does it; otherwise a poll fills the charge in later.
   */
  readonly priceUnstated?: { readonly unstated: Finding; readonly requestBody: string };
}

export interface ReconcileResult {
  readonly checked: number;
  readonly ordered: number;
  readonly notFound: number;
  readonly unknown: number;
  /** Rows whose empty lookup proves nothing (ListReach): neither sent again nor failed until a person decides. */
  readonly unconfirmed: number;
  /** Rows whose key has more than one order at the service. */
  readonly duplicates: number;
  /** Rows whose order, found by key, disagrees with what the row asked (flagged; the run must not go on). */
  readonly mismatched: readonly ReconciledRow[];
  /** Set when the service refused the API key: reconciliation stopped there. */
  readonly auth: AuthFailed | null;
  readonly rows: readonly ReconciledRow[];
}

/** The longest one Retry-After is waited out here (a service may ask for hours). */
const MAX_RETRY_AFTER_WAIT_MS = 60_000;

function sleepUnlessAborted(clock: Clock, ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return clock.sleep(ms);
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    void clock.sleep(ms).then(done);
  });
}

export const NOT_FOUND_NOTE =
  'No order exists under this row\'s key at the service yet: the same request will be sent again, unchanged, under the same key.';

export async function reconcile(
  db: Db,
  client: ServiceClient,
  scope: ReconcileScope,
  opts: ReconcileOptions = {},
): Promise<ReconcileResult> {
  const clock = opts.clock ?? systemClock;
  const reach = opts.reach ?? new ListReach(db, client, clock);
  const rows = listSendingRows(db, 'campaignId' in scope ? { campaignId: scope.campaignId } : { environment: scope.environment });
  const results: ReconciledRow[] = [];
  let auth: AuthFailed | null = null;
  const campaigns = new Map<string, CampaignWithProducts | null>();
  const campaignOf = (id: string): CampaignWithProducts | null => {
    if (!campaigns.has(id)) campaigns.set(id, getCampaignForOrders(db, id));
    return campaigns.get(id) ?? null;
  };
  let next = 0;

  const worker = async (): Promise<void> => {
    while (auth === null && !opts.signal?.aborted) {
      const row = rows[next++];
      if (!row) return;
      const result = await reconcileRow(db, client, reach, row, campaignOf(row.campaignId), clock, opts);
      if ('auth' in result) auth = result.auth;
      else results.push(result);
    }
  };
  const workers = Math.max(1, Math.min(opts.concurrency ?? 4, rows.length));
  await Promise.all(Array.from({ length: workers }, worker));

  results.sort((a, b) => a.rowId - b.rowId);
  const count = (r: ReconciledResult) => results.filter((x) => x.result === r).length;
  return {
    checked: results.length,
    ordered: count('ordered'),
    notFound: count('not-found'),
    unconfirmed: count('unconfirmed'),
    // Rows never looked up (stopped by a refused key or the signal) are as unknown as any.
    unknown: count('unknown') + rows.length - results.length,
    duplicates: results.filter((r) => (r.duplicateOrderIds?.length ?? 0) > 0).length,
    mismatched: results.filter((r) => r.mismatch === true),
    auth,
    rows: results,
  };
}

/**
 * An empty lookup by key that proves nothing: the order list is not seen to reach back to when the
 * row was first sent (ListReach). The row must be neither sent again nor failed on it: a person
 * decides, having looked the key up at the service.
 */
export interface Unconfirmed {
  readonly kind: 'unconfirmed';
  readonly detail: string;
}

/** A row's lookup by key: the service's answer, or an empty answer that proves nothing. */
export type KeyLookup = Outcome<OrderLookup> | Unconfirmed;

/** The row whose key is looked up: its key, its campaign, the bytes it POSTed, when it was first sent. */
export interface LookedUpRow {
  readonly line: number;
  readonly externalReferenceId: string;
  readonly requestBody: string | null;
  readonly sentAt: number | null;
}

/**
 * The order under a row's key, as the evidence to record. It is looked up in the list by key; the
 * list's entry stands for the order only when it agrees with the row's request (entryAgrees), else
 * the order's own record is asked for (GET /v1/orders/{id}): a list's entries are "not shown", and
 * one that leaves out what was issued and charged would record a gift without its charge. An empty
 * answer counts as "no order" only where the list is seen to reach back to the row's first send.
 */
export async function lookUpOrder(
  client: ServiceClient,
  reach: ListReach,
  row: LookedUpRow,
  campaign: (CampaignForOrder & Pick<Campaign, 'environment' | 'baseUrl'>) | null | undefined,
  opts: { signal?: AbortSignal } = {},
): Promise<KeyLookup> {
  const lookup = await client.findOrderByReference(row.externalReferenceId, opts);
  if (lookup.kind === 'ok' && lookup.value.order === null) {
    const shown = await reach.shows(campaign, row, opts);
    return shown.kind === 'ok' ? (shown.value === true ? lookup : { kind: 'unconfirmed', detail: shown.value }) : shown;
  }
  if (lookup.kind !== 'ok' || lookup.value.order === null || entryAgrees(campaign, row.requestBody, lookup.value.order)) return lookup;
  const own = await client.getOrder(lookup.value.order.id, opts);
  return own.kind === 'ok' ? { ...own, value: { order: own.value, duplicates: lookup.value.duplicates } } : own;
}

/**
 * Rows first sent this recently are taken at the list's word without a witness: a service whose
 * order list leaves out the last hour's orders would not be a list anyone could reconcile with (a
 * list that lags by seconds is handled where it matters: a rejection is looked up twice). And a
 * wrong empty answer here would still cost nothing unless the service also forgot the key within
 * the hour: the row goes again with the same bytes under the same key, answered with its first order.
 */
export const LIST_TRUSTED_WITHIN_MS = 3_600_000;

const when = (ms: number): string => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * How far back the service's order list reaches, as evidence for an empty lookup by key. The list has
 * a date range whose parameter names are "not shown" (the spec, section 4): a service whose list shows
 * only recent orders unless given one answers the lookup of an older key with a clear, wrong "none",
 * and if it has forgotten that key too (section 8), the same bytes POSTed again are a second order,
 * charged again. So for a row first sent over LIST_TRUSTED_WITHIN_MS ago, an empty lookup counts only
 * once the list is seen to show a witness: the order of this service recorded here last at or before
 * the row's first send (so made before any order of the row's), looked up by its own key. Not the one
 * POSTed last before it: that order may have been made much later, at a resume, and a list that shows
 * it may not reach back to the row. One lookup answers for every row sent since its witness was
 * recorded; one per run is the usual cost, and only when a lookup came back empty.
 */
export class ListReach {
  /** The earliest time a witness the list showed was recorded as ordered: it reaches back at least that far. */
  private shownSince: number | null = null;
  /** Witnesses the list clearly left out, by key: the reason to give. */
  private readonly missing = new Map<string, string>();
  /** Campaigns whose recorded account is not the key's (their orders are not in this account's list). */
  private readonly otherAccount = new Map<string, boolean>();

  /**
   * `accountFingerprint`: the key's (Connection.accountFingerprint). Given, a witness is taken only
   * from a campaign sent under this key (or one that recorded none): on an address several accounts
   * use (one production address for every account), another account's order is never in this key's
   * list, and taking it would hold rows for nothing. The fingerprint is of the key, not the account:
   * after a key change confirmed as the same account, older campaigns are passed over too, and a row
   * with no witness left is held for a person (the safe side).
   */
  constructor(
    private readonly db: Db,
    private readonly client: ServiceClient,
    private readonly clock: Clock,
    private readonly accountFingerprint?: (like: string) => string,
  ) {}

  /** The newest order of this service and account recorded at or before `at` (newestOrderRecordedBy). */
  private witnessBy(campaign: Pick<Campaign, 'environment' | 'baseUrl'>, at: number): OrderWitness | null {
    const skipped: string[] = [];
    for (;;) {
      const witness = newestOrderRecordedBy(this.db, { environment: campaign.environment, baseUrl: campaign.baseUrl }, at, skipped);
      if (witness === null || !this.ofAnotherAccount(witness.campaignId)) return witness;
      skipped.push(witness.campaignId);
    }
  }

  private ofAnotherAccount(campaignId: string): boolean {
    const fingerprint = this.accountFingerprint;
    if (fingerprint === undefined) return false;
    let other = this.otherAccount.get(campaignId);
    if (other === undefined) {
      const recorded = getCampaign(this.db, campaignId)?.accountFingerprint ?? null;
      other = recorded !== null && fingerprint(recorded) !== recorded;
      this.otherAccount.set(campaignId, other);
    }
    return other;
  }

  /**
   * ok true: the list reaches back to the row's first send, so an empty lookup means no order; ok
   * with a text: it is not seen to, and the text says why for the person who must look; otherwise
   * the witness's lookup had no clear answer.
   */
  async shows(
    campaign: Pick<Campaign, 'environment' | 'baseUrl'> | null | undefined,
    row: LookedUpRow,
    opts: { signal?: AbortSignal } = {},
  ): Promise<Outcome<true | string>> {
    const sentAt = row.sentAt ?? this.clock.now();
    const ok = (value: true | string): Outcome<true | string> => ({ kind: 'ok', value, status: 200, endpoint: 'GET /v1/orders' });
    if (this.clock.now() - sentAt < LIST_TRUSTED_WITHIN_MS || (this.shownSince !== null && this.shownSince <= sentAt)) return ok(true);
    const intro =
      `Line ${row.line}, first sent ${when(sentAt)}: Giftbatch cannot tell whether the service made this gift. ` +
      `Its order list shows none under the row's reference, but`;
    const after =
      'Sending it again could pay for a second gift. ' +
      `Look up the reference ${row.externalReferenceId} in the service's own records: if it has no order, ${RESEND_UNCONFIRMED_STEP}; ` +
      `if it has one, ${recordOrderStep(row.line)}.`;
    const witness = campaign ? this.witnessBy(campaign, sentAt) : null;
    if (!witness) {
      return ok(`${intro} no earlier order of this service is known to show how far back its list reaches (it may show only recent orders). ${after}`);
    }
    const known = this.missing.get(witness.externalReferenceId);
    if (known !== undefined) return ok(`${intro} ${known} ${after}`);
    const lookup = await this.client.findOrderByReference(witness.externalReferenceId, opts);
    if (lookup.kind !== 'ok') return lookup;
    if (lookup.value.order !== null) {
      this.shownSince = Math.min(this.shownSince ?? witness.orderedAt, witness.orderedAt);
      return ok(true);
    }
    const reason =
      `the list does not show order ${witness.orderId} either (line ${witness.line} of campaign ${witness.campaignId}, first sent ${when(witness.sentAt)}), ` +
      'which the service did make: it shows only recent orders.';
    this.missing.set(witness.externalReferenceId, reason);
    return ok(`${intro} ${reason} ${after}`);
  }
}

async function reconcileRow(
  db: Db,
  client: ServiceClient,
  reach: ListReach,
  row: Recipient,
  campaign: CampaignWithProducts | null,
  clock: Clock,
  opts: ReconcileOptions,
): Promise<ReconciledRow | { auth: AuthFailed }> {
  const base = { rowId: row.id, campaignId: row.campaignId, line: row.line, externalReferenceId: row.externalReferenceId };
  const maxWaits = opts.maxRateLimitedRetries ?? 3;
  for (let waits = 0; ; waits++) {
    const outcome = await lookUpOrder(client, reach, row, campaign, opts.signal ? { signal: opts.signal } : {});
    switch (outcome.kind) {
      case 'unconfirmed': {
        if (opts.notFound === 'leave') return { ...base, result: 'unconfirmed', detail: outcome.detail };
        // The row says why it waits (its Details), and is held: only a person moves it on.
        const now = clock.now();
        const applied = holdRow(db, row.id, outcome.detail, now);
        return { ...base, result: applied ? 'unconfirmed' : 'settled', detail: outcome.detail };
      }
      case 'ok': {
        const { order, duplicates } = outcome.value;
        const now = clock.now();
        if (!order) {
          if (opts.notFound === 'leave') return { ...base, result: 'not-found' };
          const applied = recordAttemptError(db, row.id, { error: NOT_FOUND_NOTE, nextAttemptAt: now }, now);
          return { ...base, result: applied ? 'not-found' : 'settled' };
        }
        const duplicateOrderIds = duplicates.map((d) => d.id);
        // Checked against the bytes that were POSTed, as a POST's answer is (a sending row keeps them).
        const findings = [
          ...(campaign && row.requestBody !== null ? verifyOrder(expectationOf(campaign, row.requestBody), order) : []),
          ...(duplicateOrderIds.length > 0 ? [duplicateOrdersFinding(order.id, duplicateOrderIds)] : []),
        ];
        // No item price stated yet and nothing contradicted: ordered, its price confirmed later (as a POST's answer is).
        const unstated = onlyPriceUnstated(findings) ? findings.find(isUnstatedPrice) : undefined;
        const recorded = unstated ? withoutUnstatedPrice(findings) : findings;
        const wrong = mismatches(recorded).length > 0;
        const applied = db.transaction(() => {
          if (duplicateOrderIds.length > 0) recordDuplicateOrders(db, row.campaignId, row, order.id, duplicateOrderIds, now);
          return markOrdered(db, row.id, orderOutcomeOf(order, recorded), now, 'reconciliation');
        })();
        return {
          ...base,
          result: applied ? 'ordered' : 'settled',
          orderId: order.id,
          ...(duplicateOrderIds.length > 0 ? { duplicateOrderIds } : {}),
          ...(applied && wrong ? { mismatch: true, detail: mismatchDetail(row.line, order.id, findings) } : {}),
          ...(applied && unstated && row.requestBody !== null ? { priceUnstated: { unstated, requestBody: row.requestBody } } : {}),
        };
      }
      case 'auth':
        return { auth: outcome };
      case 'rate-limited':
        // The client has paused the shared limiter; wait it out here too, a few times at most, never
        // longer than a minute at a time, and not past a Pause (the row is simply left for later).
        if (waits < maxWaits && !opts.signal?.aborted) {
          await sleepUnlessAborted(clock, Math.min(outcome.retryAfterMs ?? 1_000, MAX_RETRY_AFTER_WAIT_MS), opts.signal);
          if (opts.signal?.aborted) return { ...base, result: 'unknown', detail: outcome.message };
          continue;
        }
        return { ...base, result: 'unknown', detail: outcome.message };
      case 'rejected':
      case 'ambiguous':
        return { ...base, result: 'unknown', detail: outcome.message };
    }
  }
}

/**
 * Several orders under one row's key, found by a lookup by key (a run's reconciliation, or the send
 * queue's lookup before a re-POST): the campaign's alert event, with every order id and the words of
 * duplicateMessage, which it returns for the log.
 */
export function recordDuplicateOrders(
  db: Db,
  campaignId: string,
  row: Pick<Recipient, 'id' | 'line' | 'externalReferenceId'>,
  first: number,
  more: readonly number[],
  now: number,
): string {
  const message = duplicateMessage(row, first, more);
  appendEvent(
    db,
    {
      campaignId,
      recipientId: row.id,
      kind: 'reconciled',
      detail: { alert: 'duplicate-orders', externalReferenceId: row.externalReferenceId, orderIds: [first, ...more], message },
    },
    now,
  );
  return message;
}

/**
 * Several orders under one row's key, as a finding of the row: the row is flagged with them, and a
 * run that meets it pauses (the service did not keep the key's promise: more rows could be doubled).
 */
export function duplicateOrdersFinding(first: number, more: readonly number[]): Finding {
  const ids = [first, ...more].join(', ');
  return {
    kind: 'mismatch',
    field: 'key',
    asked: 'one order under its key',
    stated: `orders ${ids}`,
    message:
      `the service holds ${more.length + 1} orders under this row's key (orders ${ids}): only order ${first} is recorded for the row, ` +
      "the others were charged too; send these order ids to the service's support",
  };
}

/** Several orders under one row's key: which, which one the row records, and what to do (the run's log and the event say it alike). */
export function duplicateMessage(row: Pick<Recipient, 'line' | 'externalReferenceId'>, first: number, more: readonly number[]): string {
  return (
    `The service holds ${more.length + 1} orders under the key of the row on line ${row.line} ` +
    `(${row.externalReferenceId}): orders ${[first, ...more].join(', ')}. Only order ${first} is recorded for the row; ` +
    `the others were charged too. Send these order ids to the service's support.`
  );
}
