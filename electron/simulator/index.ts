// The built-in gift service simulator: the "Simulator" environment and the service every test
// talks to. Pure Node; never imports 'electron'.

export { createSimulator, DEFAULT_ACCOUNT, DEFAULT_ITEM_DELAY_MS, DEFAULT_RECIPIENT_EXPIRY_MS } from './server.ts';
export type { Simulator } from './server.ts';
export { startEmbeddedSimulator } from './embedded.ts';
export type { EmbeddedSimulator, EmbeddedSimulatorOptions } from './embedded.ts';
export { LEGACY_STATE_VERSION, STATE_VERSION } from './state-codec.ts';
export { ACCOUNT_HASH_PREFIX, accountIdOf, hiddenKeyLabel } from './account-id.ts';
export {
  CATALOG, CROSS_CURRENCY_FEE_RATE, SUPPORTED_CURRENCIES,
  exchangeRate, productBySlug, productIdFor, productIdOffset,
} from './catalog.ts';
export type { Availability, CatalogProduct, CatalogSlug } from './catalog.ts';
export { decToString } from './decimal.ts';
export { quote } from './pricing.ts';
export type { Quote } from './pricing.ts';
export { mulberry32, DEFAULT_FAULTS } from './faults.ts';
export { DEFAULT_DIALECT, DIALECT_NAMES, DIALECTS, parseDialect, resolveDialect } from './dialects.ts';
export type { DialectName } from './dialects.ts';
export { parseSimulatorArgs, simulatorUsage, SimulatorArgsError } from './cli-args.ts';
export type { ParsedSimulatorArgs } from './cli-args.ts';
export { runSimulatorCli } from './cli.ts';
export type { SimulatorCliIo } from './cli.ts';
export type { AuditAccount, AuditAmount, AuditOrder, AuditReport } from './audit.ts';
export { MAX_EXTERNAL_REFERENCE_LENGTH } from './order-request.ts';
export { ORDERS_MAX_SIZE, PRODUCTS_DEFAULT_SIZE, PRODUCTS_MAX_SIZE } from './routes-v1.ts';
export { SimulatorError, FAULT_KINDS, ITEM_STATUSES, ORDER_STATUSES } from './types.ts';
export type {
  AccountInit, Dialect, FaultKind, FaultSettings, ItemStatus, OrderStatus, SimulatorOptions,
} from './types.ts';
