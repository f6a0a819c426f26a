// The engine's records as the contract's DTOs: money as decimal strings with their currency,
// nulls instead of undefined, never a key or a request body.
import type { CallOutput, MoneyDto, ProductDto, RowDto } from '../../../shared/contract.ts';
import { isAcceptanceExpired } from '../../../shared/domain/acceptance.ts';
import { toDecimal, type Money } from '../../../shared/domain/money.ts';
import { unorderableReason } from '../campaigns/products.ts';
import type { PollRoundResult } from '../campaigns/poller.ts';
import type { Recipient } from '../db/repos/recipients.ts';
import { productIdOf, type Campaign, type ProductSnapshot } from '../db/repos/campaigns.ts';
import { sentMessageOf } from '../campaigns/order-body.ts';
import { chargedAmountOf } from '../campaigns/report.ts';
import type { Product } from '../service/index.ts';

export function moneyDto(money: Money): MoneyDto {
  return { currency: money.currency, amount: toDecimal(money) };
}

export function productDto(product: Product): ProductDto {
  return {
    id: product.id,
    name: product.name ?? null,
    brand: product.brand ?? null,
    countryCode: product.countryCode ?? null,
    currency: product.currency,
    currencySource: product.currencySource,
    availability: product.availability,
    deliveryMethods: [...product.deliveryMethods],
    price:
      product.price.kind === 'fixed'
        ? { kind: 'fixed', amount: moneyDto(product.price.amount) }
        : { kind: 'range', min: moneyDto(product.price.min), max: moneyDto(product.price.max) },
    unorderableReason: unorderableReason(product),
  };
}

/** What the row's order says (its frozen body, once it has one), else its message filled in now. */
function sentMessageText(r: Recipient, campaign: Pick<Campaign, 'message'>): string | null {
  if (r.requestBody !== null) return messageInBody(r.requestBody);
  const filled = sentMessageOf(campaign, r);
  return filled.ok ? filled.text : null;
}

function messageInBody(body: string): string | null {
  try {
    const parsed: unknown = JSON.parse(body);
    const message = typeof parsed === 'object' && parsed !== null ? (parsed as { message?: unknown }).message : undefined;
    return typeof message === 'string' ? message : null;
  } catch {
    return null;
  }
}

function issues(list: readonly { field?: string | undefined; message: string }[]): RowDto['errors'] {
  return list.map((i) => (i.field ? { field: i.field, message: i.message } : { message: i.message }));
}

/** `campaign`: the row's campaign (whose message a row without its own sends), with the products its rows are ordered as. */
export function rowDto(r: Recipient, now: number, campaign: Pick<Campaign, 'message' | 'productId'> & { readonly products: ReadonlyMap<number, ProductSnapshot> }): RowDto {
  const productId = productIdOf(campaign, r);
  return {
    id: r.id,
    line: r.line,
    name: r.name,
    email: r.email,
    amount: r.amountMinor != null && r.currency ? moneyDto({ minor: r.amountMinor, currency: r.currency }) : null,
    amountText: r.amountMinor != null ? null : r.amountText,
    message: r.message,
    sentMessage: sentMessageText(r, campaign),
    cells: r.source ? { ...r.source } : null,
    state: r.state,
    skippedBy: r.skippedBy,
    productId,
    productName: campaign.products.get(productId)?.name ?? null,
    orderId: r.orderId,
    orderStatus: r.orderStatus,
    itemId: r.itemId,
    itemStatus: r.itemStatus,
    charged: chargedAmountOf(r),
    issued: r.issued ? { currency: r.issued.currency, amount: r.issued.text } : null,
    findings: r.findings,
    exchangeRate: r.exchangeRate?.rate ?? null,
    feeRate: r.feeRate,
    externalReferenceId: r.externalReferenceId,
    attempts: r.attempts,
    lastError: r.lastError,
    errors: issues(r.errors),
    warnings: issues(r.warnings),
    sentAt: r.sentAt,
    deliveredAt: r.deliveredAt,
    acceptanceExpiry: r.acceptanceExpiry,
    acceptanceExpired: isAcceptanceExpired(r, now),
    heldAt: r.state === 'sending' ? r.heldAt : null,
  };
}

/** A poll round as the contract says it; `nextCheckInMs` from the schedule, null when nothing waits. */
export function pollRoundDto(round: PollRoundResult, nextCheckInMs: number | null): CallOutput<'campaigns:checkNow'> {
  return {
    tracked: round.tracked,
    requests: round.requests,
    settled: round.settled,
    delivered: round.delivered,
    cancelled: round.cancelled,
    waiting: round.waiting,
    expired: round.expired,
    error: round.error ?? null,
    nextCheckInMs: nextCheckInMs === null ? null : Math.round(nextCheckInMs),
    ...(round.serviceFailed ? { serviceFailed: true } : {}),
  };
}
