// The POST body is built once, stored with the row, and re-sent byte for byte on every retry under
// the row's one external_reference_id, so its bytes must depend on nothing but the request.

import { toNumber } from '../../../shared/domain/money.ts';
import type { OrderRequest } from './types.ts';

/**
 * The JSON body of POST /v1/orders, keys always in the same order. `custom_amount` sits at the
 * top level, where the spec's table puts it, and is sent only for range-priced products.
 */
export function serializeOrderRequest(request: OrderRequest): string {
  if (!Number.isSafeInteger(request.productId) || request.productId < 0) {
    throw new RangeError(`The product id must be a whole number (got ${request.productId}).`);
  }
  if (request.externalReferenceId.trim() === '') {
    // Without the key a retry could create a second order: never send an order without one.
    throw new RangeError('An order needs its external_reference_id before it can be sent.');
  }
  const body: Record<string, unknown> = { item: { id: request.productId } };
  if (request.customAmount !== undefined) body.custom_amount = toNumber(request.customAmount);
  body.delivery = {
    method: request.deliveryMethod ?? 'EMAIL',
    recipient: { name: request.recipient.name, email: request.recipient.email },
    sender: { name: request.sender.name },
  };
  if (request.message !== undefined) body.message = request.message;
  body.external_reference_id = request.externalReferenceId;
  return JSON.stringify(body);
}
