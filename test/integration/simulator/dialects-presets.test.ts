// The named presets, their parser, the CLI flags and the embedded pass-through: the ways a test
// or a person picks a dialect without spelling out every switch.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createSimulator, DEFAULT_DIALECT, DIALECT_NAMES, DIALECTS, parseDialect, parseSimulatorArgs, SimulatorArgsError,
  SimulatorError, startEmbeddedSimulator,
} from '../../../electron/simulator/index.ts';
import { startSimulator } from '../../support/simulator-http.ts';

describe('dialect presets', () => {
  it('ours is the default: an empty dialect', () => {
    expect(DIALECTS.ours).toEqual({});
    expect(createSimulator().dialect).toEqual(DEFAULT_DIALECT);
  });

  it('spec-minimal differs from our guess in every switch but the custom amount placement', () => {
    const minimal = { ...DEFAULT_DIALECT, ...DIALECTS['spec-minimal'] };
    const differing = (Object.keys(DEFAULT_DIALECT) as (keyof typeof DEFAULT_DIALECT)[])
      .filter((k) => minimal[k] !== DEFAULT_DIALECT[k]);
    expect(differing.sort()).toEqual(['availabilityBody', 'errorBody', 'listEnvelope', 'listLagMs', 'listOrder', 'productCurrencyField', 'retryAfter']);
    expect(DIALECTS['spec-minimal']).toMatchObject({ productCurrencyField: null, listEnvelope: 'bare', errorBody: 'text', listLagMs: 2000, listOrder: 'newest-first' });
  });

  it('every preset is a valid dialect', () => {
    for (const name of DIALECT_NAMES) expect(() => createSimulator({ dialect: DIALECTS[name] }), name).not.toThrow();
    expect(DIALECTS['bare-list']).toEqual({ listEnvelope: 'bare', errorBody: 'flat' });
    expect(DIALECTS['list-lag']).toEqual({ listLagMs: 3000 });
  });

  it('parseDialect merges names left to right, a later one winning a switch', () => {
    expect(parseDialect('no-currency, list-lag')).toEqual({ productCurrencyField: null, listLagMs: 3000 });
    expect(parseDialect('bare-list,text-errors')).toEqual({ listEnvelope: 'bare', errorBody: 'text' });
    expect(parseDialect('text-errors,bare-list')).toEqual({ listEnvelope: 'bare', errorBody: 'flat' });
  });

  it('parseDialect names the known dialects when it meets an unknown one', () => {
    expect(() => parseDialect('no-currency,klingon')).toThrow(SimulatorError);
    expect(() => parseDialect('klingon')).toThrow(/unknown dialect "klingon"; known dialects: ours, no-currency, .*spec-minimal/);
    expect(() => parseDialect(' , ')).toThrow(/no dialect named/);
  });

  it('refuses a dialect value it does not know, at creation', () => {
    expect(() => createSimulator({ dialect: { listLagMs: -1 } })).toThrow(/listLagMs/);
    expect(() => createSimulator({ dialect: { productCurrencyField: 'amount' } })).toThrow(/productCurrencyField/);
    expect(() => createSimulator({ dialect: { errorBody: 'xml' as 'flat' } })).toThrow(/errorBody must be one of nested, flat, text/);
  });

  it('spec-minimal end to end: no currency, a bare list, text errors, a status word, the list lagging', async () => {
    let t = Date.parse('2025-03-01T10:00:00Z');
    const h = await startSimulator({ dialect: parseDialect('spec-minimal'), now: () => t });
    try {
      const list = (await (await h.get('k', '/v1/products?country_code=US')).json()) as Record<string, unknown>[];
      expect(list.some((p) => 'currency' in p)).toBe(false);
      expect(await (await h.get('k', '/v1/products/1/availability')).text()).toMatch(/^PRODUCT_NOT_FOUND: /);
      expect(await (await h.get('k', `/v1/products/${h.sim.productIdFor('k', 'us-fixed-25')}/availability`)).json()).toEqual({ status: 'IN_STOCK' });
      expect((await h.order('k')).status).toBe(200);
      expect(await (await h.get('k', '/v1/orders?page=0&element_size=10')).json()).toEqual([]);
      t += 2000;
      expect(await (await h.get('k', '/v1/orders?page=0&element_size=10')).json()).toHaveLength(1);
    } finally {
      await h.sim.stop();
    }
  });
});

describe('dialect flags and pass-through', () => {
  it('--dialect, --list-lag and --fault-503-after-commit', () => {
    expect(parseSimulatorArgs(['--dialect', 'no-currency,flat-errors', '--list-lag', '500', '--fault-503-after-commit', '0.25'])).toMatchObject({
      dialect: { productCurrencyField: null, errorBody: 'flat', listLagMs: 500 },
      faults: { error503AfterCommit: 0.25 },
    });
    // Flags apply in order: a later preset overrides an earlier --list-lag.
    expect(parseSimulatorArgs(['--list-lag=1', '--dialect=list-lag']).dialect).toEqual({ listLagMs: 3000 });
  });

  it('a bad --dialect or an over-full fault sum is a flag error naming the known dialects', () => {
    expect(() => parseSimulatorArgs(['--dialect', 'nope'])).toThrow(SimulatorArgsError);
    expect(() => parseSimulatorArgs(['--dialect', 'nope'])).toThrow(/--dialect: unknown dialect "nope"; known dialects: ours,/);
    expect(() => parseSimulatorArgs(['--fault-503', '0.6', '--fault-503-after-commit', '0.6'])).toThrow(/add up to 1\.2/);
  });

  it('startEmbeddedSimulator passes the dialect on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-dialect-'));
    const sim = await startEmbeddedSimulator({ stateFile: join(dir, 'state.jsonl'), dialect: DIALECTS['data-envelope'] });
    try {
      const res = await fetch(`${sim.url}/v1/products`, { headers: { 'SERVICE-API-KEY': 'k' } });
      expect(Object.keys((await res.json()) as object).sort()).toEqual(['data', 'page']);
    } finally {
      await sim.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
