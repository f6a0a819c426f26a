// IPC (issue 5, Security): EVERY call of shared/contract.ts refuses a forged sender before the
// engine sees anything, and refuses malformed input before its handler runs — while a well-formed
// input from our own window does reach the handler (so the refusals are not vacuous).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import { contract, type CallInput, type CallName } from '../../../shared/contract.ts';
import { dispatch, type Handlers } from '../../../electron/core/app/dispatch.ts';
import { FORBIDDEN, guardedHandler, type FrameLike } from '../../../electron/main/ipc-guard.ts';

const indexFile = join('/opt', 'Giftbatch', 'resources', 'app.asar', 'out', 'renderer', 'index.html');
const location = { indexFile };
const mainFrame: FrameLike = { url: `${pathToFileURL(indexFile).href}#/campaigns` };
const NAMES = Object.keys(contract) as CallName[];

/** A well-formed input for every call; typed so a new call cannot be forgotten here. */
const VALID: { [C in CallName]: CallInput<C> } = {
  'app:info': {},
  'app:sampleCsv': {},
  'app:template': { format: 'xlsx' },
  'app:dismissWelcome': {},
  'environments:list': {},
  'environments:select': { environment: 'sandbox' },
  'environments:update': { environment: 'sandbox', baseUrl: 'https://sandbox.example', rate: 5 },
  'environments:setKey': { environment: 'sandbox', key: 'sk_test_0123456789' },
  'environments:clearKey': { environment: 'sandbox' },
  'environments:test': { environment: 'sandbox' },
  'environments:checkNow': { environment: 'sandbox' },
  'products:list': { environment: 'sandbox', country: 'US' },
  'products:availability': { environment: 'sandbox', productId: 1 },
  'campaigns:previewImport': { fileName: 'a.csv', bytesBase64: 'YQ==', environment: 'sandbox', productId: 1 },
  'campaigns:create': { fileName: 'a.csv', bytesBase64: 'YQ==', environment: 'sandbox', productId: 1, name: 'Party', senderName: 'Team' },
  'campaigns:stopCreate': { progressId: 'window-1 create-1' },
  'campaigns:list': {},
  'campaigns:get': { campaignId: 'c_1' },
  'campaigns:rows': { campaignId: 'c_1' },
  'campaigns:preflight': { campaignId: 'c_1' },
  'campaigns:send': { campaignId: 'c_1', confirmed: true },
  'campaigns:pause': { campaignId: 'c_1' },
  'campaigns:retryFailed': { campaignId: 'c_1' },
  'campaigns:revalidate': { campaignId: 'c_1' },
  'campaigns:checkNow': { campaignId: 'c_1' },
  'campaigns:timeline': { campaignId: 'c_1' },
  'campaigns:report': { campaignId: 'c_1' },
  'campaigns:followUp': { campaignId: 'c_1', include: ['failed'] },
  'rows:edit': { rowId: 1, name: 'Ann', email: 'ann@example.com', amount: null, message: null },
  'rows:skip': { rowId: 1 },
  'rows:unskip': { rowId: 1 },
  'rows:retry': { rowId: 1 },
  'rows:recordOrder': { rowId: 1, orderId: 900001 },
};

/** Values no field of the contract accepts as they are: tried in turn until one is refused. */
const WRONG_VALUES: readonly unknown[] = [{ nested: { deep: true } }, -1.5, 'not-a-valid-value', [], true, null];

function shapeOf(name: CallName): Record<string, z.ZodType> {
  return (contract[name].input as unknown as { shape: Record<string, z.ZodType> }).shape;
}

/** The input with one field made wrong, for every field that can be wrong. */
function corruptions(name: CallName): { why: string; input: unknown }[] {
  const base = VALID[name] as Record<string, unknown>;
  const out: { why: string; input: unknown }[] = [];
  for (const [key, field] of Object.entries(shapeOf(name))) {
    const wrong = WRONG_VALUES.find((v) => !field.safeParse(v).success);
    if (wrong !== undefined) out.push({ why: `${key} = ${JSON.stringify(wrong)?.slice(0, 40)}`, input: { ...base, [key]: wrong } });
    if (!field.safeParse(undefined).success) {
      const { [key]: _dropped, ...rest } = base;
      out.push({ why: `${key} missing`, input: rest });
    }
  }
  return out;
}

function spyHandlers() {
  const calls: { name: string; input: unknown }[] = [];
  const handlers = Object.fromEntries(
    NAMES.map((name) => [
      name,
      vi.fn(async (input: unknown) => {
        calls.push({ name, input });
        throw new Error('reached the handler');
      }),
    ]),
  ) as unknown as Handlers;
  return { handlers, calls };
}

describe('every IPC call of the contract', () => {
  it('has a well-formed sample here, and each sample passes its schema', () => {
    expect(Object.keys(VALID).sort()).toEqual([...NAMES].sort());
    for (const name of NAMES) expect(contract[name].input.safeParse(VALID[name]).success, name).toBe(true);
  });

  it.each(NAMES)('%s refuses a forged sender (another frame, a subframe, no frame, another page) without reaching the engine', async (name) => {
    const call = vi.fn(async () => ({ ok: true as const, value: {} }));
    const handler = guardedHandler(name, { mainFrame: () => mainFrame, location, call });
    const forged = [
      { senderFrame: { url: mainFrame.url } },
      { senderFrame: { url: `${pathToFileURL(indexFile).href}#/other` } },
      { senderFrame: null },
      { senderFrame: { url: 'https://evil.example/' } },
    ];
    for (const event of forged) expect(await handler(event, VALID[name])).toEqual(FORBIDDEN);
    // No window at all (closed, or not yet created): nothing is trusted.
    const orphan = guardedHandler(name, { mainFrame: () => null, location, call });
    expect(await orphan({ senderFrame: mainFrame }, VALID[name])).toEqual(FORBIDDEN);
    expect(call).not.toHaveBeenCalled();
    // Our own main frame does get through.
    await handler({ senderFrame: mainFrame }, VALID[name]);
    expect(call).toHaveBeenCalledWith(name, VALID[name]);
  });

  it.each(NAMES)('%s refuses malformed input with invalid-input before its handler runs', async (name) => {
    const { handlers, calls } = spyHandlers();
    const handler = guardedHandler(name, { mainFrame: () => mainFrame, location, call: (n, input) => dispatch(handlers, n, input) });
    const malformed = [
      { why: 'a number', input: 42 },
      { why: 'a string', input: 'campaigns' },
      { why: 'an array', input: [VALID[name]] },
      { why: 'a boolean', input: true },
      ...corruptions(name),
    ];
    for (const { why, input } of malformed) {
      expect(await handler({ senderFrame: mainFrame }, input), `${name}: ${why}`).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    }
    expect(calls).toEqual([]);
    // The well-formed sample reaches the handler (which then fails on purpose, as data).
    expect(await handler({ senderFrame: mainFrame }, VALID[name])).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(calls.map((c) => c.name)).toEqual([name]);
  });

  it('the desktop registers every call of the contract through the guard, and nothing else on ipcMain', () => {
    const main = readFileSync(new URL('../../../electron/main/index.ts', import.meta.url), 'utf8');
    expect(main).toMatch(/for \(const name of Object\.keys\(contract\)\) \{\s*const handler = guardedHandler\(name,/);
    expect(main.match(/ipcMain\.\w+\(/g)).toEqual(['ipcMain.handle(']);
  });
});
