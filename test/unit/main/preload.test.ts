import { describe, expect, it, vi } from 'vitest';
import { contract, events } from '../../../shared/contract.ts';
import { CALL_NAMES, EVENT_NAMES } from '../../../electron/preload/channels.ts';

const exposed: Record<string, unknown> = {};
const invoke = vi.fn(async (..._args: unknown[]) => ({ ok: true, value: {} }));
const on = vi.fn();
const removeListener = vi.fn();
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
  ipcRenderer: { invoke, on, removeListener },
}));

await import('../../../electron/preload/index.ts');
const api = exposed.giftbatch as Record<string, unknown> & { on: (event: string, listener: (p: unknown) => void) => () => void };

describe('preload', () => {
  it("lists exactly the contract's call and event names", () => {
    expect([...CALL_NAMES].sort()).toEqual(Object.keys(contract).sort());
    expect([...EVENT_NAMES].sort()).toEqual(Object.keys(events).sort());
  });

  it('exposes window.giftbatch with one function per call and `on`, nothing else (no generic invoke)', () => {
    expect(Object.keys(exposed)).toEqual(['giftbatch']);
    expect(Object.keys(api).sort()).toEqual([...Object.keys(contract), 'on'].sort());
    for (const value of Object.values(api)) expect(typeof value).toBe('function');
    expect(Object.isFrozen(api)).toBe(true);
  });

  it('each call invokes its own channel with the input', async () => {
    const send = api['campaigns:send'] as (input: unknown) => Promise<unknown>;
    await send({ campaignId: 'c1', confirmed: true });
    expect(invoke).toHaveBeenLastCalledWith('campaigns:send', { campaignId: 'c1', confirmed: true });
  });

  it('`on` subscribes to contract events only and hands the listener the payload, not the IPC event', () => {
    const listener = vi.fn();
    const off = api.on('campaign:progress', listener);
    const [channel, wrapped] = on.mock.calls.at(-1) as [string, (event: unknown, payload: unknown) => void];
    expect(channel).toBe('campaign:progress');
    wrapped({ sender: 'secret ipc object' }, { campaign: 'x' });
    expect(listener).toHaveBeenCalledWith({ campaign: 'x' });
    off();
    expect(removeListener).toHaveBeenCalledWith('campaign:progress', wrapped);
    expect(() => api.on('campaigns:send', listener)).toThrow(/not an event/);
  });
});

describe('preload bundle', () => {
  it('imports only electron and its name list, so the sandboxed CommonJS bundle stays self-contained (no zod, no contract)', async () => {
    const { readFileSync } = await import('node:fs');
    const source = readFileSync(new URL('../../../electron/preload/index.ts', import.meta.url), 'utf8');
    const imports = [...source.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
    expect(imports.sort()).toEqual(['./channels.ts', 'electron']);
    const channels = readFileSync(new URL('../../../electron/preload/channels.ts', import.meta.url), 'utf8');
    expect(channels).not.toMatch(/^import /m);
  });
});
