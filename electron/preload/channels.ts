// The contract's call and event names, as plain strings. The sandboxed preload must be one
// self-contained CommonJS file, and importing shared/contract.ts would pull zod into it; a static
// test (test/unit/main/preload.test.ts) checks that these lists equal the contract's names.
export const CALL_NAMES = [
  'app:info',
  'app:sampleCsv',
  'app:template',
  'app:dismissWelcome',
  'environments:list',
  'environments:select',
  'environments:update',
  'environments:setKey',
  'environments:clearKey',
  'environments:test',
  'environments:checkNow',
  'products:list',
  'products:availability',
  'campaigns:previewImport',
  'campaigns:create',
  'campaigns:stopCreate',
  'campaigns:list',
  'campaigns:get',
  'campaigns:rows',
  'campaigns:preflight',
  'campaigns:send',
  'campaigns:pause',
  'campaigns:retryFailed',
  'campaigns:revalidate',
  'campaigns:checkNow',
  'campaigns:timeline',
  'campaigns:report',
  'campaigns:followUp',
  'rows:edit',
  'rows:skip',
  'rows:unskip',
  'rows:retry',
] as const;

export const EVENT_NAMES = ['campaign:progress', 'campaign:finished', 'campaigns:createProgress'] as const;
