// Test-only control endpoints under /__control, mirroring the code API, so a test that runs the
// simulator in another process (the CLI) can steer it the same way.

import { z } from 'zod';
import { parseJsonBody, type Reply } from './http-util.ts';
import {
  ApiError, FAULT_KINDS, ITEM_STATUSES, ORDER_STATUSES, SimulatorError,
  type AccountInit, type FaultSettings, type ItemStatus, type OrderStatus,
} from './types.ts';

export interface ControlTarget {
  acceptRecipient(key: string, orderId: number): unknown;
  forceStatus(key: string, orderId: number, change: { orderStatus?: OrderStatus; itemStatus?: ItemStatus }): unknown;
  setAccount(key: string, change: Partial<AccountInit>): unknown;
  setFaults(partial: Partial<FaultSettings>): FaultSettings;
  faults(): FaultSettings;
}

const KeyOrder = z.object({ key: z.string().min(1), orderId: z.number().int() });
const ForceStatus = KeyOrder.extend({
  orderStatus: z.enum(ORDER_STATUSES as [OrderStatus, ...OrderStatus[]]).optional(),
  itemStatus: z.enum(ITEM_STATUSES as [ItemStatus, ...ItemStatus[]]).optional(),
});
const SetAccount = z.object({ key: z.string().min(1), currency: z.string().optional(), balance: z.string().optional() });
const probability = z.number().min(0).max(1).optional();
const Faults = z.strictObject({
  seed: z.number().int().optional(),
  slowMs: z.number().min(0).optional(),
  faultRoutes: z.enum(['post', 'all', 'reads']).optional(),
  ...Object.fromEntries(FAULT_KINDS.map((k) => [k, probability])),
});

export const CONTROL_ROUTES = [
  'POST /__control/accept {key, orderId}',
  'POST /__control/force-status {key, orderId, orderStatus?, itemStatus?}',
  'POST /__control/account {key, currency?, balance?}',
  'GET|POST /__control/faults {seed?, resetAfterCommit?, error500BeforeCommit?, error503?, slow?, truncate?, error503AfterCommit?, gatewayTimeoutWhileProcessing?, slowMs?, faultRoutes?}',
];

export function handleControl(target: ControlTarget, method: string, path: string, bodyText: string): Reply {
  try {
    const parse = <T>(schema: z.ZodType<T>): T => {
      const result = schema.safeParse(parseJsonBody(bodyText));
      if (!result.success) {
        const issue = result.error.issues[0];
        throw new ApiError(400, 'BAD_REQUEST', `${issue?.path.map(String).join('.') || 'body'}: ${issue?.message ?? 'invalid'}`);
      }
      return result.data;
    };
    if (path === '/__control/faults' && method === 'GET') return ok({ faults: target.faults() });
    if (method !== 'POST') throw notFound(method, path);
    switch (path) {
      case '/__control/accept': {
        const b = parse(KeyOrder);
        target.acceptRecipient(b.key, b.orderId);
        return ok({ accepted: b.orderId });
      }
      case '/__control/force-status': {
        const b = parse(ForceStatus);
        target.forceStatus(b.key, b.orderId, {
          ...(b.orderStatus ? { orderStatus: b.orderStatus } : {}),
          ...(b.itemStatus ? { itemStatus: b.itemStatus } : {}),
        });
        return ok({ forced: b.orderId });
      }
      case '/__control/account': {
        const b = parse(SetAccount);
        target.setAccount(b.key, {
          ...(b.currency !== undefined ? { currency: b.currency } : {}),
          ...(b.balance !== undefined ? { balance: b.balance } : {}),
        });
        return ok({ updated: true });
      }
      case '/__control/faults': {
        const b = parse(Faults) as Partial<FaultSettings>;
        return ok({ faults: target.setFaults(b) });
      }
      default:
        throw notFound(method, path);
    }
  } catch (err) {
    if (err instanceof SimulatorError) throw new ApiError(409, 'CONTROL_REFUSED', err.message);
    throw err;
  }
}

function ok(body: unknown): Reply {
  return { status: 200, body };
}

function notFound(method: string, path: string): ApiError {
  return new ApiError(404, 'NOT_FOUND', `no control route ${method} ${path}; routes: ${CONTROL_ROUTES.join('; ')}`);
}
