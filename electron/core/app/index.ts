// The contract's handlers on the engine, and the runtime behind them, for every shell.
export { createAppService, defaultSampleCsvPath, type AppService, type AppServiceOptions, type Listener } from './service.ts';
export { dispatch, isCallName, type Handlers, type HandlerInput, type DispatchOptions } from './dispatch.ts';
export { AppError, classifyError, createRedactor, type AppLog, type CallError, type Redactor } from './errors.ts';
export { markInterrupted } from './send-runs.ts';
