export { createServiceClient } from './client.ts';
export type {
  CallOptions,
  OrderFilter,
  OrderListQuery,
  OrderLookup,
  ProductQuery,
  ServiceClient,
  ServiceClientOptions,
} from './client.ts';
export type { AttemptEvent } from './http.ts';
export { serializeOrderRequest } from './order-request.ts';
export { parseRetryAfter, extractServiceError, mayStillBeRunning } from './outcome.ts';
export type { Ambiguous, AmbiguousReason, AuthFailed, Failure, Ok, Outcome, RateLimited, Rejected } from './outcome.ts';
export { ORDER_PAGE_SIZE, findList, readPageInfo } from './paging.ts';
export { createRateLimiter } from './rate-limiter.ts';
export type { RateLimiter, RateLimiterOptions, RateLimiterStats } from './rate-limiter.ts';
export { parseAvailability, parseOrder, parseProduct, productCurrency } from './schemas.ts';
export type * from './types.ts';
