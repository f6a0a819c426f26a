// An order answer that does not state the item's price (a service that issues asynchronously may
// fill order_item.price and the charge in later; the spec shows order_item in the POST answer but
// does not say it is complete) contradicts nothing yet: the row is recorded as ordered, and the
// price is confirmed from the order's own record (GET /v1/orders/{id}) before the product's next
// order goes (send rule 6: the first order goes alone to be checked). The record's charge is filled
// in. A record that still lacks the price after a bounded wait, or that states another price,
// pauses the run: what was issued is not known, or is not what was asked.

import type { Clock } from '../clock.ts';
import type { Db } from '../db/open.ts';
import { addFindings, completeOrderRecord } from '../db/repos/recipient-transitions.ts';
import type { Finding } from '../../../shared/domain/findings.ts';
import type { ServiceClient } from '../service/index.ts';
import { orderOutcomeOf, type CampaignForOrder } from './order-body.ts';
import { expectationOf, isUnstatedPrice, mismatchDetail, mismatches, verifyOrder } from './verify-order.ts';

/** Reads of the order's record, this long after the answer and after each other: about a minute in all. */
export const PRICE_WAITS_MS: readonly number[] = [2_000, 5_000, 10_000, 20_000, 30_000];

export type PriceConfirmation =
  /** The record states the price asked; its charge is on the row. */
  | { readonly kind: 'confirmed' }
  /** The record states something else (or still no price after the waits): the run pauses with `detail`. */
  | { readonly kind: 'pause'; readonly detail: string }
  /** A stop was asked while waiting: the row stays ordered as answered, its product unchecked. */
  | { readonly kind: 'stopped' };

export interface PriceToConfirm {
  readonly db: Db;
  readonly client: ServiceClient;
  readonly clock: Clock;
  readonly campaign: CampaignForOrder;
  readonly rowId: number;
  readonly line: number;
  readonly orderId: number;
  /** The bytes that were POSTed: what the row asked. */
  readonly requestBody: string;
  /** The answer's finding that it states no price: flagged on the row if the record never states one either. */
  readonly unstated: Finding;
  readonly waitsMs?: readonly number[];
  /** Settles when a stop is asked; `stopped()` says whether one was. */
  readonly stopAsked: Promise<void>;
  readonly stopped: () => boolean;
}

export async function confirmPrice(p: PriceToConfirm): Promise<PriceConfirmation> {
  const expected = expectationOf(p.campaign, p.requestBody);
  const waits = p.waitsMs ?? PRICE_WAITS_MS;
  let waited = 0;
  let lastProblem: string | null = null;
  for (const wait of waits) {
    await Promise.race([p.clock.sleep(wait), p.stopAsked]);
    if (p.stopped()) return { kind: 'stopped' };
    waited += wait;
    const read = await p.client.getOrder(p.orderId);
    if (read.kind !== 'ok') {
      // No clear answer this time (a 5xx, a timeout, a 429): read again after the next wait.
      lastProblem = read.message;
      continue;
    }
    const findings = verifyOrder(expected, read.value);
    const wrong = mismatches(findings);
    const now = p.clock.now();
    if (wrong.length > 0 && !wrong.every(isUnstatedPrice)) {
      // Another product, currency, amount or recipient: a mismatch as in any answer.
      completeOrderRecord(p.db, p.rowId, orderOutcomeOf(read.value, findings), now);
      addFindings(p.db, p.rowId, findings, now);
      return { kind: 'pause', detail: mismatchDetail(p.line, p.orderId, findings) };
    }
    if (read.value.item.price === undefined) {
      lastProblem = null;
      continue;
    }
    completeOrderRecord(p.db, p.rowId, orderOutcomeOf(read.value, findings), now);
    if (findings.length > 0) addFindings(p.db, p.rowId, findings, now);
    return { kind: 'confirmed' };
  }
  addFindings(p.db, p.rowId, [p.unstated], p.clock.now());
  const asked = p.unstated.asked ?? 'the';
  const seconds = Math.round(waited / 1000);
  return {
    kind: 'pause',
    detail:
      `Line ${p.line}, order ${p.orderId}: the service has not stated what it issued for a ${asked} gift ` +
      `(no order_item.price in its answer, nor in the order's record ${seconds} s later${lastProblem ? `; last read: ${lastProblem}` : ''}). ` +
      'Sending paused so no more gifts of this product go out unchecked; the row is recorded as ordered and flagged. ' +
      "Check the order's price with the service before you resume (the next order then goes alone and is checked again).",
  };
}
