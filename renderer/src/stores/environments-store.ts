// The three environments (Simulator, Sandbox, Production): which one is in use, their base URLs,
// rates and keys (only ever "set, ending …1234"), and the result of a connection test.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { CallOutput, EnvironmentInfo, EnvironmentName } from '../../../shared/contract.ts';
import { settle, type StoreDeps, type UiError } from './deps.ts';

export type TestResult = CallOutput<'environments:test'>;

export interface EnvironmentUi {
  busy: null | 'save' | 'key' | 'test' | 'select';
  error: string | null;
  saved: string | null;
  test: TestResult | null;
  /** Why the key typed was not saved: shown by the key field, kept until the key is changed (a test or a save elsewhere leaves it). */
  keyError: string | null;
  /** "Use" was pressed after this environment's last connection test failed: the card asks before switching. */
  confirmUse: boolean;
}

export interface EnvironmentsState {
  status: 'idle' | 'loading' | 'ready' | 'failed';
  error: UiError | null;
  current: EnvironmentName;
  environments: EnvironmentInfo[];
  ui: Partial<Record<EnvironmentName, EnvironmentUi>>;
  load(): Promise<void>;
  /** Switches to `environment`; when its last connection test failed, asks first (ui.confirmUse) unless `despiteFailedTest`. */
  select(environment: EnvironmentName, opts?: { despiteFailedTest?: boolean }): Promise<boolean>;
  cancelUse(environment: EnvironmentName): void;
  /** The key typed changed: its save error no longer applies. */
  keyEdited(environment: EnvironmentName): void;
  update(environment: EnvironmentName, changes: { baseUrl?: string | null; rate?: number }): Promise<boolean>;
  setKey(environment: EnvironmentName, key: string): Promise<boolean>;
  clearKey(environment: EnvironmentName): Promise<boolean>;
  test(environment: EnvironmentName): Promise<void>;
}

export type EnvironmentsStore = StoreApi<EnvironmentsState>;

const IDLE: EnvironmentUi = { busy: null, error: null, saved: null, test: null, keyError: null, confirmUse: false };

export function currentEnvironment(state: Pick<EnvironmentsState, 'current' | 'environments'>): EnvironmentInfo | null {
  return state.environments.find((e) => e.name === state.current) ?? null;
}

export function uiOf(state: Pick<EnvironmentsState, 'ui'>, name: EnvironmentName): EnvironmentUi {
  return state.ui[name] ?? IDLE;
}

export function createEnvironmentsStore(deps: StoreDeps): EnvironmentsStore {
  return createStore<EnvironmentsState>()((set, get) => {
    const patchUi = (name: EnvironmentName, patch: Partial<EnvironmentUi>): void => {
      set({ ui: { ...get().ui, [name]: { ...uiOf(get(), name), ...patch } } });
    };
    const replace = (info: EnvironmentInfo): void => {
      set({ environments: get().environments.map((e) => (e.name === info.name ? info : e)) });
    };

    return {
      status: 'idle',
      error: null,
      current: 'simulator',
      environments: [],
      ui: {},

      async load() {
        if (get().status === 'idle') set({ status: 'loading' });
        const result = await settle(deps.api['environments:list']({}));
        if (!result.ok) {
          set({ status: 'failed', error: result.error });
          return;
        }
        set({ status: 'ready', error: null, current: result.value.current, environments: result.value.environments });
      },

      async select(environment, opts = {}) {
        if (!opts.despiteFailedTest && uiOf(get(), environment).test?.ok === false) {
          patchUi(environment, { confirmUse: true });
          return false;
        }
        patchUi(environment, { busy: 'select', error: null, confirmUse: false });
        const result = await settle(deps.api['environments:select']({ environment }));
        if (!result.ok) {
          patchUi(environment, { busy: null, error: result.error.message });
          return false;
        }
        set({ current: environment });
        patchUi(environment, { busy: null });
        return true;
      },

      cancelUse(environment) {
        patchUi(environment, { confirmUse: false });
      },

      keyEdited(environment) {
        if (uiOf(get(), environment).keyError !== null) patchUi(environment, { keyError: null });
      },

      async update(environment, changes) {
        // A new address makes the last connection test's result stale.
        patchUi(environment, { busy: 'save', error: null, saved: null, ...('baseUrl' in changes ? { test: null, confirmUse: false } : {}) });
        const result = await settle(deps.api['environments:update']({ environment, ...changes }));
        if (!result.ok) {
          patchUi(environment, { busy: null, error: result.error.message });
          return false;
        }
        const { keyCleared, ...info } = result.value;
        replace(info);
        // A key goes only to the address it was entered for: a new address asks for it again.
        patchUi(environment, {
          busy: null,
          saved: keyCleared ? 'Settings saved. The API key entered for the old address was removed: enter the key for the new one.' : 'Settings saved.',
        });
        return true;
      },

      async setKey(environment, key) {
        patchUi(environment, { busy: 'key', error: null, saved: null, keyError: null });
        const result = await settle(deps.api['environments:setKey']({ environment, key }));
        if (!result.ok) {
          patchUi(environment, { busy: null, keyError: result.error.message });
          return false;
        }
        replace(result.value);
        // A new key: the last test (of the old one) no longer says anything about it.
        patchUi(environment, { busy: null, saved: 'Key saved.', test: null, confirmUse: false });
        return true;
      },

      async clearKey(environment) {
        patchUi(environment, { busy: 'key', error: null, saved: null, test: null, keyError: null, confirmUse: false });
        const result = await settle(deps.api['environments:clearKey']({ environment }));
        if (!result.ok) {
          patchUi(environment, { busy: null, error: result.error.message });
          return false;
        }
        replace(result.value);
        patchUi(environment, { busy: null, saved: 'Key removed.' });
        return true;
      },

      async test(environment) {
        patchUi(environment, { busy: 'test', error: null, saved: null, test: null, confirmUse: false });
        const result = await settle(deps.api['environments:test']({ environment }));
        if (!result.ok) {
          patchUi(environment, { busy: null, test: { ok: false, message: result.error.message, products: null } });
          return;
        }
        patchUi(environment, { busy: null, test: result.value });
      },
    };
  });
}
